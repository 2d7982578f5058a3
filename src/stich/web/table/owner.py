"""The owner of a table: the one process that decides for it.  Alone (no ``--redis``) every table is
owned here; in a cluster, the process holding the table's lease (:mod:`stich.web.cluster`).

Besides the actions of its own clients, only the owner moves the match on: it runs the seats' grace
periods (after which the seat's bot plays for an absent human, and hands back when they return), the
turn timer, and the bots; it answers what replicas forward and counts the connections they hold.
:class:`Owner` and :class:`~stich.web.table.replica.Replica` are the two roles a
:class:`~stich.web.table.actor.TableActor` can have, with the same methods; each gets the table as its
first argument and keeps no reference to it (a table must be freed without the cycle collector)."""

from __future__ import annotations

import asyncio
import logging
import time

from sqlalchemy import update

from stich.engine import StichError
from stich.web import metrics, store
from stich.web.cluster.channels import o_channel, t_channel
from stich.web.logs import event
from stich.web.spec import bots_only_cap, capped, timer_seconds
from stich.web.table.frames import legal_for

log = logging.getLogger("stich.web")

LOST = object()           # a commit refused because another process owns the table now


class Owner:
    owner = True

    def __init__(self):
        self.remote: dict[str, tuple[frozenset, float]] = {}  # node -> (seats connected there, when)
        self.bot_pending: int | None = None  # the seq a bot is thinking about
        self.turn_timer: asyncio.TimerHandle | None = None

    def current(self, t) -> bool:
        """Whether this is still the table's role: a step queued before the table changed owner is
        dropped (the new owner, if it is this process again, has scheduled its own)."""
        return t.role is self

    # --- the table's life ---------------------------------------------------------------------
    def start(self, t) -> None:
        """A grace period for every human seat, taken or not (nobody is connected yet: a seat whose
        invite link nobody opens must not leave the table waiting for ever); bots to move.  At a table
        that waits for its people (``"start": "when_full"``), a seat whose person never came has no
        grace: it waits, or, once a person said "start", its bot plays it."""
        for s in t.seats:
            if s.kind == "human":
                if t.settings.get("start") == "when_full" and t.started and not s.arrived and not t.finished:
                    s.bot_playing = True
                self.start_grace(t, s)
        self.schedule(t)

    def stop(self, t) -> None:
        for s in t.seats:
            if s.grace:
                s.grace.cancel()
                s.grace = None
        if self.turn_timer:
            self.turn_timer.cancel()
            self.turn_timer = None

    async def run(self, t, conn, fn, args) -> None:
        """A client's message: the owner decides it here."""
        await fn(conn, *args)

    def connected_elsewhere(self) -> set[int]:
        """The seats other processes hold connections for, as they last said."""
        out: set[int] = set()
        for seats, _at in self.remote.values():
            out |= seats
        return out

    def seats_changed(self, t) -> None:
        """The owner tells its replicas the seats (names, claims, bots playing, who is connected)."""
        if t.cluster is None:
            return
        t.cluster.publish(t_channel(t.id), {
            "k": "seats", "deadline": t.turn_deadline, "connected": sorted(t.connected()),
            "started": t.started,
            "seats": [{"seat": s.seat, "name": s.name, "claimed": s.claimed, "bot_playing": s.bot_playing,
                       "token_hash": s.token_hash, "arrived": s.arrived, "grace": t.grace_left(s),
                       "player_id": s.player_id}
                      for s in t.seats]})

    async def attached(self, t, conn) -> None:
        if conn.seat is not None:
            await self.seat_here(t, conn.seat)

    def detached(self, t, conn) -> None:
        if conn.seat is not None and conn.seat not in t.connected():
            self.start_grace(t, t.seats[conn.seat])
        t.broadcast_seats()
        t.maybe_evict()

    def committed(self, t) -> None:
        """An action is in the log and applied: whoever is to move next."""
        self.bot_pending = None
        if t.finished:
            for s in t.seats:
                if s.grace:
                    s.grace.cancel()
                    s.grace = None
        self.schedule(t)

    # --- seats: a player here, a player gone ----------------------------------------------------
    async def seat_here(self, t, seat: int) -> None:
        """A seat's player is connected (here or on another process): its grace ends, the bot hands back."""
        s = t.seats[seat]
        if s.grace:
            s.grace.cancel()
            s.grace = None
        if not s.claimed or not s.arrived:
            await t.learn_player(s)   # a player a replica's connection bound (table/players.py)
            s.claimed = s.arrived = True
            await t.server.writer.write(update(store.seats).where(
                store.seats.c.table_id == t.id, store.seats.c.seat == seat).values(claimed=True, arrived=True))
            if t.turn_deadline is None and t.state.current_player == seat and not s.bot_playing:
                self.schedule(t)   # a turn that waited for this seat's person: its timer starts now
                if t.turn_deadline is not None:
                    t.broadcast_state()   # everyone's clock
        if s.bot_playing:  # the human is back: the bot hands the seat back
            s.bot_playing = False
            event(log, "seat handed back", table=t.id, seq=t.seq, seat=seat)
            if self.bot_pending == t.seq and t.state.current_player == seat:
                self.bot_pending = None  # its answer will be dropped
            self.schedule(t)

    def start_grace(self, t, s) -> None:
        grace = t.settings.get("grace")
        if grace is None or t.finished or s.kind != "human" or s.bot_playing:
            return
        if t.settings.get("start") == "when_full" and not s.arrived:
            return   # grace counts only after the seat's person has been there (table/evening.py)
        if s.grace:
            s.grace.cancel()
        s.grace = asyncio.get_running_loop().call_later(grace, t.submit, self._grace_over, t, s.seat)

    async def _grace_over(self, t, seat: int) -> None:
        s = t.seats[seat]
        s.grace = None
        if not self.current(t) or seat in t.connected() or t.finished:
            return
        s.bot_playing = True
        event(log, "bot takes the seat", table=t.id, seq=t.seq, seat=seat, taken=s.claimed)
        t.broadcast_seats()
        self.schedule(t)

    # --- turns: bots and timers ---------------------------------------------------------------
    def controller(self, t, seat: int) -> str | None:
        """The bot spec that moves for ``seat`` now, or None when a human is to move."""
        s = t.seats[seat]
        if s.kind == "bot":
            return s.bot
        if s.bot_playing:
            return t.server.takeover_bot(t.game.name)
        return None

    def schedule(self, t) -> None:
        """Whoever is to move now: ask the bot, or start the turn timer for a human.

        Only ``current_player`` counts here: a bot (or the timer's move) acts on turn and never takes a
        decision out of turn; humans take theirs through ``act``, which accepts any seat's legal action."""
        if self.turn_timer:
            self.turn_timer.cancel()
            self.turn_timer = None
        t.turn_deadline = None
        if t.finished:
            return
        seat = t.state.current_player
        spec = self.controller(t, seat)
        if spec is not None:
            self._ask_bot(t, seat, spec, "bot" if t.seats[seat].kind == "bot" else "takeover")
            return
        seconds = timer_seconds(t.settings.get("timer", "off"))
        if seconds and not t.waiting_for(t.seats[seat]):   # no timer moves a seat whose person never came
            t.turn_deadline = time.time() + seconds
            self.turn_timer = asyncio.get_running_loop().call_later(seconds, t.submit, self._timer_over, t,
                                                                    t.seq, seat)

    def _ask_bot(self, t, seat: int, spec: str, origin: str) -> None:
        if self.bot_pending == t.seq:
            return
        self.bot_pending = t.seq
        people = self._people(t)
        if not people:
            # a human seat nobody joins (grace 0) must not buy a stranger the budgets of tables with
            # people: while none is connected, bots think within the cap of tables without people
            spec = capped(spec, bots_only_cap())
        view = t.state.view(seat)  # taken now: the bot sees this seat's view and nothing else
        legal = legal_for(t.state, seat)
        asyncio.get_running_loop().create_task(self._think(t, seat, t.seq, spec, origin, view, legal, people))

    @staticmethod
    def _people(t) -> bool:
        """Whether a person is at the table: a human seat connected (here or on another process)."""
        connected = t.connected()
        return any(s.kind == "human" and s.seat in connected for s in t.seats)

    async def _think(self, t, seat, seq, spec, origin, view, legal, people: bool = True) -> None:
        delay = t.settings.get("bot_delay") or 0
        if delay and origin == "bot":
            await asyncio.sleep(delay)
        seed = t.server.bot_seed(t.id, seat, seq)
        action, fault = await t.server.pool.choose(spec, seed, view, legal, table=t.id, people=people)
        if fault:
            metrics.error("bot_fault")
            event(log, "bot fault", logging.WARNING, table=t.id, seq=seq, seat=seat, bot=spec, error=fault)
        t.submit(self._bot_move, t, seat, seq, action, origin)

    async def _timer_over(self, t, seq: int, seat: int) -> None:
        if not self.current(t) or seq != t.seq or t.finished or t.state.current_player != seat:
            return
        t.turn_deadline = None
        event(log, "turn timer expired", table=t.id, seq=seq, seat=seat)
        self._ask_bot(t, seat, t.server.takeover_bot(t.game.name), "timer")

    async def _bot_move(self, t, seat: int, seq: int, action: str, origin: str) -> None:
        if not self.current(t) or seq != t.seq or t.finished or t.state.current_player != seat:
            return
        if origin != "timer" and self.controller(t, seat) is None:
            return  # the human came back while the bot was thinking
        self.bot_pending = None
        new = t.state.clone()
        try:
            new.apply(action, seat=seat)
        except StichError as exc:  # cannot happen for an answer from the legal list; never fatal
            event(log, "bot action refused", logging.ERROR, table=t.id, seq=seq, seat=seat, error=str(exc))
            return
        await t.commit(new, seat, origin, None)

    # --- a cluster: what replicas send, changes of owner ------------------------------------------
    async def answer_remote(self, t, conn, op: str, args: list, req: str) -> None:
        """A message forwarded by another process for one of its connections: decided here, answered
        on that process's channel (unless the table changed owner meanwhile: the sender asks again)."""
        if await getattr(t, op)(conn, *args) is LOST:
            return
        t.cluster.done(conn.node, req)

    async def on_owner_message(self, t, msg: dict) -> None:
        """Only a replica follows an owner: a message from the time this process was one is stale."""

    async def catch_up(self, t) -> None:
        """The owner's state is the log's."""

    async def after_outage(self, t) -> None:
        """Redis is back: what was published meanwhile is lost; tell the replicas the seq and the seats."""
        t.cluster.publish(t_channel(t.id), {"k": "owner", "seq": t.seq})
        self.seats_changed(t)

    async def promote(self, t) -> None:
        """Already the owner."""

    async def demote(self, t) -> None:
        """Another process owns the table now: stop its bots and timers here and follow it."""
        t.take_role(owner=False)
        self.stop(t)
        await t.cluster.subscribe(t_channel(t.id))
        await t.cluster.unsubscribe(o_channel(t.id))
        await t.reload()
        t.cluster.presence(t)

    async def on_presence(self, t, node: str, seats: list[int]) -> None:
        """Another process says which seats of this table it has connections for."""
        before = t.connected()
        self.remote[node] = (frozenset(s for s in seats if isinstance(s, int) and 0 <= s < len(t.seats)),
                             time.monotonic())
        await self._presence_changed(t, before)

    async def expire_presence(self, t, older: float) -> None:
        """Seats of a process that stopped telling (it died) count as disconnected.  Replicas hear
        the owner's seq too: one that missed a message catches up within a renew period."""
        if self.remote:
            t.cluster.publish(t_channel(t.id), {"k": "owner", "seq": t.seq})
        now = time.monotonic()
        stale = [n for n, (_s, at) in self.remote.items() if now - at > older]
        if not stale:
            return
        before = t.connected()
        for n in stale:
            del self.remote[n]
        await self._presence_changed(t, before)

    async def _presence_changed(self, t, before: set[int]) -> None:
        after = t.connected()
        if after == before:
            return
        for seat in sorted(after - before):
            await self.seat_here(t, seat)
        for seat in sorted(before - after):
            self.start_grace(t, t.seats[seat])
        t.broadcast_seats()
