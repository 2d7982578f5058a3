"""Tournaments meet players and clubs (docs/tournaments.md, "Players and clubs").

- A tournament entry is bound to a player (an identity, docs/web-protocol.md "Players") when its link
  (``/tournaments/ID?token=T``) is opened by a browser or program signed in as that player: the one
  mechanism, the same as a table's seat taken by a player's first connection.  Which player holds an
  entry is decided by the database (a conditional update): the first stays; one player holds at most one
  entry of a tournament.
- A player's tournaments (their profile, ``/me``) say only what the tournament's public page says: the
  game, when it was made, the entry's rank among the ranked players so far and whether it is over.
- A club's tournaments are made by its admins only (:func:`check_club_admin`) and listed on its page."""

from __future__ import annotations

from sqlalchemy import and_, exists, select, update

from stich.web import store
from stich.web.clubs import members
from stich.web.spec import BadRequest
from stich.web.tourney.schema import tournament_players, tournaments
from stich.web.tourney.stored import read

TP = tournament_players
#: the most tournaments a profile or a club's page lists (the newest)
LISTED = 50
NOT_ADMIN = "only an admin of this club can start a tournament for it"


async def bind(engine, tid: str, number: int, player_id: int) -> bool:
    """Bind entry ``number`` of tournament ``tid`` to ``player_id`` unless another player holds it or the
    player holds another entry of this tournament; whether the entry is now the player's."""
    other = TP.alias("other")
    held = exists().where(other.c.tournament_id == tid, other.c.player_id == player_id, other.c.number != number)
    async with engine.begin() as conn:
        await conn.execute(update(TP).where(TP.c.tournament_id == tid, TP.c.number == number,
                                            TP.c.player_id.is_(None), ~held).values(player_id=player_id))
        row = (await conn.execute(select(TP.c.player_id).where(TP.c.tournament_id == tid,
                                                               TP.c.number == number))).first()
    return row is not None and row.player_id == player_id


def summary(t, number: int | None = None) -> dict:
    """A tournament in a list: what its public page shows (game, when, finished, rounds drawn), and with
    ``number`` that entry's name, rank (None: a bot, or nothing played yet) and of how many ranked."""
    out = {"tournament": t.id, "game": t.game.name, "variant": t.game.variant, "created": t.row["created"],
           "finished": t.finished, "drawn": t.row["drawn"], "rounds": t.fmt["rounds"], "kind": t.fmt["kind"],
           "players": len(t.players)}
    if number is not None:
        standings = t.standings()
        name = t.players[number]["name"]
        mine = next((s for s in standings if s["name"] == name), None)
        played = any(r["finished"] for r in t.rows)
        out.update(name=name, rank=mine["rank"] if mine and played else None,
                   of=sum(1 for s in standings if not s["bot"]))
    return out


async def of_player(engine, player_id: int) -> list[dict]:
    """The tournaments a player's entries are in, newest first (:func:`summary` with the entry)."""
    rows = await store.fetch_all(engine, select(TP.c.tournament_id, TP.c.number).join(
        tournaments, tournaments.c.id == TP.c.tournament_id).where(TP.c.player_id == player_id).order_by(
        tournaments.c.created.desc()).limit(LISTED))
    out = []
    for r in rows:
        t = await read(engine, r["tournament_id"])
        if t is not None:
            out.append(summary(t, r["number"]))
    return out


async def of_club(engine, club_id: str) -> list[dict]:
    """A club's tournaments, newest first (:func:`summary`)."""
    rows = await store.fetch_all(engine, select(tournaments.c.id).where(tournaments.c.club_id == club_id).order_by(
        tournaments.c.created.desc()).limit(LISTED))
    out = []
    for r in rows:
        t = await read(engine, r["id"])
        if t is not None:
            out.append(summary(t))
    return out


async def check_club_admin(engine, club_id, player: dict | None) -> str:
    """The club id when ``player`` is an admin of it; else BadRequest 403 (an unknown club and another's read
    the same: whether a club exists is its members' to know)."""
    if player is None:
        raise BadRequest("sign in first: only an admin of a club can start a tournament for it", status=401)
    if not isinstance(club_id, str) or not club_id or len(club_id) > 32:
        raise BadRequest("'club' is a club's id (as in /clubs/ID)")
    row = await store.fetch_one(engine, select(members.c.admin).where(and_(
        members.c.club_id == club_id, members.c.player_id == player["id"])))
    if row is None or not row["admin"]:
        raise BadRequest(NOT_ADMIN, status=403)
    return club_id


async def forget_player(conn, player_id: int) -> None:
    """An account deleted: its entries stay in their tournaments (under the names the director typed), unbound."""
    await conn.execute(update(TP).where(TP.c.player_id == player_id).values(player_id=None))
