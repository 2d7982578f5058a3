"""A friends' evening at one table: waiting for the invited people, "start now with bots", the
countdown before a bot takes a seat, and the way to the rematch.

A table created with ``"start": "when_full"`` (the default) lets no bot play a human seat whose
person has never been there (``Seat.arrived``, stored) until a seated person sends
``{"type": "start"}`` (``begin``, decided by the table's owner): then the bots play the seats nobody
opened, at once, and hand each back when its person comes.  At such a table a seat's grace period
counts only after its person has been there.  ``"start": "now"`` keeps a table as it always was:
every human seat's grace runs from the first moment (:meth:`Owner.start_grace`).

The rematch itself is made by the server (:mod:`stich.web.rematch`); the table only learns its id
(``on_rematch``) and shows it to everyone, spectators included."""

from __future__ import annotations

import asyncio
import logging
import time

from sqlalchemy import update

from stich.web import store
from stich.web.logs import event

log = logging.getLogger("stich.web")


def _error(message: str) -> dict:
    return {"type": "error", "id": None, "message": message}


class Evening:
    """Waiting, starting and the rematch of :class:`~stich.web.table.actor.TableActor` (which has the
    fields they use: ``settings``, ``seats``, ``started``, ``rematch``)."""

    def waits_for_people(self) -> bool:
        """Whether the table still waits for the people it invited (nobody has said "start")."""
        return self.settings.get("start") == "when_full" and not self.started and not self.finished

    def waiting_for(self, s) -> bool:
        """Whether ``s`` is a human seat the table waits for: its person has never been there."""
        return s.kind == "human" and not s.arrived and self.waits_for_people()

    def waiting_seats(self) -> list[int]:
        return [s.seat for s in self.seats if self.waiting_for(s)]

    def grace_left(self, s) -> float | None:
        """Seconds before a bot takes ``s`` (its grace period is running), or None."""
        handle = s.grace
        if handle is not None and not handle.cancelled():   # the owner's own timer
            return max(0.0, handle.when() - asyncio.get_running_loop().time())
        if s.grace_until is not None:                       # a replica: the owner's word
            return max(0.0, s.grace_until - time.time())
        return None

    async def begin(self, conn) -> None:
        """``{"type": "start"}`` from a seated person: the bots play the seats nobody has opened yet."""
        if conn.seat is None:
            conn.send(_error("spectators cannot start the match; a seated person can"))
            return
        if self.finished:
            conn.send(_error("the match is over"))
            return
        if not self.waits_for_people():
            return   # started already (by another person), or a table that starts at once: nothing to do
        try:
            await self.server.writer.write(update(store.tables).where(store.tables.c.id == self.id).values(
                started=True))
        except Exception:  # noqa: BLE001 - not saved: the table keeps waiting and the person may ask again
            conn.send(_error("the server could not save the start; press start again"))
            return
        self.started = True
        taken = [s.seat for s in self.seats if s.kind == "human" and not s.arrived]
        for seat in taken:
            self.seats[seat].bot_playing = True   # handed back when its person comes (Owner.seat_here)
        event(log, "started with bots", table=self.id, seq=self.seq, seat=conn.seat, bots_for=taken)
        self.broadcast_seats()
        self.role.schedule(self)

    async def on_rematch(self, next_id: str) -> None:
        """The rematch of this (finished) table exists: every connection's frame offers it."""
        if self.rematch == next_id:
            return
        self.rematch = next_id
        self.broadcast_state()
