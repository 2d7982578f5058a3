"""The people at a table: one socket (:class:`Conn`), one seat (:class:`Seat`), and a table's
connections coming and going (:class:`Connections`)."""

from __future__ import annotations

import asyncio
from collections import deque

from stich.web import store

SEND_QUEUE = 256          # frames waiting for a slow connection before it is dropped


class TableLeft(Exception):
    """The table's actor stopped while a connection waited to be attached to it: the socket asks the
    server for the table again (a new actor, maybe a replica of another process's table)."""


class Conn:
    """One socket: its seat (None = spectator), format and language, and its outgoing queue.

    The table never waits for a socket: it queues frames here and this connection's own task writes
    them, so a slow reader costs only its own queue (and is dropped when that is full)."""

    def __init__(self, ws, seat: int | None, fmt: str = "json", lang: str = "en", player: dict | None = None):
        self.ws = ws
        self.seat = seat
        self.player = player   # {"id", "name"}: the player the socket's credential belongs to, or None
        self.fmt = fmt
        self.lang = lang
        self.out: asyncio.Queue = asyncio.Queue()
        self.closed = False
        self.inflight = 0  # messages of this connection waiting in the table's actor
        self.task = asyncio.get_running_loop().create_task(self._pump())

    def send(self, message) -> None:
        if self.closed:
            return
        if self.out.qsize() >= SEND_QUEUE:  # a client that does not read: drop it, it can resync
            self.closed = True
            self.out.put_nowait(None)
            return
        self.out.put_nowait(message if isinstance(message, str) else store.dumps(message))

    def after_sent(self, fn) -> None:
        """Call ``fn()`` once every frame queued so far has been written to the socket."""
        if not self.closed:
            self.out.put_nowait(fn)

    async def _pump(self) -> None:
        try:
            while True:
                text = await self.out.get()
                if text is None:
                    await self.ws.close(code=4008)
                    return
                if callable(text):  # after_sent: the frames before it are out
                    text()
                    continue
                await self.ws.send_text(text)
        except Exception:  # noqa: BLE001 - the socket is gone; the handler notices on receive
            self.closed = True

    def stop(self) -> None:
        self.closed = True
        if self.task is not None:
            self.task.cancel()
        # the cancelled task's exception holds the pump's frame, which holds this Conn, which held
        # the task: without this a closed connection waited for a full garbage collection
        self.task = None


class Seat:
    """One seat as the table keeps it: who sits there (a human or a bot), its token's hash, its name,
    whether its link was handed out (``claimed``) and opened (``arrived``), and the owner's per-seat timers."""

    def __init__(self, seat: int, kind: str, bot: str | None, token_hash: str | None, name: str | None,
                 claimed: bool, arrived: bool = False, player_id: int | None = None):
        self.seat = seat
        self.kind = kind
        self.bot = bot
        self.token_hash = token_hash
        self.name = name
        self.claimed = claimed
        self.arrived = arrived       # its person has been connected once (stored)
        self.player_id = player_id   # the player whose first connection took it, for the whole match
        self.bot_playing = False     # a human seat whose bot plays after the grace period
        self.grace: asyncio.TimerHandle | None = None
        self.grace_until: float | None = None   # a replica's copy of the owner's grace deadline (unix time)
        self.said: deque = deque()   # times of recent chat messages and signals


class Connections:
    """Connections coming and going, and a client's resync, for
    :class:`~stich.web.table.actor.TableActor` (which has the fields they use; what the owner and a
    replica do besides is their role's ``attached`` and ``detached``)."""

    async def attach(self, conn: Conn) -> None:
        """A new connection, attached in the actor's task: a seat's hand-back and the first frames are
        then one step between two others, never beside a bot's move whose commit is in flight (that
        move would land after the human was told the seat and its legal actions were theirs)."""
        done = asyncio.get_running_loop().create_future()

        async def run():
            try:
                await self._attach(conn)
            except Exception as exc:  # noqa: BLE001 - e.g. the database away: the socket handler says so
                if not done.done():
                    done.set_exception(exc)
                return
            except BaseException as exc:
                if not done.done():
                    done.set_exception(exc)
                raise
            if not done.done():
                done.set_result(None)

        self.submit(run)
        await asyncio.wait([done, self.task], return_when=asyncio.FIRST_COMPLETED)
        if done.done():
            done.result()
        elif self.finished:  # the actor stopped (the table left memory): nothing moves a finished match
            await self._attach(conn)
        else:   # stopped before the connection was in it (evicted, handed over): it would hear nothing
            raise TableLeft(self.id)

    async def _attach(self, conn: Conn) -> None:
        if conn.seat is not None:   # before anything is sent or counted: a refused connection learns nothing
            try:
                await self.bind_player(conn)
            except BaseException:
                conn.stop()
                raise
        if conn not in self.conns and conn.seat is not None:
            self.seated[conn.seat] += 1   # who is connected, counted as they come and go (fanout.py)
        self.conns.add(conn)
        if self.cluster is not None:
            self.cluster.register(conn)
        try:
            await self.role.attached(self, conn)   # a replica reads the log, an owner may store a claim
        except BaseException:
            # Not attached (the database away, say): its socket handler ends without a detach, so a
            # connection counted here would count for ever and keep its table in memory (after an 83 s
            # outage two processes counted 26 and 49 sockets that had no TCP connection)
            self._forget(conn)
            conn.stop()
            if self.cluster is not None:
                self.cluster.unregister(conn)
            raise
        conn.send({"type": "seats", "seats": self.seats_info()})
        conn.send(self.first_frame(conn.seat, conn.fmt, conn.lang))
        for m in self.chat_for(conn.seat):
            conn.send(m)
        self.broadcast_seats()

    def _forget(self, conn: Conn) -> None:
        """``conn`` is no connection of this table any more (its seat counts one less here)."""
        if conn in self.conns and conn.seat is not None:
            self.seated[conn.seat] -= 1
            if not self.seated[conn.seat]:
                del self.seated[conn.seat]
        self.conns.discard(conn)

    def detach(self, conn: Conn) -> None:
        self._forget(conn)
        conn.stop()
        if self.cluster is not None:
            self.cluster.unregister(conn)
        self.role.detached(self, conn)

    async def resync(self, conn: Conn, seq) -> None:
        """A full snapshot (card tables are small): the seats, the current frame, and the events the
        seat missed since ``seq`` when the client's seq is one this table had."""
        conn.send({"type": "seats", "seats": self.seats_info()})
        frame = self.frame(conn.seat, conn.fmt, conn.lang)
        frame["resync"] = True
        if 0 <= seq <= self.seq:
            frame["missed"] = {"since": seq, "events": self.missed(conn.seat, seq)}
        conn.send(frame)
