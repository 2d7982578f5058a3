"""Ratings and history: what a finished match leaves for the players who sat in it (docs/ratings.md).

When a match ends, the transaction that stores its last action also runs :func:`finish_match`: it
writes one ``player_matches`` row per seat a player held (the history) and, at a rated table, moves
each player's rating of the match's key.  One transaction: a crash before its commit leaves the
match unfinished (it resumes and ends again later), a crash after leaves everything counted, and
the rows' key ``(table, seat)`` would refuse a second count.

Ratings are Weng-Lin (OpenSkill's Plackett-Luce model: teams and any number of sides), one per game
and player count (:func:`keys`: ``watten/4``, ``watten/3``, ``watten/2``, ``battn``, ``biscambiggia``,
``barbu`` for the games shipped).  The rule that turns a match into sides and places is :func:`sides`,
read from the game's own declarations (``scores_by``, ``side_of``, ``two_sided``), so a new game is
rated without a change here; the number shown is :func:`display`."""

from __future__ import annotations

import functools
import logging
import os
import time

from sqlalchemy import Boolean, Column, Float, Integer, String, Table, Text, func, select

import stich
from stich.web import facts, store

log = logging.getLogger("stich.web")

#: the display scale: 1500 + SCALE * (mu - 25), deviation SCALE * sigma (a new player: 1500 +- 350)
BASE, SCALE = 1500.0, 42.0
MU0 = 25.0
SIGMA0 = MU0 / 3

ratings = Table(
    "ratings", store.metadata,
    Column("player_id", Integer, primary_key=True),
    Column("key", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("matches", Integer, nullable=False),
)

player_matches = Table(
    "player_matches", store.metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", Integer, nullable=False),
    Column("game", String(64), nullable=False),
    Column("variant", String(64), nullable=False),
    Column("key", String(32), nullable=False),
    Column("result", String(16), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("finished", Float, nullable=False),
    Column("before", Float),
    Column("after", Float),
    Column("deviation", Float),
    Column("facts", Text),   # JSON: the seat's figures of the match (stich.web.stats.facts; NULL before 0010)
)


@functools.cache
def _player_counts(name: str) -> tuple[int, ...]:
    """The player counts of a game's variants, most first."""
    cls = stich.engine.game_class(name)
    variants = getattr(cls, "variants", None) or (None,)
    return tuple(sorted({stich.game(name, v).num_players for v in variants}, reverse=True))


def rating_key(game) -> str:
    """The key a match of ``game`` is rated under: the game's name, with the player count where its
    variants are played by different numbers of players (one rating each: a different game to master)."""
    counts = _player_counts(game.name)
    return f"{game.name}/{game.num_players}" if len(counts) > 1 else game.name


@functools.cache
def keys() -> tuple[str, ...]:
    """Every rating key of the installed games, in the games' order."""
    out = []
    for name in stich.games():
        counts = _player_counts(name)
        out += [f"{name}/{n}" for n in counts] if len(counts) > 1 else [name]
    return tuple(out)


def standard(game) -> bool:
    """Whether the table's options are its variant's standard set: the rules as the variant defines
    them, nothing changed (a rated table must use them; any change makes a casual table)."""
    return dict(game.options) == dict(stich.game(game.name, game.variant).options)


def display(mu: float) -> float:
    return round(BASE + SCALE * (mu - MU0), 1)


def deviation(sigma: float) -> float:
    return round(SCALE * sigma, 1)


def places(scores: list[float]) -> list[int]:
    """1 for the best score, ties sharing the better place (competition ranking: 1, 2, 2, 4)."""
    return [1 + sum(1 for other in scores if other > s) for s in scores]


def sides(game, state) -> tuple[list[list[int]], list[int]]:
    """The partnership rule, from the game's declarations: (sides as lists of seats, each side's place).

    - A game whose match scores count for sides (``scores_by == "side"``: four-player Watten, Battn)
      is played by fixed partnerships: the seats of one ``side_of`` are one side, and the sides are
      placed by their result (the winners first).
    - Any other game: each seat is a side, placed by its own result (``returns``; ties share a place):
      in Watten with three or two players every winner is first; in Biscambiggia, whose caller and
      partner change every hand, and in Barbu, the final totals place the players one by one."""
    returns = list(state.returns())
    n = len(returns)
    if game.scores_by == "side":
        groups: dict[int, list[int]] = {}
        for seat in range(n):
            groups.setdefault(state.side_of(seat), []).append(seat)
        teams = list(groups.values())
        return teams, places([returns[team[0]] for team in teams])
    return [[s] for s in range(n)], places(returns)


def results(game, state) -> list[str]:
    """Each seat's result as the history shows it: "won"/"lost" in a game fought by two sides
    (``two_sided``: Watten, Battn), the final place in one where every player is placed (Biscambiggia,
    Barbu)."""
    returns = list(state.returns())
    if game.two_sided:
        return ["won" if r > 0 else "lost" for r in returns]
    return [str(p) for p in places(returns)]


def partners(name: str, variant: str, seat: int) -> tuple[int, ...]:
    """The seats that play with ``seat`` for a whole match (fixed partnerships), for the history."""
    return _fixed_sides(name, variant)[seat] if _fixed_sides(name, variant) else ()


@functools.cache
def _fixed_sides(name: str, variant: str) -> tuple | None:
    try:
        game = stich.game(name, variant)
    except Exception:  # noqa: BLE001 - a game or variant no longer installed: no partners shown
        return None
    if game.scores_by != "side":
        return None
    state = game.new_state(seed=0)
    side = [state.side_of(s) for s in range(game.num_players)]
    return tuple(tuple(o for o in range(game.num_players) if o != s and side[o] == side[s])
                 for s in range(game.num_players))


def _model():
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU0, sigma=SIGMA0)


def finish_match(table_id: str, game, state, rated: bool):
    """The function :class:`~stich.web.store.Writer` runs in the transaction of a match's last action
    (``state``: the finished match): reads which player held each seat (the database's word, whichever
    process bound them), writes the history and, at a rated table, the new ratings."""
    key = rating_key(game)
    outcome = results(game, state)
    teams, ranks = sides(game, state)
    n = game.num_players

    def run(conn) -> None:
        S = store.seats
        held = {r.seat: r.player_id for r in conn.execute(select(S.c.seat, S.c.player_id).where(
            S.c.table_id == table_id, S.c.player_id.is_not(None)))}
        if not held:
            return
        if conn.execute(select(func.count()).select_from(player_matches).where(
                player_matches.c.table_id == table_id)).scalar():
            return   # counted already (cannot happen: the last action commits once; kept as a guard)
        now = time.time()
        rows = {seat: dict(table_id=table_id, seat=seat, player_id=pid, game=game.name, variant=game.variant,
                           key=key, result=outcome[seat], rated=False, finished=now, before=None, after=None,
                           deviation=None, facts=facts.stored(table_id, game, state, seat))
                for seat, pid in held.items()}
        if rated and len(held) == n and len(set(held.values())) == n:
            _rate(conn, key, teams, ranks, held, rows)
        conn.execute(player_matches.insert(), list(rows.values()))
        pause = _test_pause()
        if pause:   # the kill -9 test kills the server here: written, not committed
            log.warning("rating update paused before its commit (test hook)", extra={"fields": {"table": table_id}})
            time.sleep(pause)

    return run


def _test_pause() -> float:
    """Seconds the transaction that ends a match waits before its commit (``STICH_TEST_RATING_PAUSE``,
    honoured only with ``STICH_TEST_HOOKS=1``): a test kills the server in the middle of it."""
    if os.environ.get("STICH_TEST_HOOKS") != "1":
        return 0.0
    return float(os.environ.get("STICH_TEST_RATING_PAUSE", "0"))


def _rate(conn, key: str, teams, ranks, held: dict[int, int], rows: dict[int, dict]) -> None:
    model = _model()
    found = {r.player_id: r for r in conn.execute(select(ratings).where(
        ratings.c.key == key, ratings.c.player_id.in_(list(held.values()))))}
    before = {}
    for seat, pid in held.items():
        r = found.get(pid)
        before[seat] = model.rating(mu=r.mu, sigma=r.sigma) if r else model.rating()
    new = model.rate([[before[s] for s in team] for team in teams], ranks=ranks)
    for team, rated_team in zip(teams, new, strict=True):
        for seat, after in zip(team, rated_team, strict=True):
            pid = held[seat]
            if pid in found:
                conn.execute(ratings.update().where(ratings.c.player_id == pid, ratings.c.key == key).values(
                    mu=after.mu, sigma=after.sigma, matches=ratings.c.matches + 1))
            else:
                conn.execute(ratings.insert().values(player_id=pid, key=key, mu=after.mu, sigma=after.sigma,
                                                     matches=1))
            rows[seat].update(rated=True, before=display(before[seat].mu), after=display(after.mu),
                              deviation=deviation(after.sigma))


# --- reading ------------------------------------------------------------------------------------------
async def player_ratings(engine, player_id: int) -> dict:
    rows = await store.fetch_all(engine, select(ratings).where(ratings.c.player_id == player_id))
    return {r["key"]: {"rating": display(r["mu"]), "deviation": deviation(r["sigma"]), "matches": r["matches"]}
            for r in sorted(rows, key=lambda r: keys().index(r["key"]) if r["key"] in keys() else 99)}


async def player_history(engine, player_id: int, limit: int = 200) -> list[dict]:
    """A player's finished matches, newest first, with each table's other seats (partners, opponents)."""
    P = player_matches
    rows = await store.fetch_all(engine, select(P).where(P.c.player_id == player_id).order_by(
        P.c.finished.desc()).limit(limit))
    out = []
    for r in rows:
        item = {"table": r["table_id"], "game": r["game"], "variant": r["variant"], "seat": r["seat"],
                "result": int(r["result"]) if r["result"].isdigit() else r["result"], "rated": bool(r["rated"]),
                "finished": r["finished"], "key": r["key"]}
        if r["rated"]:
            item.update(before=r["before"], after=r["after"], deviation=r["deviation"])
        out.append(item)
    return out


async def leaderboard(engine, key: str, min_matches: int, limit: int = 100) -> list[dict]:
    from stich.web.identity import players

    rows = await store.fetch_all(engine, select(players.c.name, ratings.c.mu, ratings.c.sigma, ratings.c.matches)
                                 .select_from(ratings.join(players, players.c.id == ratings.c.player_id))
                                 .where(ratings.c.key == key, ratings.c.matches >= min_matches)
                                 .order_by(ratings.c.mu.desc(), players.c.name_key).limit(limit))
    return [{"player": r["name"], "rating": display(r["mu"]), "deviation": deviation(r["sigma"]),
             "matches": r["matches"]} for r in rows]


async def people(engine, player_id: int, limit: int = 20) -> list[dict]:
    """The players someone sat with in finished matches, the most recent first: [{"player", "matches",
    "last"}] (a guest or a bot is nobody to find again)."""
    from stich.web.identity import players

    mine, theirs = player_matches.alias("mine"), player_matches.alias("theirs")
    last = func.max(theirs.c.finished).label("last")
    rows = await store.fetch_all(engine, select(players.c.name, func.count().label("matches"), last).select_from(
        mine.join(theirs, (theirs.c.table_id == mine.c.table_id) & (theirs.c.player_id != mine.c.player_id))
        .join(players, players.c.id == theirs.c.player_id)).where(mine.c.player_id == player_id)
        .group_by(players.c.id, players.c.name).order_by(last.desc()).limit(limit))
    return [{"player": r["name"], "matches": r["matches"], "last": r["last"]} for r in rows]
