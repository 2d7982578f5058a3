"""A replica of a table another process owns (``--redis``, :mod:`stich.web.cluster`).

A replica never decides anything: it forwards its connections' actions, chat, names and signals to
the owner, applies the actions its owner committed and published on ``stich:t:ID``, reads the log
again when it sees a gap in seqs (or when Redis comes back after an outage), and builds its own
connections' frames exactly as the owner builds them.  It tells the owner which seats it holds
connections for (``presence``), and becomes the owner when it takes the table's lease (``promote``).
The same methods as :class:`~stich.web.table.owner.Owner`, each with the table as first argument."""

from __future__ import annotations

import asyncio
import logging
import time

from sqlalchemy import func, select

from stich.engine import StichError
from stich.web import store
from stich.web.cluster.channels import FORWARDED, o_channel, t_channel
from stich.web.logs import event

log = logging.getLogger("stich.web")

REPLICA_IDLE = 30.0       # seconds a replica of another process's table stays without connections


class Replica:
    owner = False

    def __init__(self):
        self.remote_connected: set[int] = set()   # seats connected anywhere (the owner's word)

    # --- the table's life ---------------------------------------------------------------------
    def start(self, t) -> None:
        """Check that nothing was missed between subscribing and reading the log."""
        t.submit(t.catch_up)

    def stop(self, t) -> None:
        """A replica runs no timers (the owner does)."""

    async def run(self, t, conn, fn, args) -> None:
        """A client's message: the owner decides what changes the table (decided here, in the actor,
        where the role is certain); a resync, or anything once the match is over, is answered here."""
        if fn.__name__ in FORWARDED and not t.finished:
            t.cluster.forward(t, conn, fn.__name__, args)
        else:
            await fn(conn, *args)

    def connected_elsewhere(self) -> set[int]:
        return self.remote_connected

    def seats_changed(self, t) -> None:
        """The owner tells everyone the seats; a replica only echoes them to its connections."""

    async def attached(self, t, conn) -> None:
        # a replica may lag behind what the client already saw elsewhere: catch up with the log
        # first, so that no connection's seq ever goes back
        await self.catch_up(t)
        if conn.seat is not None:
            t.cluster.presence(t)   # the owner claims the seat, cancels its grace, hands it back

    def detached(self, t, conn) -> None:
        t.cluster.presence(t)
        t.broadcast_seats()
        if not t.conns:  # a replica nobody here watches is dropped after a while; a finished one no later
            # than a finished table of our own (STICH_FINISHED_TABLE_SECONDS): nothing more will happen there
            idle = min(REPLICA_IDLE, t.server.evict_after) if t.finished else REPLICA_IDLE
            asyncio.get_running_loop().call_later(idle, t.server.evict, t.id)

    def committed(self, t) -> None:
        """A replica commits nothing: its clients' actions go to the owner."""

    # --- following the owner --------------------------------------------------------------------
    async def answer_remote(self, t, conn, op: str, args: list, req: str) -> None:
        """No answer: the sender asks again, and reaches the new owner."""

    async def on_owner_message(self, t, msg: dict) -> None:
        """The owner's word: a committed action, seats, chat, a signal, a new owner."""
        kind = msg.get("k")
        if kind == "applied":
            seq = msg["seq"]
            if seq <= t.seq:
                return
            if seq != t.seq + 1:  # a gap (a message lost in a change of owner): read the log again
                event(log, "replica missed actions", table=t.id, seq=t.seq, heard=seq)
                await t.reload()
                return
            try:
                t.state.apply(msg["action"], seat=msg["seat"])
            except StichError:
                await t.reload()
                return
            t.marks.append(len(t.state.events))
            t.turn_deadline = msg.get("deadline")
            if msg.get("cid") is not None:  # a resent id reaching this replica once the match is over
                t.answers[(msg["seat"], msg["cid"])] = {"type": "ack", "id": msg["cid"], "seq": seq}
            t.broadcast_state()
        elif kind == "seats":
            for item in msg["seats"]:
                s = t.seats[item["seat"]]
                s.name, s.claimed, s.bot_playing, s.token_hash = (item["name"], item["claimed"],
                                                                  item["bot_playing"], item["token_hash"])
                s.arrived = item.get("arrived", s.arrived)
                s.player_id = item.get("player_id", s.player_id)
                grace = item.get("grace")
                s.grace_until = None if grace is None else time.time() + grace
            t.started = msg.get("started", t.started)
            self.remote_connected = set(msg.get("connected", ()))
            t.turn_deadline = msg.get("deadline")
            t.broadcast_seats()
        elif kind == "chat":
            t.chat.append(msg["m"])
            t.send_all(t.chat_frame(msg["m"]))
        elif kind == "signal":
            sig = msg["msg"]
            t.send_all(sig, seats=(sig["to"], sig["seat"]))
        elif kind == "owner" and msg.get("seq", 0) > t.seq:
            event(log, "replica behind its owner", table=t.id, seq=t.seq, owner_seq=msg["seq"])
            await t.reload()

    async def catch_up(self, t) -> None:
        """Read the log if it is behind (an action committed, and published, before this process
        subscribed; or a message lost): then it is at least where any client has been."""
        row = await store.fetch_one(t.server.engine, select(func.max(store.actions.c.seq)).where(
            store.actions.c.table_id == t.id))
        if row is not None and (list(row.values())[0] or 0) > t.seq:
            event(log, "replica behind the log", table=t.id, seq=t.seq)
            await t.reload()
        t.cluster.presence(t)

    async def after_outage(self, t) -> None:
        """Redis is back: whatever was published meanwhile is lost.  Read the log (and tell the owner
        this process's connections again)."""
        await self.catch_up(t)

    # --- changes of owner -----------------------------------------------------------------------
    async def promote(self, t) -> None:
        """This process took the table's lease: read the log again and act as its owner."""
        await t.cluster.subscribe(o_channel(t.id))
        await t.cluster.unsubscribe(t_channel(t.id))
        t.adopt(await t.server.read(t.id))
        t.take_role(owner=True)
        event(log, "table taken over", table=t.id, seq=t.seq)
        t.start()
        t.cluster.publish(t_channel(t.id), {"k": "owner", "seq": t.seq})
        t.broadcast_state()
        t.broadcast_seats()

    async def demote(self, t) -> None:
        """Already a replica."""

    async def on_presence(self, t, node: str, seats: list[int]) -> None:
        """Only the owner counts other processes' connections."""

    async def expire_presence(self, t, older: float) -> None:
        """Only the owner counts other processes' connections."""
