"""What a request to create a table means: the game (validated by the engine), the seats and the
table's own settings (disconnect grace, turn timer, signals between partners, public).  Every problem is a
:class:`BadRequest` with a clear message; the engine's own wording is kept for bad options."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import stich
from stich.bots import Budget, bot_class, default_bot_name
from stich.engine import StichError
from stich.web.settings import env_seconds

#: seconds a decision may take before the seat's bot moves (``timer`` setting)
TIMERS = {"off": None, "relaxed": 60.0, "fast": 15.0}
DEFAULT_GRACE = 60.0
#: when a table's match may go on without a seat's person (``start`` setting): ``when_full`` waits for
#: every invited person (no bot plays a seat nobody has opened) until a seated person says "start";
#: ``now`` lets bots play absent seats from the first moment (their grace runs from the start)
STARTS = ("when_full", "now")
MAX_BOT_SECONDS = 10.0
MAX_BOT_ITERATIONS = 200_000
#: the most a bot may think at a table without a human seat (a stranger can create any number of
#: them), and at any table while none of its human seats is connected: ``STICH_BOTS_ONLY_MAX_SECONDS``
#: and ``STICH_BOTS_ONLY_MAX_ITERATIONS``.  1 s keeps the ``max`` level; 400 iterations is ``ismcts``'s
#: own default (``pimc``'s 16 to 48 worlds need no budget at all).
BOTS_ONLY_SECONDS = 1.0
BOTS_ONLY_ITERATIONS = 400


class BadRequest(ValueError):
    """A request the server refuses, with the message to show (and its HTTP status, 400 but where
    another says more)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


@dataclass
class SeatSpec:
    kind: str                 # human | bot
    bot: str | None = None    # NAME or NAME@BUDGET
    name: str | None = None


@dataclass
class TableSpec:
    game: object              # a stich Game
    seats: list[SeatSpec]
    settings: dict = field(default_factory=dict)
    public: bool = False
    seed: int | None = None        # test hook only (STICH_TEST_HOOKS=1): a chosen deal
    setup: dict | None = None
    rated: bool = False            # the match changes ratings (stich.web.ratings)


def make_game(name, variant=None, options=None):
    if not isinstance(name, str) or not name.strip():
        raise BadRequest("'game' must name a game: " + ", ".join(stich.games()))
    if variant is not None and not isinstance(variant, str):
        raise BadRequest("'variant' must be text")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise BadRequest("'options' must be an object of option names and values")
    for key, value in options.items():
        if not isinstance(value, (str, int, bool)) or value is None:
            raise BadRequest(f"option {key!r} must be text, a number or true/false, not {value!r}")
    try:
        return stich.game(name, variant, **options)
    except StichError as exc:
        raise BadRequest(str(exc)) from None
    except TypeError as exc:
        raise BadRequest(f"bad options: {exc}") from None


def parse_bot(text: str, game_name: str) -> str:
    """``NAME`` or ``NAME@BUDGET`` -> its canonical text; the bot must exist, see only views and play the game."""
    name, _, budget = text.partition("@")
    name = name.strip().lower()
    if name.startswith("cmd:"):
        raise BadRequest("outside programs cannot be seated by the server; connect them through the socket "
                         "with a seat token instead")
    try:
        cls = bot_class(name)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    if cls.sees_everything:
        raise BadRequest(f"the {name} bot sees every card and cannot sit at a table")
    if not cls.supports(game_name):
        raise BadRequest(f"the {name} bot does not play {game_name}")
    if budget:
        try:
            parsed = Budget.parse(budget)
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
        if (parsed.seconds or 0) > MAX_BOT_SECONDS or (parsed.iterations or 0) > MAX_BOT_ITERATIONS:
            raise BadRequest(f"a bot may think at most {MAX_BOT_SECONDS:g}s or {MAX_BOT_ITERATIONS} iterations")
        return f"{name}@{parsed}"
    return name


def bots_only_cap() -> Budget:
    """The budget cap of tables without people (``STICH_BOTS_ONLY_MAX_SECONDS``, default 1;
    ``STICH_BOTS_ONLY_MAX_ITERATIONS``, default 400), checked: a bad value stops the server's start."""
    seconds = env_seconds("STICH_BOTS_ONLY_MAX_SECONDS", BOTS_ONLY_SECONDS, 0.01, MAX_BOT_SECONDS)
    raw = os.environ.get("STICH_BOTS_ONLY_MAX_ITERATIONS", str(BOTS_ONLY_ITERATIONS))
    try:
        iterations = int(raw)
    except ValueError:
        raise ValueError(f"STICH_BOTS_ONLY_MAX_ITERATIONS must be a whole number, not {raw!r}") from None
    if not 1 <= iterations <= MAX_BOT_ITERATIONS:
        raise ValueError(f"STICH_BOTS_ONLY_MAX_ITERATIONS must be between 1 and {MAX_BOT_ITERATIONS}")
    return Budget(seconds=seconds, iterations=iterations)


def bot_budget(spec: str) -> Budget:
    """What ``spec`` thinks with: its own budget, else its class's default (``max``: 1 s)."""
    name, _, budget = spec.partition("@")
    parsed = Budget.parse(budget or None)
    return parsed if parsed else bot_class(name).default_budget


def over_cap(spec: str, cap: Budget) -> bool:
    """Whether ``spec`` may think longer than ``cap`` allows (seconds or iterations)."""
    budget = bot_budget(spec)
    return (budget.seconds or 0) > cap.seconds or (budget.iterations or 0) > cap.iterations


def capped(spec: str, cap: Budget) -> str:
    """``spec`` with its budget cut to ``cap`` (``pimc@10s`` -> ``pimc@1s``); unchanged within it."""
    if not over_cap(spec, cap):
        return spec
    name = spec.partition("@")[0]
    budget = bot_budget(spec)
    if budget.seconds is not None:
        return f"{name}@{Budget(seconds=cap.seconds)}"
    return f"{name}@{Budget(iterations=cap.iterations)}"


def check_bots_only(seats: list[SeatSpec]) -> None:
    """A table without a human seat: its bots within the cap of tables without people (else 400)."""
    if any(s.kind == "human" for s in seats):
        return
    cap = bots_only_cap()
    for i, s in enumerate(seats):
        if over_cap(s.bot, cap):
            raise BadRequest(f"seat {i}: a table without a human seat may give its bots at most "
                             f"{cap.seconds:g}s or {cap.iterations} iterations a decision, not {s.bot!r}; "
                             f"larger budgets are for tables with people")


def parse_seats(seats, game) -> list[SeatSpec]:
    n = game.num_players
    if seats is None:
        return [SeatSpec("human")] + [SeatSpec("bot", default_bot_name(game.name)) for _ in range(n - 1)]
    if not isinstance(seats, list):
        raise BadRequest("'seats' must be a list such as [\"human\", \"bot:pimc\", ...]")
    if len(seats) != n:
        raise BadRequest(f"{game.name} {game.variant} has {n} seats, not {len(seats)}")
    out = []
    for i, item in enumerate(seats):
        if not isinstance(item, str):
            raise BadRequest(f"seat {i} must be 'human' or 'bot:NAME', not {item!r}")
        text = item.strip()
        if text.lower() == "human":
            out.append(SeatSpec("human"))
        elif text.lower() == "bot":
            out.append(SeatSpec("bot", default_bot_name(game.name)))
        elif text.lower().startswith("bot:"):
            out.append(SeatSpec("bot", parse_bot(text[4:], game.name)))
        else:
            raise BadRequest(f"seat {i} must be 'human', 'bot' or 'bot:NAME[@BUDGET]', not {item!r}")
    return out


def timer_seconds(timer) -> float | None:
    """Seconds per decision of a ``timer`` setting (None: no timer)."""
    return TIMERS.get(timer) if isinstance(timer, str) else float(timer)


def parse_settings(body: dict, game) -> dict:
    """The table's own settings: grace (seconds or "never"), timer, signals, bot_delay, start."""
    grace = body.get("grace", DEFAULT_GRACE)
    if isinstance(grace, str) and grace.strip().lower() == "never":
        grace = None
    elif isinstance(grace, bool) or not isinstance(grace, (int, float)) or not 0 <= grace <= 86400:
        raise BadRequest(f"'grace' is seconds (0 to 86400) or \"never\", not {grace!r}")
    timer = body.get("timer", "off")
    if isinstance(timer, bool) or not (timer in TIMERS or (isinstance(timer, (int, float)) and 1 <= timer <= 3600)):
        raise BadRequest(f"'timer' is one of {', '.join(TIMERS)} or seconds from 1 to 3600, not {timer!r}")
    signals = body.get("signals", "off")
    if signals in (True, False):
        signals = "on" if signals else "off"
    if signals not in ("on", "off"):
        raise BadRequest(f"'signals' is on or off, not {signals!r}")
    if signals == "on":
        refusal = signals_refusal(game)
        if refusal is not None:
            raise BadRequest(refusal)
    delay = body.get("bot_delay", 0)
    if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not 0 <= delay <= 5:
        raise BadRequest(f"'bot_delay' is seconds from 0 to 5, not {delay!r}")
    start = body.get("start", STARTS[0])
    if start not in STARTS:
        raise BadRequest(f"'start' is one of {', '.join(STARTS)}, not {start!r}")
    return {"grace": None if grace is None else float(grace), "timer": timer, "signals": signals,
            "bot_delay": float(delay), "start": start}


def parse_table(body) -> TableSpec:
    """A ``POST /api/tables`` body -> TableSpec, or BadRequest."""
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    known = {"game", "variant", "options", "seats", "public", "grace", "timer", "signals", "bot_delay", "start",
             "test", "rated"}
    extra = sorted(set(body) - known)
    if extra:
        raise BadRequest(f"unknown field(s): {', '.join(extra)}; fields are: {', '.join(sorted(known))}")
    game = make_game(body.get("game"), body.get("variant"), body.get("options"))
    seat_specs = parse_seats(body.get("seats"), game)
    check_bots_only(seat_specs)
    public = body.get("public", False)
    if not isinstance(public, bool):
        raise BadRequest("'public' is true or false")
    spec = TableSpec(game, seat_specs, parse_settings(body, game), public)
    spec.rated = parse_rated(body.get("rated", False), game, seat_specs)
    if "test" in body:
        spec.seed, spec.setup = parse_test_hook(body["test"], game)
    return spec


def parse_rated(rated, game, seats: list[SeatSpec]) -> bool:
    """``"rated": true``: every seat human, a game with ratings, its variant's standard options."""
    from stich.web.ratings import standard

    if not isinstance(rated, bool):
        raise BadRequest("'rated' is true or false")
    if not rated:
        return False
    if any(s.kind != "human" for s in seats):
        raise BadRequest("a rated table seats people only: every seat must be \"human\"")
    if not standard(game):
        raise BadRequest(f"a rated table plays {game.name} {game.variant} with its standard options (the "
                         "variant's own, none changed); leave 'options' out or play a casual table")
    return True


def parse_test_hook(test, game) -> tuple[int, dict | None]:
    """``"test": {"seed": N, "setup": {...}}``: a chosen deal, for tests only (``STICH_TEST_HOOKS=1``).

    The twin-table leak test and the storm-versus-undisturbed comparison need the same deal at two
    tables; a real server never accepts it (the deal must stay unknowable)."""
    if os.environ.get("STICH_TEST_HOOKS") != "1":
        raise BadRequest("test hooks are disabled")
    if not isinstance(test, dict) or set(test) - {"seed", "setup"}:
        raise BadRequest("'test' is {\"seed\": N, \"setup\": {...}}")
    seed = test.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise BadRequest("'test.seed' is a whole number from 0 to 2**63-1")
    setup = test.get("setup")
    if setup is not None and not isinstance(setup, dict):
        raise BadRequest("'test.setup' is an object (hands, stock, dealer, scores)")
    try:
        game.new_state(seed=seed, **(setup or {}))
    except StichError as exc:
        raise BadRequest(str(exc)) from None
    except TypeError as exc:
        raise BadRequest(f"bad set-up: {exc}") from None
    return seed, setup or None


def clean_name(name, limit: int = 40) -> str:
    """A display name: text, control characters removed, at most ``limit`` characters."""
    if not isinstance(name, str):
        raise BadRequest("a name is text")
    text = "".join(ch for ch in name if ch.isprintable()).strip()
    if not text:
        raise BadRequest("a name may not be empty")
    if len(text) > limit:
        raise BadRequest(f"a name has at most {limit} characters")
    return text


def signal_games() -> list:
    """The classes of the installed games that declare signals (``Game.signal_words``)."""
    out = []
    for name in stich.games():
        try:
            cls = stich.engine.game_class(name)
        except Exception:  # noqa: BLE001 - a broken game package leaves the others usable
            continue
        if cls.signal_words:
            out.append(cls)
    return out


def signals_refusal(game) -> str | None:
    """Why a table of ``game`` may not allow signals; None if it may.

    The game declares it (``Game.signals_refused``).  A game without signals at all is answered
    with where signals exist (each such game's ``signals_where``), the more useful sentence."""
    if game.signal_words:
        return game.signals_refused()
    # once each: a game built on another (a subclass registered under its own name) shares its sentence
    where = list(dict.fromkeys(cls.signals_where for cls in signal_games() if cls.signals_where))
    return "; ".join(where) if where else game.signals_refused()
