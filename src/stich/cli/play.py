"""``stich play``: one human against bots, a whole match, in plain terminal output.

The loop only uses the public protocol: the human's view, the legal actions, ``apply``,
``record`` and ``stich.replay``.  Bots are asked through :func:`stich.arena.table.ask`: they get
only a private copy of their seat's view and the legal texts; a bot fault (an exception, an
illegal answer, a broken outside program) is reported and a random legal action is played.
"""

from __future__ import annotations

import os
import random
import secrets
import shlex
import shutil
import signal
import sys
from dataclasses import dataclass, field

from rich.markup import escape
from rich.table import Table

import stich
from stich.arena.table import ask, fallback_rng, private_view
from stich.bots import DEFAULT_BUDGET, Bot, Budget, default_bot_name, make_bot
from stich.bots.seeds import new_key, one_way_seed
from stich.cli.render import (
    LANGS,
    Names,
    action_help,
    action_lines,
    default_lang,
    describe_event,
    explain_tricks,
    game_text,
    hand_line,
    hand_result,
    help_module,
    legal_list,
    make_console,
    match_result_text,
    optional_rows,
    view_table,
    word_help,
)
from stich.engine import IllegalActionError, StichError
from stich.engine.recordfile import load_record, quote, save_record

HELP_LINE = ("Type the number of an action, or its text ('play EO'; any spelling such as 'play e-o'; "
             "a card alone such as 'eo' plays it when that is legal; 'cut' alone cuts at random), "
             "'help ACTION' (or 'help 2') for what an action means, 'rules' for this table's rules, "
             "'table' to show the table again, 'hint' for the bot's suggestion, "
             "'autoplay off' to be asked even when there is only one legal action, 'quit' to save and leave.")
RULES_WORDS = ("rules",)

QUIT_WORDS = ("quit", "q", "exit")
HELP_WORDS = ("help", "?")
TABLE_WORDS = ("table", "t")
HINT_WORDS = ("hint",)
AUTOPLAY_WORD = "autoplay"
#: verbs that, typed alone, choose at random among their legal arguments (a real cutter does not count cards)
RANDOM_VERBS = ("cut",)


def forced_action(state) -> str | None:
    """The action the seat to act must take when it has no choice (its only legal action), else None.

    This covers every pointless prompt: a single legal card, a domino pass when no card fits, the Barbu
    caller's ``pass`` in the doubling round when nobody doubled him."""
    legal = state.legal_actions()
    return str(legal[0]) if len(legal) == 1 else None


@dataclass
class Choice:
    """What a line of human input means: kind is action, help, rules, table, hint, autoplay, quit, empty or
    error; ``message``: the help text, the error, or ``on``/``off`` for autoplay."""

    kind: str
    action: str | None = None
    message: str = ""


def resolve_input(text: str, state, rng: random.Random | None = None) -> Choice:
    """Interpret one line typed by the human to act in ``state`` (``rng``: for ``cut`` alone)."""
    legal = state.legal_actions()
    raw = (text or "").strip()
    low = raw.lower()
    if not raw:
        return Choice("empty")
    if low.split()[0] in HELP_WORDS:
        return _help(low.split()[1:], state)
    if low in RULES_WORDS:
        return Choice("rules")
    if low in QUIT_WORDS:
        return Choice("quit")
    if low in TABLE_WORDS:
        return Choice("table")
    if low in HINT_WORDS:
        return Choice("hint")
    if low.split()[0] == AUTOPLAY_WORD:
        arg = low.split()[1:]
        if arg in (["on"], ["off"]):
            return Choice("autoplay", message=arg[0])
        return Choice("error", message="type 'autoplay off' (ask me even when I have one legal action) or "
                                       "'autoplay on' (play it for me)")
    if low in RANDOM_VERBS:
        some = [a for a in legal if a.verb == low and a.arg is not None]
        if some:
            return Choice("action", str((rng or random.Random()).choice(some)))
    if raw.isascii() and raw.isdigit():
        n = int(raw)
        if 1 <= n <= len(legal):
            return Choice("action", str(legal[n - 1]))
        return Choice("error", message=f"there is no action number {n}; choose 1 to {len(legal)}")
    game = state.game
    try:
        _seat, act = game.parse_action(raw)
    except ValueError as exc:  # MalformedActionError, or a game's own argument parser
        short = _shortcut(raw, state)
        if isinstance(short, Choice):
            return short
        return Choice("error", message=f"{exc}. {_hint(legal)}")
    if _seat is not None and _seat - 1 != state.current_player:
        return Choice("error", message=f"{raw!r}: seat {_seat} is not to act; seat {state.current_player + 1} "
                                       "is (yours)")
    if act in legal:
        try:
            state.clone().apply(raw)  # checks a seat prefix, if any
        except StichError as exc:
            return Choice("error", message=str(exc))
        return Choice("action", str(act))
    try:
        state.clone().apply(raw)
    except StichError as exc:
        return Choice("error", message=str(exc))
    return Choice("error", message=f"{raw!r} is not legal now. {_hint(legal)}")


def _help(args: list[str], state) -> Choice:
    """``help``: the input line and the verbs of this moment; ``help VERB`` or ``help N``: what it means."""
    legal = state.legal_actions()
    verbs = list(dict.fromkeys(a.verb for a in legal))
    if not args:
        now = ", ".join(f"'help {v}'" for v in verbs if action_help(state.game, v))
        words = list(getattr(help_module(state.game), "WORDS", {}))[:6]
        return Choice("help", message=HELP_LINE + (f" What your actions mean: {now}." if now else "")
                      + (f" The game's words too: 'help {words[0]}' ({', '.join(words[1:])}, …)." if words else ""))
    if word_help(state.game, " ".join(args)) and not action_help(state.game, args[0]):
        return Choice("help", message=word_help(state.game, " ".join(args)))
    word = args[0]
    if word.isascii() and word.isdigit() and 1 <= int(word) <= len(legal):
        word = legal[int(word) - 1].verb
    if action_help(state.game, word) is None:   # an argument (NO_LAST_TWO, DOMINO): its action's verb
        word = next((a.verb for a in state.game.action_space if a.arg and word in a.arg.lower().split()), word)
    text = action_help(state.game, word) or word_help(state.game, word)
    if text is None:
        known = sorted({a.verb for a in state.game.action_space})
        return Choice("error", message=f"{state.game.name} has no action {word!r}; its actions: {', '.join(known)}")
    return Choice("help", message=text)


def rules_text(game, lang: str) -> str:
    """The table's rules in a line (game, variant, the options not at their default) and where the complete
    rules and the player's guide are in the stich repository."""
    return (f"{game.rules_summary()}. The complete rules as stich plays them: docs/rules/{game.name}.md in the "
            f"stich repository; a one-page player's guide: docs/guides/{game.name}.{lang}.md. "
            "'help ACTION' explains an action, 'help WORD' a word of the game.")


def options_table(game) -> Table:
    """Every option of the table: its value here and the rule it sets (section, and what it means)."""
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 1), pad_edge=False)
    for col in ("option", "here", "rule"):
        table.add_column(col)
    specs = {spec.name: spec for spec in getattr(game, "option_specs", ())}
    for name, value in game.options.items():
        spec = specs.get(name)
        rule = " — ".join(x for x in (spec.rule, spec.help) if x) if spec else ""
        table.add_row(escape(str(name)), escape(str(value)), escape(rule))
    return table


def _shortcut(raw: str, state) -> Choice | None:
    """A card alone (``eo``) or an argument alone (``O``) for the one legal action taking it."""
    legal = state.legal_actions()
    deck = state.game.deck
    if deck.is_card(raw):
        code = deck.code(deck.parse(raw))
        matches = [a for a in legal if a.arg == code]
        if len(matches) == 1:
            return Choice("action", str(matches[0]))
        if not matches:
            verbs = sorted({a.verb for a in legal if a.arg is not None and deck.is_card(a.arg)}
                           | ({state.game.card_verb} if state.game.card_verb else set()))
            for verb in verbs:  # let the engine say why, e.g. "you must follow suit"
                try:
                    state.clone().apply(f"{verb} {code}")
                except IllegalActionError as exc:
                    return Choice("error", message=str(exc))
                except StichError:
                    continue
            return Choice("error", message=f"{code} cannot be used now. {_hint(legal)}")
        return Choice("error", message=f"{code} is ambiguous here: " + ", ".join(map(str, matches)))
    low = raw.lower()
    matches = [a for a in legal if a.arg is not None and a.arg.lower() == low]
    if not matches:
        matches = [a for a in legal if a.verb == low]
    if len(matches) == 1:
        return Choice("action", str(matches[0]))
    return None


def _hint(legal) -> str:
    return f"Type 1 to {len(legal)}, an action such as {str(legal[0])!r}, or 'help'."


def _budget_text(budget) -> str:
    """``thinking budget 0.5s``, or the bots' own default when none is set."""
    return f"thinking budget {escape(str(budget))}" if budget else "each bot's own thinking budget"


class Stopped(BaseException):
    """SIGTERM or SIGHUP arrived: the match is saved and the command ends (raised between actions)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def stich_command() -> str:
    """How the user ran ``stich``, as a command that works again: ``stich`` when that is on the PATH,
    else the path typed (``.venv/bin/stich``), else ``python -m stich.cli.main``."""
    argv0 = sys.argv[0] if sys.argv and sys.argv[0] else ""
    if os.path.basename(argv0) == "stich":
        found = shutil.which("stich")
        if found and os.path.realpath(found) == os.path.realpath(argv0):
            return "stich"
        return shlex.quote(argv0)
    return f"{shlex.quote(sys.executable)} -m stich.cli.main"


@dataclass
class Match:
    """One interactive match: the state, the human seat and the bots."""

    state: object
    human: int
    bots: dict[int, Bot]
    bot_names: list[str]
    lang: str
    record_path: str
    console: object = field(default_factory=make_console)
    seen: int = 0
    hints: bool = False
    budget: str | None = None
    hint_name: str | None = None
    #: the secret that seeds the bots one way (kept in the record's ``cli`` part, never shown to a bot)
    key: str = field(default_factory=new_key)
    autoplay: bool = True   # play the human's forced moves for them (forced_action)

    def __post_init__(self):
        self.names = Names(self.state.game, self.lang, self.human)
        self.rngs = {s: fallback_rng(self.state.seed, s) for s in self.bots}
        self._hint_bot = None
        self._applying = False  # inside state.apply: a signal waits until the action is complete
        self._pending: int | None = None
        self.cut_rng = random.Random()   # 'cut' alone: a real cutter does not count the cards either
        if self.hint_name is None:
            self.hint_name = default_bot_name(self.state.game.name)

    # --- hints ----------------------------------------------------------------------------------
    def hint(self) -> str | None:
        """What the default bot would play for the human, from the human's own view only."""
        if self._hint_bot is None:
            self._hint_bot = make_bot(self.hint_name, seed=one_way_seed(self.key, "hint", len(self.state.history)),
                                      budget=self.budget or DEFAULT_BUDGET)
        legal = [str(a) for a in self.state.legal_actions()]
        try:
            action = self._hint_bot.choose(private_view(self.state, self.human), list(legal))
        except Exception as exc:  # noqa: BLE001 - a hint must never stop the game
            self.say(f"[red]No hint: the {escape(self.hint_name)} bot failed ({escape(type(exc).__name__)}: "
                     f"{escape(str(exc))})[/red]")
            return None
        if action not in legal:
            self.say(f"[red]No hint: the {escape(self.hint_name)} bot suggested {escape(repr(action))}, "
                     "which is not legal[/red]")
            return None
        self.say(f"Hint ({escape(self.hint_name)}, {_budget_text(self._hint_bot.budget)}): "
                 f"{self.names.action(action)}")
        return action

    def close(self) -> None:
        """Release the bots (outside programs are stopped)."""
        for bot in [*self.bots.values(), self._hint_bot]:
            if bot is not None:
                try:
                    bot.close()
                except Exception:  # noqa: BLE001
                    pass

    # --- output ----------------------------------------------------------------------------
    def say(self, text: str) -> None:
        self.console.print(text, soft_wrap=True)

    def new_events(self) -> list[dict]:
        """The events the human may see that were not narrated yet.

        Reads the state's event log (``(audience, payload)`` pairs, kept by the engine's base
        State) incrementally, with the same audience rule as ``view``; without one, falls back
        to the view's ``events`` list."""
        log = getattr(self.state, "events", None)
        if not isinstance(log, list):
            events = self.state.view(self.human)["events"]
            new, self.seen = events[self.seen:], len(events)
            return new
        bit = 1 << self.human
        new = [dict(ev) for aud, ev in log[self.seen:] if aud is None or aud & bit]
        self.seen = len(log)
        return new

    def narrate(self, events: list[dict]) -> None:
        for ev in events:
            line = describe_event(ev, self.names)
            if line:
                self.say(line)

    def show_table(self, fit: bool = True) -> None:
        """The title, the table and the numbered legal actions; on a terminal (``fit``), within its height:
        the actions lose their long card names, then the table its last optional rows ('table' shows all)."""
        view = self.state.view(self.human)
        g = self.state.game
        title = f"{g.title or g.name} · {g.variant} · you are Seat {self.human + 1} of {g.num_players}"
        where = hand_line(view, self.names)
        legal = view.get("legal_actions") or []
        drop, short = 0, False
        if fit and self.console.is_terminal:
            room = self.console.height - 4   # a blank line, the title, "Your legal actions", the prompt
            actions = self.lines(legal_list(legal, self.names))
            if actions + self.lines(view_table(view, self.names, hand_row=False)) > room:
                short, actions = True, self.lines(legal_list(legal, self.names, short=True))
            most = optional_rows(view, self.names)
            while drop < most and actions + self.lines(view_table(view, self.names, hand_row=False, drop=drop)) > room:
                drop += 1
        self.say("")
        self.say(f"[bold]{escape(title)}[/bold]" + (f" · {escape(where)}" if where else ""))
        self.console.print(view_table(view, self.names, hand_row=False, drop=drop))
        if legal:
            left_out = f" ({drop} row{'s' if drop > 1 else ''} left out: 'table' shows all)" if drop else ""
            self.say(f"Your legal actions{left_out}:")
            self.console.print(legal_list(legal, self.names, short=short))

    def lines(self, renderable) -> int:
        """How many terminal lines ``renderable`` takes."""
        return len(self.console.render_lines(renderable, self.console.options, pad=False))

    # --- signals ----------------------------------------------------------------------------
    def catch_signals(self) -> None:
        """SIGTERM and SIGHUP stop the match between two actions (raise :class:`Stopped`), never inside one."""
        def stop(signum, _frame):
            if self._applying:
                self._pending = signum  # raised once the action is fully applied
            else:
                raise Stopped(signum)

        self._handlers = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGHUP)}

    def release_signals(self) -> None:
        """Give SIGTERM and SIGHUP back to the handlers they had before :meth:`catch_signals`."""
        for sig, handler in getattr(self, "_handlers", {}).items():
            signal.signal(sig, handler)
        self._handlers = {}

    def _apply(self, action) -> None:
        self._applying = True
        try:
            self.state.apply(action)
        finally:
            self._applying = False
        pending, self._pending = self._pending, None
        if pending is not None:
            raise Stopped(pending)

    # --- the loop ---------------------------------------------------------------------------
    def run(self) -> str:
        """Play until the match ends or the human quits; returns ``"over"`` or ``"quit"``."""
        state = self.state
        g = state.game
        self.say(f"[bold]{escape(g.rules_summary())}[/bold] — you are Seat {self.human + 1}; bots: "
                 + ", ".join(f"Seat {i + 1}: {escape(b)}" for i, b in enumerate(self.bot_names) if i != self.human)
                 + f" ({_budget_text(self.budget or DEFAULT_BUDGET)}). Type 'help' for help, 'rules' for the rules.")
        events = self.new_events()
        if state.history:  # resumed: recall only the hand in progress
            starts = [i for i, ev in enumerate(events) if ev.get("type") == "hand_start"]
            self.say(f"Resuming after {len(state.history)} actions (hand {state.hand_number}).")
            events = events[starts[-1]:] if starts else events
        self.narrate(events)
        while not state.is_terminal():
            seat = state.current_player
            hand = state.hand_number
            forced = None
            if seat == self.human:
                action = forced = forced_action(state) if self.autoplay else None
                if action is None:
                    action = self.ask()
                if action is None:
                    return "quit"
            else:
                action, fault = ask(self.bots[seat], state, seat, self.rngs[seat])
                if fault is not None:
                    self.say(f"[red]Bot fault[/red]: the {escape(self.bot_names[seat])} bot at seat {seat + 1}: "
                             f"{escape(fault['error'])}; the table plays a random legal action instead.")
            before = state.view(self.human)   # what the human knew: to say why a trick was won, or what stays secret
            self._apply(action)
            new = self.new_events()
            explain_tricks(new, before, seat, str(action), self.names)
            over = state.hand_number != hand or state.is_terminal()
            split = next((i for i, ev in enumerate(new) if ev.get("type") == "hand_start"), len(new)) \
                if over else len(new)   # this hand's events, then the next hand's
            lines = action_lines(seat, action, new[:split], self.names)
            if forced:   # said on the action's own line: a domino deal has a dozen of them
                lines[:1] = [(lines[0] if lines else f"[bold]You[/bold]: {self.names.action(forced)}")
                             + " [dim](your only legal action, played for you)[/dim]"]
            for line in lines:
                self.say(line)
            if over:
                self.hand_over(hand, new[:split], before)
                self.narrate(new[split:])
                if not state.is_terminal():
                    self.save(final=False, quiet=True)  # a hand is never lost
        self.finish()
        return "over"

    def hand_over(self, hand: int, shown=(), before: dict | None = None) -> None:
        """The hand's result, and what stays secret after it (the game text's ``hand_end_note``, from the
        human's view ``before`` the hand's last action)."""
        result = hand_result(self.state.hand_summary(), hand, shown)
        if result:
            self.say(f"[bold]Hand {hand} result[/bold]: {self.names.value(result)}")
        own = game_text(self.state.game)
        note = own.hand_end_note(before, self.names) if before and hasattr(own, "hand_end_note") else None
        if note:
            self.say(note)

    def ask(self) -> str | None:
        self.show_table()
        if self.hints:
            self.hint()
        n = len(self.state.legal_actions())
        while True:
            try:
                text = self.console.input(f"Your move [1-{n}, action, help, quit]: ")
            except (EOFError, KeyboardInterrupt):
                self.say("")
                text = "quit"
            try:
                choice = resolve_input(text, self.state, self.cut_rng)
            except Exception as exc:  # a game's parser or rule check failed on this text
                choice = Choice("error", message=f"{text!r} could not be read ({type(exc).__name__}: {exc})")
            if choice.kind == "action":
                return choice.action
            if choice.kind == "quit":
                self.save(final=False)
                return None
            if choice.kind == "help":
                self.say(escape(choice.message))
            elif choice.kind == "rules":
                self.console.print(options_table(self.state.game))
                self.say(escape(rules_text(self.state.game, self.lang)))
            elif choice.kind == "table":
                self.show_table(fit=False)
            elif choice.kind == "hint":
                self.hint()
            elif choice.kind == "autoplay":
                self.autoplay = choice.message == "on"
                self.say("Autoplay is on: your forced moves play themselves." if self.autoplay else
                         "Autoplay is off: you are asked for every move, even a forced one.")
            elif choice.kind == "error":
                self.say(f"[red]Not accepted:[/red] {escape(choice.message)}")

    def finish(self) -> None:
        state = self.state
        self.narrate(self.new_events())
        self.show_table()
        returns = state.returns()
        self.say(f"[bold]Match over.[/bold] {match_result_text(state.view(self.human), returns, self.names)}.")
        for seat, bot in self.bots.items():
            try:
                bot.end(private_view(state, seat), list(returns))
            except Exception:  # noqa: BLE001
                pass
        self.save(final=True)

    def record(self) -> dict:
        rec = self.state.record()
        rec["cli"] = {"seat": self.human, "bots": self.bot_names, "lang": self.lang, "key": self.key}
        if self.budget:
            rec["cli"]["budget"] = self.budget
        return rec

    def save(self, final: bool, quiet: bool = False) -> None:
        """Write the record atomically (a temporary file, fsync, rename): a crash keeps the old or the new."""
        path = self.record_path
        save_record(path, self.record())
        if quiet:
            return
        where = escape(os.path.abspath(path))
        if final:
            self.say(f"Record saved to {where}")
        else:
            self.say(f"Unfinished match saved to {where}\nContinue with: "
                     + escape(f"{stich_command()} play --resume {shlex.quote(str(path))}"))


def parse_options(pairs) -> dict:
    """``["target=11", "maschine=on"]`` -> dict; ValueError for an item without ``=``."""
    out = {}
    for item in pairs or ():
        if "=" not in item:
            raise ValueError(f"--option takes name=value, not {item!r}")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def make_bots(spec: str | None, human: int, num_players: int, key, budget=None,
              game: str | None = None, moves: int = 0) -> tuple[dict[int, Bot], list[str]]:
    """Bots for every seat but the human's from one bot or a comma list (one per other seat).

    A bot is a registered name or ``cmd:PROGRAM``; ``None`` means the best available bot for
    ``game`` (:func:`stich.bots.default_bot_name`).  ``budget``: thinking time or iterations
    (default ``DEFAULT_BUDGET``).  Bot seeds are one-way: a keyed hash of the secret ``key``,
    the seat and ``moves`` (the actions already played), so no bot can compute the deal."""
    names = [s.strip() for s in str(spec or "").split(",") if s.strip()] or [default_bot_name(game)]
    others = [s for s in range(num_players) if s != human]
    if len(names) == 1:
        names = names * len(others)
    if len(names) != len(others):
        raise ValueError(f"--bots takes one bot name or {len(others)} comma-separated names, not {spec!r}")
    budget = budget or DEFAULT_BUDGET
    bots = {s: make_bot(n, seed=one_way_seed(key, "bot", s, moves), budget=budget)
            for s, n in zip(others, names, strict=True)}
    for s, bot in bots.items():
        if bot.sees_everything:
            raise ValueError(f"the {names[others.index(s)]} bot sees every card and cannot sit at a table with "
                             "a human")
    labels = ["human" if s == human else names[others.index(s)] for s in range(num_players)]
    return bots, labels


def start_match(game_name, variant, seat, seed, options, lang, bots, record_path, resume, console=None,
                budget=None, hints=False, autoplay=True) -> Match:
    """Build a Match from command-line arguments (new, or resumed from a record file).

    Raises ValueError (StichError included) with a clear message for bad arguments.
    """
    cli_info = {}
    if resume:
        try:
            rec = load_record(resume)
        except StichError as exc:
            raise ValueError(str(exc)) from None
        if variant or options or seed is not None:
            raise ValueError("--resume continues the record's own game: leave out --variant, --option and --seed")
        try:
            state = stich.replay(rec)
        except StichError as exc:
            raise ValueError(f"cannot resume {resume}: {exc}") from None
        if game_name and str(game_name).strip().lower() != state.game.name:
            raise ValueError(f"{resume} is a record of {state.game.name}, not {game_name}")
        cli_info = saved_cli(rec, resume, state.game.num_players)
        record_path = record_path or resume
    else:
        if not game_name:
            raise ValueError("name a game (stich play GAME) or --resume a record file")
        g = stich.game(game_name, variant, **parse_options(options))
        state = g.new_state(seed=seed)
    g = state.game
    if seat is None:
        seat = cli_info.get("seat", 0) + 1
    if not 1 <= seat <= g.num_players:
        raise ValueError(f"--seat must be 1 to {g.num_players} in {g.name}, not {seat}")
    human = seat - 1
    if lang is None:
        lang = cli_info.get("lang") or default_lang(g.name)
    if bots is None:
        saved = [b for i, b in enumerate(cli_info.get("bots") or []) if i != human and b != "human"]
        outside = [b for b in saved if b.strip().lower().startswith("cmd:")]
        if outside:  # records are shared: a record never starts a program by itself
            raise ValueError(
                f"{resume} was played against outside programs ({', '.join(quote(b) for b in outside)}); "
                "stich never starts a program named in a record. To resume with them, name them yourself: "
                f"--bots {shlex.quote(','.join(saved))}; or name other bots with --bots")
        bots = ",".join(saved) if saved else None
    budget = budget or cli_info.get("budget")
    if budget:
        budget = str(Budget.parse(budget))
    key = cli_info.get("key") or new_key()
    bot_map, labels = make_bots(bots, human, g.num_players, key, budget=budget, game=g.name,
                                moves=len(state.history))
    record_path = record_path or default_record_path(g.name, seed)
    kw = {"console": console} if console is not None else {}
    return Match(state, human, bot_map, labels, lang, record_path, hints=hints, budget=budget, key=key,
                 autoplay=autoplay, **kw)


def default_record_path(game: str, seed: int | None) -> str:
    """``stich-GAME-SEED.json`` for a chosen seed, else ``stich-GAME-xxxxxx.json`` (6 random characters),
    never the name of an existing file."""
    if seed is not None:
        return f"stich-{game}-{seed}.json"
    while True:
        path = f"stich-{game}-{secrets.token_hex(3)}.json"
        if not os.path.exists(path):
            return path


def saved_cli(rec: dict, where: str, num_players: int) -> dict:
    """The record's ``cli`` part (seat, bots, lang, budget, key), checked: ValueError naming the file."""
    info = rec.get("cli")
    if info is None:
        return {}
    if not isinstance(info, dict):
        raise ValueError(f"{where}: the 'cli' field must be an object (seat, bots, lang), not {quote(info)}")
    seat = info.get("seat", 0)
    if type(seat) is not int or not 0 <= seat < num_players:
        raise ValueError(f"{where}: 'cli.seat' must be a seat 0..{num_players - 1}, not {quote(seat)}")
    bots = info.get("bots")
    if bots is not None and not (isinstance(bots, list) and len(bots) == num_players
                                 and all(isinstance(b, str) and b.strip() for b in bots)):
        raise ValueError(f"{where}: 'cli.bots' must be a list of {num_players} bot names, not {quote(bots)}")
    lang = info.get("lang")
    if lang is not None and lang not in LANGS:
        raise ValueError(f"{where}: 'cli.lang' must be one of {', '.join(LANGS)}, not {quote(lang)}")
    for name in ("budget", "key"):
        if info.get(name) is not None and not (isinstance(info[name], str) and 0 < len(info[name]) <= 200):
            raise ValueError(f"{where}: 'cli.{name}' must be text, not {quote(info[name])}")
    return {"seat": seat, "bots": bots, "lang": lang, "budget": info.get("budget"), "key": info.get("key")}
