"""The table actor: one per table, the only owner of its State, and the path of one action.

Everything that changes a table runs, one at a time, in the actor's task (``submit``).  An action's
way, top to bottom in this module: a client's message is queued (``submit_from``); its role decides
it here or forwards it to the owner (``role.run``); ``act`` checks it with the engine on a clone
(``check``); ``commit`` appends it to the table's log in a committed transaction, and only then
applies it to the live state, acknowledges it, lets the owner schedule the next move, tells the
replicas and sends every connection its frame (``broadcast_state``, :mod:`~stich.web.table.fanout`:
built from ``state.view(seat)`` and that seat's legal actions, nothing else).  Bots and expired
timers go through ``commit`` too.

What differs between the process that owns the table and one that keeps a replica of it is the
table's ``role``: :class:`~stich.web.table.owner.Owner` (bots, timers, grace periods, answering
replicas) or :class:`~stich.web.table.replica.Replica` (following the owner).  Connections coming and
going are in :mod:`~stich.web.table.conn`, the frames in :mod:`~stich.web.table.frames`, chat, names
and signals in :mod:`~stich.web.table.talk`."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque

from sqlalchemy import delete, update

from stich.engine import StichError
from stich.web import metrics, store
from stich.web.cluster.channels import t_channel
from stich.web.logs import event
from stich.web.ratings import finish_match
from stich.web.table.conn import Conn, Connections, Seat
from stich.web.table.evening import Evening
from stich.web.table.fanout import FanOut
from stich.web.table.frames import Rendering, legal_for
from stich.web.table.owner import LOST, Owner
from stich.web.table.players import SeatPlayers
from stich.web.table.replica import Replica
from stich.web.table.talk import CHAT_KEEP, Talk

log = logging.getLogger("stich.web")

MAX_ACTION = 200          # characters of an action text
MAX_CLIENT_ID = 128
# seconds a finished table without connections stays in memory: its page, record and replay reload
# it from the log on demand, so a short stay costs nothing; at 200 busy tables 5 minutes kept ~350
# finished ones (RSS 244 -> 520 MiB in a 10-minute soak, and longer full garbage collections)
EVICT_AFTER = 60.0
MAX_INFLIGHT = 64         # messages of one connection waiting in the actor


def refusals_by_seat(answers: dict) -> dict[int, int]:
    """seat -> how many refused actions of it ``answers`` holds (the cap STICH_REFUSALS_KEPT counts them)."""
    out: dict[int, int] = {}
    for (seat, _cid), answer in answers.items():
        if answer["type"] == "error":
            out[seat] = out.get(seat, 0) + 1
    return out


class TableActor(Connections, Rendering, Talk, Evening, FanOut, SeatPlayers):
    """One table: its state, seats, connections and chat, and its role (owner or replica)."""

    def __init__(self, server, table_id: str, game, state, seats: list[Seat], settings: dict, public: bool,
                 answers: dict, chat: list[dict], marks: list[int], owner: bool = True, started: bool = False,
                 rematch: str | None = None, rated: bool = False):
        self.server = server
        self.id = table_id
        self.game = game
        self.state = state
        self.seats = seats
        self.settings = settings
        self.public = public
        self.answers = answers           # (seat, client id) -> the answer frame
        self.refused = refusals_by_seat(answers)   # seat -> refused actions kept in ``answers``
        self.chat = deque(chat, maxlen=CHAT_KEEP)
        self.marks = marks                 # seq -> how many of the state's events existed then
        self.started = started             # "start now with bots" was said (table/evening.py)
        self.rematch = rematch             # the id of this finished table's rematch, once there is one
        self.rated = rated                 # its match changes ratings (stich.web.ratings)
        self.conns: set[Conn] = set()
        self.fanout_init()
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.turn_deadline: float | None = None
        # With a cluster (stich.web.cluster): whether this process owns the table (applies actions,
        # runs bots and timers) or keeps a replica that follows the owner; alone, always the owner.
        self.role: Owner | Replica = Owner() if owner else Replica()
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{table_id}")

    @property
    def cluster(self):
        return self.server.cluster

    @property
    def owner(self) -> bool:
        """Whether this process owns the table (for the cluster's and the server's questions)."""
        return self.role.owner

    def take_role(self, owner: bool) -> None:
        """A change of owner (``promote``, ``demote``): a fresh role, nothing of the old one kept."""
        self.role = Owner() if owner else Replica()

    def adopt(self, fields: dict) -> None:
        """Take the fields of a fresh read of the log (a replica catching up, or a change of owner)."""
        for s in self.seats:
            if s.grace:
                s.grace.cancel()
        self.state = fields["state"]
        self.seats = fields["seats"]
        self.settings = fields["settings"]
        self.public = fields["public"]
        self.answers = fields["answers"]
        self.refused = refusals_by_seat(self.answers)
        self.chat = deque(fields["chat"], maxlen=CHAT_KEEP)
        self.marks = fields["marks"]
        self.started = fields["started"]
        self.rematch = fields["rematch"]
        self.rated = fields["rated"]

    async def reload(self) -> None:
        """Read the log again and show everyone here the result."""
        fields = await self.server.read(self.id)
        if fields is None:
            return
        self.adopt(fields)
        self.broadcast_state()
        self.broadcast_seats()

    # --- the actor loop -----------------------------------------------------------------------
    def submit(self, fn, *args) -> None:
        self.inbox.put_nowait((fn, args))

    def submit_from(self, conn: Conn, fn, *args) -> None:
        """Queue a client's message; a client with too many waiting gets an error instead (no flood)."""
        if conn.inflight >= MAX_INFLIGHT:
            conn.send({"type": "error", "id": None, "message": "too many messages at once; wait for the answers"})
            return
        conn.inflight += 1

        async def run():
            try:
                await self.role.run(self, conn, fn, args)
            finally:
                conn.inflight -= 1

        self.submit(run)

    async def _run(self) -> None:
        try:
            while True:
                fn, args = await self.inbox.get()
                try:
                    await fn(*args)
                except Exception:  # noqa: BLE001 - a bug in one step must not stop the table
                    metrics.error("table_step_failed")
                    log.exception("table step failed", extra={"fields": {"table": self.id, "seq": self.seq}})
        except asyncio.CancelledError:
            # stop(): end quietly.  A task that ends cancelled keeps its CancelledError, whose
            # traceback holds this frame and so this actor, which holds the task: the table and its
            # whole history would wait for a full garbage collection instead of going at once.
            return

    def start(self) -> None:
        """After loading: the owner starts grace periods and bots; a replica checks that it missed no
        action between subscribing and reading the log."""
        self.role.start(self)

    def stop(self) -> None:
        self.task.cancel()
        for s in self.seats:
            if s.grace:
                s.grace.cancel()
        self.role.stop(self)
        self.stop_fanout()
        for c in list(self.conns):
            c.stop()

    # --- facts --------------------------------------------------------------------------------
    @property
    def seq(self) -> int:
        return len(self.state.history)

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    def seat_for_hash(self, token_hash: str) -> int | None:
        import hmac

        found = None
        for s in self.seats:  # compare with every seat, in constant time each
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, token_hash):
                found = s.seat
        return found

    def connected(self) -> set[int]:
        """The seats with a connection on any process."""
        return self.seats_here() | self.role.connected_elsewhere()

    def maybe_evict(self) -> None:
        """A finished table nobody watches leaves memory after a while (it reloads from its log on demand;
        ``STICH_FINISHED_TABLE_SECONDS``)."""
        if self.finished and not self.conns:
            asyncio.get_running_loop().call_later(self.server.evict_after, self.server.evict, self.id)

    # --- one action: check, commit, apply, announce ---------------------------------------------
    def check(self, seat: int | None, text) -> tuple[object | None, str | None]:
        """(new state, None) for a legal action of ``seat``; (None, message) otherwise."""
        if seat is None:
            return None, "spectators cannot act; join the table with a seat's link"
        if not isinstance(text, str) or not text.strip():
            return None, "'action' must be the text of an action, e.g. 'play EO'"
        if len(text) > MAX_ACTION:
            return None, f"an action has at most {MAX_ACTION} characters"
        if self.finished:
            return None, "the match is over"
        if not legal_for(self.state, seat):
            return None, f"it is not your turn: seat {self.state.current_player + 1} is to act (seats are 1-based)"
        new = self.state.clone()
        try:  # with seat=, a text naming another seat ("4:ask_exchange") is refused by the engine
            new.apply(text, seat=seat)
        except StichError as exc:
            return None, str(exc)
        return new, None

    async def act(self, conn: Conn, cid: str, text, received: float | None = None) -> None:
        """A client's action (``received``: ``time.perf_counter()`` when its message arrived, for the
        latency metric)."""
        seat = conn.seat
        key = (seat, cid)
        if key in self.answers:  # a resent id: the same answer, no second effect
            conn.send(self.answers[key])
            return
        new, error = self.check(seat, text)
        if error is not None:
            metrics.error("action_refused")
            answer = {"type": "error", "id": cid, "message": error}
            on_refused = getattr(conn, "on_refused", None)   # the socket's limit (stich.web.sockets)
            if on_refused is not None:
                on_refused()
            if seat is not None and self.refused.get(seat, 0) >= self.server.refusals_kept:
                # a flood of illegal actions must not grow the database (and this dict) for ever: past
                # the seat's first STICH_REFUSALS_KEPT, a refusal is answered and counted, not kept
                # (the same id sent again is checked again)
                metrics.error("refusal_not_kept")
            elif seat is not None:
                try:
                    await self.server.writer.write((store.answers, dict(
                        table_id=self.id, seat=seat, client_id=cid, seq=None, error=error)))
                    self.answers[key] = answer
                    self.refused[seat] = self.refused.get(seat, 0) + 1
                except Exception:  # noqa: BLE001 - the refusal stands; only its memory is lost
                    pass
            conn.send(answer)
            return
        seq = await self.commit(new, seat, "human", cid, conn)
        if seq is LOST:  # another process owns the table now: it answers (same client id, one effect)
            if isinstance(conn, Conn):
                self.cluster.forward(self, conn, "act", (cid, text))
            return LOST
        if seq is not None and received is not None:  # until the new state frame is out to this client
            conn.after_sent(lambda: metrics.action_latency(time.perf_counter() - received))
        if seq is None:
            conn.send({"type": "error", "id": cid, "retry": True,   # not saved: the same id may take effect
                       "message": "the server could not save the action; send it again with the same id"})

    async def commit(self, new, seat: int, origin: str, cid: str | None, conn: Conn | None = None) -> int | None:
        """Append the action to the log (committed), then adopt the new state and tell everyone."""
        seq = len(new.history)
        text = str(new.history[-1][1])
        stmts = [(store.actions, dict(table_id=self.id, seq=seq, seat=seat, action=text, origin=origin,
                                      client_id=cid, at=time.time()))]
        if cid is not None:
            stmts.append((store.answers, dict(table_id=self.id, seat=seat, client_id=cid, seq=seq, error=None)))
        if new.is_terminal():
            stmts.append(update(store.tables).where(store.tables.c.id == self.id).values(
                finished=True, record=store.dumps(self.make_record(new))))
            # the history and ratings in the same transaction: counted exactly once, or not at all
            stmts.append(finish_match(self.id, self.game, new, self.rated))
        if self.cluster is not None:
            stmts.append(self.cluster.guard(self.id))   # runs first in the transaction
            if new.is_terminal():  # a finished table has no owner: nobody renews or sweeps it for ever
                stmts.append(delete(store.leases).where(store.leases.c.table_id == self.id))
        try:
            await self.server.writer.write(*stmts)
        except store.LeaseLost:  # not saved, and not ours to save: become a replica of the new owner
            event(log, "lease lost at commit", logging.WARNING, table=self.id, seq=seq)
            await self.demote()
            return LOST
        except Exception as exc:  # noqa: BLE001 - not saved: nothing changes, nobody is told
            metrics.error("commit_failed")
            event(log, "commit failed", logging.ERROR, table=self.id, seq=seq, error=repr(exc))
            return None
        # The check ran on a clone (nothing changes if the commit fails); now the action is applied to
        # the live state too, because a clone starts its per-seat view folds from scratch: adopting it
        # made every frame of the fan-out refold the whole match (twice the CPU per action, measured).
        try:
            self.state.apply(text, seat=seat)
        except StichError:  # cannot happen for the action the clone took; the clone is right anyway
            self.state = new
        if len(self.state.history) != seq or len(self.state.events) != len(new.events):
            self.state = new
        self.marks.append(len(self.state.events))
        metrics.action(origin)
        if cid is not None:
            ack = {"type": "ack", "id": cid, "seq": seq}
            self.answers[(seat, cid)] = ack
            if conn is not None:
                conn.send(ack)
        if self.finished:
            event(log, "match over", table=self.id, seq=seq, actions=seq)
            self.maybe_evict()
            self.server.table_finished(self.id)   # a tournament's next match (stich.web.tourney)
        self.role.committed(self)   # the owner: the next bot or turn timer (sets turn_deadline)
        # committed first, announced second: a replica can always catch up
        self.tell_replicas({"k": "applied", "seq": seq, "seat": seat, "action": text, "cid": cid,
                            "deadline": self.turn_deadline})
        self.broadcast_state()
        return seq

    # --- fan-out (the connections': table/fanout.py) --------------------------------------------
    def tell_replicas(self, msg: dict) -> None:
        """Publish on the table's channel for the other processes' replicas (in a cluster)."""
        if self.cluster is not None:
            self.cluster.publish(t_channel(self.id), msg)

    # --- the cluster's entries: each runs in the actor, and the role decides ------------------------
    def submit_remote(self, conn, op: str, args: list, req: str) -> None:
        """A message forwarded by another process for one of its connections (the owner answers)."""
        self.submit(self._answer_remote, conn, op, args, req)

    # each of these looks the role up when its step runs, not when it was queued: a change of owner
    # may come between
    async def _answer_remote(self, conn, op: str, args: list, req: str) -> None:
        await self.role.answer_remote(self, conn, op, args, req)

    async def on_owner_message(self, msg: dict) -> None:
        if msg.get("k") == "rematch":   # told by whichever process made the rematch (a finished table has no owner)
            await self.on_rematch(msg["table"])
            return
        await self.role.on_owner_message(self, msg)

    async def on_presence(self, node: str, seats: list[int]) -> None:
        await self.role.on_presence(self, node, seats)

    async def expire_presence(self, older: float) -> None:
        await self.role.expire_presence(self, older)

    async def after_outage(self) -> None:
        await self.role.after_outage(self)

    async def demote(self) -> None:
        await self.role.demote(self)

    async def catch_up(self, done: asyncio.Future | None = None) -> None:
        try:
            await self.role.catch_up(self)
        finally:
            if done is not None and not done.done():
                done.set_result(None)

    async def promote(self, done: asyncio.Future | None = None) -> None:
        try:
            await self.role.promote(self)
        finally:
            if done is not None and not done.done():
                done.set_result(self.owner)
