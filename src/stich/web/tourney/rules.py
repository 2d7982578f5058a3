"""What a request to create a tournament means (``POST /api/tournaments``), checked: every problem is a
:class:`~stich.web.spec.BadRequest` with a clear message, and nothing is stored.

Duplicate needs deals that come from the seed alone, the same at every table whatever is played, and
a match of a chosen number of deals.  That holds for Biscambiggia (its ``hands_per_match``) and Barbu
(always the 28 deals of its rules); in Watten and Battn the cutter's cut is a player's action, so two
tables dealt from one seed hold different hands from the first cut on: they are refused with that
reason (docs/tournaments.md, "Duplicate")."""

from __future__ import annotations

from dataclasses import dataclass

from stich.web.spec import BadRequest, SeatSpec, check_bots_only, clean_name, make_game, parse_bot

KINDS = ("rounds", "swiss", "duplicate")
MAX_PLAYERS = 128
MAX_ROUNDS = 20
MAX_MATCHES = 10      # matches per round (rounds, swiss)
MAX_DEALS = 40        # deals per round (duplicate)
#: games that can be played in duplicate: how a match of G deals is asked of the engine
DUPLICATE = {
    "biscambiggia": lambda deals: {"hands_per_match": deals},
    "barbu": lambda deals: {} if deals == 28 else None,   # a Barbu match is its 28 deals (rules §1.3)
}
REFUSED = {
    "watten": "in Watten the cutter's cut is a player's action, so tables dealt from one seed hold different "
              "hands from the first cut on",
    "battn": "in Battn the cutter's cut is a player's action, so tables dealt from one seed hold different "
             "hands from the first cut on",
}


@dataclass
class Player:
    name: str
    kind: str            # human | bot
    bot: str | None = None


@dataclass
class Config:
    game: object         # a stich Game (with a duplicate's deal count in its options)
    kind: str
    rounds: int
    games_per_round: int
    players: list[Player]
    registration: bool = False   # people may register themselves by link until round 1 is drawn

    @property
    def format(self) -> dict:
        return {"kind": self.kind, "rounds": self.rounds, "games_per_round": self.games_per_round}

    @property
    def tables(self) -> int:
        return len(self.players) // self.game.num_players


def _count(fmt: dict, key: str, most: int) -> int:
    value = fmt.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise BadRequest(f"'format.{key}' is a whole number from 1 to {most}, not {value!r}")
    return value


def parse_players(items, game, registration: bool = False) -> list[Player]:
    """The players as listed; with ``registration`` the list may be short or empty (people join by link: the
    tables are counted when round 1 is drawn)."""
    if registration and items in (None, []):
        return []
    if not isinstance(items, list) or not items:
        raise BadRequest("'players' is a list of {\"name\": N, \"kind\": \"human\" | \"bot:NAME\"}")
    if len(items) > MAX_PLAYERS:
        raise BadRequest(f"a tournament has at most {MAX_PLAYERS} players, not {len(items)}")
    out, seen = [], {}
    for i, item in enumerate(items):
        if not isinstance(item, dict) or set(item) - {"name", "kind"} or "name" not in item:
            raise BadRequest(f"player {i + 1}: {{\"name\": N, \"kind\": \"human\" | \"bot:NAME\"}}, not {item!r}")
        try:
            name = clean_name(item["name"])
        except BadRequest as exc:
            raise BadRequest(f"player {i + 1}: {exc}") from None
        key = name.casefold()
        if key in seen:
            raise BadRequest(f"player {i + 1}: the name {name!r} is taken by player {seen[key] + 1}")
        seen[key] = i
        kind = item.get("kind", "human")
        if kind == "human":
            out.append(Player(name, "human"))
        elif isinstance(kind, str) and kind.startswith("bot:"):
            out.append(Player(name, "bot", parse_bot(kind[4:], game.name)))
        else:
            raise BadRequest(f"player {i + 1}: 'kind' is \"human\" or \"bot:NAME\", not {kind!r}")
    n = game.num_players
    if registration:
        return out
    if len(out) < n or len(out) % n:
        more = n - len(out) % n if len(out) >= n else n - len(out)
        raise BadRequest(f"{len(out)} players do not fill tables of {n} ({game.name} {game.variant}): "
                         f"add {more} player(s) or bot(s) (\"kind\": \"bot:NAME\"; bots are never ranked)")
    return out


def parse_tournament(body) -> Config:
    """A ``POST /api/tournaments`` body -> Config, or BadRequest."""
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    known = {"game", "variant", "options", "format", "players", "registration"}
    extra = sorted(set(body) - known)
    if extra:
        raise BadRequest(f"unknown field(s): {', '.join(extra)}; fields are: {', '.join(sorted(known))}")
    fmt = body.get("format")
    if not isinstance(fmt, dict) or set(fmt) - {"kind", "rounds", "games_per_round"}:
        raise BadRequest("'format' is {\"kind\": \"rounds\" | \"swiss\" | \"duplicate\", \"rounds\": R, "
                         "\"games_per_round\": G}")
    kind = fmt.get("kind")
    if kind not in KINDS:
        raise BadRequest(f"'format.kind' is one of {', '.join(KINDS)}, not {kind!r}")
    rounds = _count(fmt, "rounds", MAX_ROUNDS)
    games = _count(fmt, "games_per_round", MAX_DEALS if kind == "duplicate" else MAX_MATCHES)
    options = body.get("options")
    game = make_game(body.get("game"), body.get("variant"), options)
    if kind == "duplicate":
        game = duplicate_game(game, games, options)
    registration = body.get("registration", False)
    if not isinstance(registration, bool):
        raise BadRequest(f"'registration' is true (people register by link until round 1) or false, "
                         f"not {registration!r}")
    players = parse_players(body.get("players"), game, registration)
    bots = [SeatSpec("bot", p.bot) for p in players if p.kind == "bot"]
    if len(bots) >= game.num_players:   # a table of bots only may be drawn: the cap of such tables applies
        check_bots_only(bots)
    if kind == "duplicate" and len(players) < 2 * game.num_players and not registration:
        raise BadRequest("duplicate compares the tables that held the same cards: it needs at least two tables "
                         f"({2 * game.num_players} players or bots)")
    return Config(game, kind, rounds, games, players, registration)


def check_field(players: list, game, kind: str) -> str | None:
    """Why these registered players (:class:`Player` or rows with ``kind``) cannot be drawn into tables, in
    words, or None: the first draw of a tournament open to registration checks what creation could not."""
    n, count = game.num_players, len(players)
    if count < n or count % n:
        more = n - count % n if count >= n else n - count
        return (f"{count} players do not fill tables of {n} ({game.name} {game.variant}): {more} more must "
                f"register, or the draw fills the tables with bots (\"fill\": \"bot:NAME\")")
    if kind == "duplicate" and count < 2 * n:
        return f"duplicate compares the tables that held the same cards: it needs at least two tables ({2 * n} players)"
    return None


def duplicate_game(game, deals: int, options):
    """The game of a duplicate tournament: a match of ``deals`` deals, or BadRequest saying why not."""
    if game.name in REFUSED:
        raise BadRequest(f"{game.name} cannot be played in duplicate: {REFUSED[game.name]}; "
                         f"duplicate is for {', '.join(sorted(DUPLICATE))}")
    length = DUPLICATE.get(game.name)
    if length is None:
        raise BadRequest(f"{game.name} cannot be played in duplicate; duplicate is for {', '.join(sorted(DUPLICATE))}")
    extra = length(deals)
    if extra is None:
        raise BadRequest(f"a {game.name} match is 28 deals: a duplicate round of {game.name} has "
                         f"\"games_per_round\": 28, not {deals}")
    clash = sorted(k for k in extra if k in (options or {}) and options[k] != extra[k])
    if clash:
        raise BadRequest(f"in duplicate 'games_per_round' sets {', '.join(clash)}: leave it out of 'options'")
    return make_game(game.name, game.variant, {**(options or {}), **extra})


def fill_field(t, fill) -> str | None:
    """A tournament open to registration (``t``: ``service.Loaded``), at its first draw: the tables filled
    with bots of ``fill`` (``"bot:NAME"``, None: none; appended to ``t.players``, stored with the draw),
    then checked; why it cannot be drawn (in words), or None."""
    if fill is not None:
        if not isinstance(fill, str) or not fill.startswith("bot:"):
            raise BadRequest(f"'fill' is \"bot:NAME\", the bot that fills the tables, not {fill!r}")
        bot = parse_bot(fill[4:], t.game.name)
        n = t.game.num_players
        taken, number = {p["name"].casefold() for p in t.players}, 0
        while t.players and len(t.players) % n:
            number += 1
            if f"bot {number}" not in taken:
                t.players.append(dict(tournament_id=t.id, number=len(t.players), name=f"Bot {number}", kind="bot",
                                      bot=bot, token_hash=None, player_id=None))
        bots = [SeatSpec("bot", p["bot"]) for p in t.players if p["kind"] == "bot"]
        if len(bots) >= n:
            check_bots_only(bots)
    return check_field(t.players, t.game, t.fmt["kind"])
