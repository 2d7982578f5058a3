"""A player's statistics per game and variant, from their finished matches (``player_matches``: a
match is there only once it is over, so nothing of a running match shows): matches played, matches
won (``won``, or the first place where every player is placed: Biscambiggia, Barbu) and the share
won.  :func:`summarise` is the pure part; :func:`player_stats` reads the counts.  Per game, the figures
of each match (``player_matches.facts``, stich.web.facts) added up: :func:`player_figures`."""

from __future__ import annotations

from sqlalchemy import func, select

from stich.web import facts, store
from stich.web.ratings import player_matches


def won(result: str) -> bool:
    return result in ("won", "1")


def summarise(rows) -> list[dict]:
    """``[(game, variant, result, count)]`` -> ``[{"game", "variant", "matches", "wins", "share"}]``, the
    most played first (then by game and variant); ``share`` is wins / matches, rounded to 3 places."""
    out: dict[tuple[str, str], dict] = {}
    for game, variant, result, count in rows:
        item = out.setdefault((game, variant), {"game": game, "variant": variant, "matches": 0, "wins": 0})
        item["matches"] += count
        item["wins"] += count if won(result) else 0
    for item in out.values():
        item["share"] = round(item["wins"] / item["matches"], 3)
    return sorted(out.values(), key=lambda i: (-i["matches"], i["game"], i["variant"]))


async def player_stats(engine, player_id: int) -> list[dict]:
    P = player_matches
    rows = await store.fetch_all(engine, select(P.c.game, P.c.variant, P.c.result, func.count().label("n")).where(
        P.c.player_id == player_id).group_by(P.c.game, P.c.variant, P.c.result))
    return summarise((r["game"], r["variant"], r["result"], r["n"]) for r in rows)


async def player_figures(engine, player_id: int) -> list[dict]:
    """Per game the player's figures over their finished matches (``stich.web.facts.totals``)."""
    P = player_matches
    rows = await store.fetch_all(engine, select(P.c.game, P.c.facts).where(P.c.player_id == player_id))
    return facts.totals((r["game"], r["facts"]) for r in rows)
