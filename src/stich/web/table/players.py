"""Seats bound to players (docs/web-protocol.md, "Players"): a seat whose first connection carries a
player's credential is that player's for the whole match, and a rated table seats players only.

Checked when a connection attaches, in the table's actor, before the connection is told anything.
Which player holds a seat is decided by the database (a conditional update), so two processes of a
cluster binding the same seat at once agree on one player."""

from __future__ import annotations

from sqlalchemy import select, update

from stich.web import store

#: close codes of a refused seat (docs/web-protocol.md)
NEEDS_PLAYER = 4402     # a rated table's seat, and the connection carries no player's credential
# (4401 is another site's page: web/quotas.py)
OTHER_PLAYER = 4409     # the seat belongs to another player, or this player holds another seat here


class SeatRefused(Exception):
    """A connection that may not take its seat: the socket is closed with ``code`` and ``message``."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code


class SeatPlayers:
    """The binding of seats to players, for :class:`~stich.web.table.actor.TableActor`."""

    async def bind_player(self, conn) -> None:
        s = self.seats[conn.seat]
        player = conn.player
        if s.player_id is None and player is not None and not s.arrived:
            await self._claim_for(s, player)
        if s.player_id is not None:
            if player is None or player["id"] != s.player_id:
                raise SeatRefused(OTHER_PLAYER, "this seat belongs to another player: sign in as that player to "
                                                "take it")
            return
        if self.rated:
            raise SeatRefused(NEEDS_PLAYER, "this table is rated: become a player or sign in to take its seats")

    async def _claim_for(self, s, player: dict) -> None:
        other = next((o.seat for o in self.seats if o.player_id == player["id"] and o is not s), None)
        if other is not None:   # one player, one seat: at a casual table the second stays a guest's
            if self.rated:
                raise SeatRefused(OTHER_PLAYER, f"you already hold seat {other + 1} at this table")
            return
        S = store.seats
        where = (S.c.table_id == self.id, S.c.seat == s.seat)
        async with self.server.engine.begin() as db:
            # only a seat nobody has opened and no player holds: the database decides between processes
            await db.execute(update(S).where(*where, S.c.player_id.is_(None), S.c.arrived.is_(False)).values(
                player_id=player["id"], name=player["name"]))
            row = (await db.execute(select(S.c.player_id, S.c.name).where(*where))).mappings().first()
        if row is not None and row["player_id"] is not None:
            s.player_id, s.name = row["player_id"], row["name"]

    async def learn_player(self, s) -> None:
        """The owner, on a seat's first arrival: which player holds it, if a replica bound it."""
        if s.player_id is not None:
            return
        S = store.seats
        row = await store.fetch_one(self.server.engine, select(S.c.player_id, S.c.name).where(
            S.c.table_id == self.id, S.c.seat == s.seat))
        if row is not None and row["player_id"] is not None:
            s.player_id, s.name = row["player_id"], row["name"]
