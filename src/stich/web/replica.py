"""A table actor's part in a cluster (``--redis``, :mod:`stich.web.cluster`): following another
process's table as a replica, changing owner, and counting the connections other processes hold.

:class:`~stich.web.table.TableActor` is one table, alone or in a cluster; what only a cluster needs is
here, mixed into it, and runs in the table's actor like every other step.  A **replica** (this process
does not own the table) never decides anything: it applies the actions its owner committed and
published on ``stich:t:ID``, reads the log again when it sees a gap in seqs (or when Redis comes back
after an outage), and builds its own connections' frames exactly as the owner builds them.  The
**owner** answers what replicas forward for their connections and hears which seats they hold
connections for (``presence``)."""

from __future__ import annotations

import asyncio
import logging
import time

from sqlalchemy import func, select

from stich.engine import StichError
from stich.web import store
from stich.web.cluster import o_channel, t_channel
from stich.web.logs import event

log = logging.getLogger("stich.web")

LOST = object()           # a commit refused because another process owns the table now


class ClusterPart:
    """The cluster's methods of :class:`~stich.web.table.TableActor` (which has the fields they use)."""

    # --- the owner: what other processes send ------------------------------------------------------
    def submit_remote(self, conn, op: str, args: list, req: str) -> None:
        """A message forwarded by another process for one of its connections (owner only)."""
        async def run():
            if not self.owner:
                return  # no answer: the sender asks again, and reaches the new owner
            if await getattr(self, op)(conn, *args) is LOST:
                return
            self.cluster.done(conn.node, req)

        self.submit(run)

    def _publish_seats(self) -> None:
        """The owner tells its replicas the seats (names, claims, bots playing, who is connected)."""
        self.cluster.publish(t_channel(self.id), {
            "k": "seats", "deadline": self.turn_deadline, "connected": sorted(self.connected()),
            "seats": [{"seat": s.seat, "name": s.name, "claimed": s.claimed, "bot_playing": s.bot_playing,
                       "token_hash": s.token_hash} for s in self.seats]})

    # --- a replica: following the owner; changes of owner ----------------------------------------
    async def on_owner_message(self, msg: dict) -> None:
        """A replica hears its owner: a committed action, seats, chat, a signal, a new owner."""
        if self.owner:
            return
        kind = msg.get("k")
        if kind == "applied":
            seq = msg["seq"]
            if seq <= self.seq:
                return
            if seq != self.seq + 1:  # a gap (a message lost in a change of owner): read the log again
                event(log, "replica missed actions", table=self.id, seq=self.seq, heard=seq)
                await self._reload()
                return
            try:
                self.state.apply(msg["action"], seat=msg["seat"])
            except StichError:
                await self._reload()
                return
            self.marks.append(len(self.state.events))
            self.turn_deadline = msg.get("deadline")
            if msg.get("cid") is not None:  # a resent id reaching this replica once the match is over
                self.answers[(msg["seat"], msg["cid"])] = {"type": "ack", "id": msg["cid"], "seq": seq}
            self.broadcast_state()
        elif kind == "seats":
            for item in msg["seats"]:
                s = self.seats[item["seat"]]
                s.name, s.claimed, s.bot_playing, s.token_hash = (item["name"], item["claimed"],
                                                                  item["bot_playing"], item["token_hash"])
            self.remote_connected = set(msg.get("connected", ()))
            self.turn_deadline = msg.get("deadline")
            self.broadcast_seats()
        elif kind == "chat":
            self.chat.append(msg["m"])
            self.send_all(self.chat_frame(msg["m"]))
        elif kind == "signal":
            sig = msg["msg"]
            self.send_all(sig, seats=(sig["to"], sig["seat"]))
        elif kind == "owner" and msg.get("seq", 0) > self.seq:
            event(log, "replica behind its owner", table=self.id, seq=self.seq, owner_seq=msg["seq"])
            await self._reload()

    async def _catch_up(self, done: asyncio.Future | None = None) -> None:
        """A replica reads the log if it is behind (an action committed, and published, before it
        subscribed; or a message lost): then it is at least where any client has been."""
        try:
            if not self.owner:
                row = await store.fetch_one(self.server.engine, select(func.max(store.actions.c.seq)).where(
                    store.actions.c.table_id == self.id))
                if row is not None and (list(row.values())[0] or 0) > self.seq:
                    event(log, "replica behind the log", table=self.id, seq=self.seq)
                    await self._reload()
                self.cluster.presence(self)
        finally:
            if done is not None and not done.done():
                done.set_result(None)

    async def after_outage(self) -> None:
        """Redis is back: whatever was published meanwhile is lost.  A replica reads the log (and tells
        the owner its connections again); an owner tells its replicas its seq and seats."""
        if self.owner:
            self.cluster.publish(t_channel(self.id), {"k": "owner", "seq": self.seq})
            self._publish_seats()
        else:
            await self._catch_up()

    async def _reload(self) -> None:
        fields = await self.server.read(self.id)
        if fields is None:
            return
        self._adopt(fields)
        self.broadcast_state()
        self.broadcast_seats()

    async def promote(self, done: asyncio.Future | None = None) -> None:
        """This process took the table's lease: read the log again and act as its owner."""
        try:
            if not self.owner:
                await self.cluster.subscribe(o_channel(self.id))
                await self.cluster.unsubscribe(t_channel(self.id))
                self._adopt(await self.server.read(self.id))
                self.owner = True
                self.remote = {}
                self.bot_pending = None
                event(log, "table taken over", table=self.id, seq=self.seq)
                self.start()
                self.cluster.publish(t_channel(self.id), {"k": "owner", "seq": self.seq})
                self.broadcast_state()
                self.broadcast_seats()
        finally:
            if done is not None and not done.done():
                done.set_result(self.owner)

    async def demote(self) -> None:
        """Another process owns the table now: stop its bots and timers here and follow it."""
        if not self.owner:
            return
        self.owner = False
        for s in self.seats:
            if s.grace:
                s.grace.cancel()
                s.grace = None
        if self.turn_timer:
            self.turn_timer.cancel()
            self.turn_timer = None
        self.bot_pending = None
        self.remote = {}
        await self.cluster.subscribe(t_channel(self.id))
        await self.cluster.unsubscribe(o_channel(self.id))
        await self._reload()
        self.cluster.presence(self)

    async def on_presence(self, node: str, seats: list[int]) -> None:
        """Another process says which seats of this table it has connections for (owner only)."""
        if not self.owner:
            return
        before = self.connected()
        self.remote[node] = (frozenset(s for s in seats if isinstance(s, int) and 0 <= s < len(self.seats)),
                             time.monotonic())
        await self._presence_changed(before)

    async def expire_presence(self, older: float) -> None:
        """Seats of a process that stopped telling (it died) count as disconnected.  Replicas hear
        the owner's seq too: one that missed a message catches up within a renew period."""
        if self.owner and self.remote:
            self.cluster.publish(t_channel(self.id), {"k": "owner", "seq": self.seq})
        now = time.monotonic()
        stale = [n for n, (_s, at) in self.remote.items() if now - at > older]
        if not stale or not self.owner:
            return
        before = self.connected()
        for n in stale:
            del self.remote[n]
        await self._presence_changed(before)

    async def _presence_changed(self, before: set[int]) -> None:
        after = self.connected()
        if after == before:
            return
        for seat in sorted(after - before):
            await self._seat_here(seat)
        for seat in sorted(before - after):
            self._start_grace(self.seats[seat])
        self.broadcast_seats()
