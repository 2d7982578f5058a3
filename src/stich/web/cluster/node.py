"""This process's part in a cluster (:class:`Cluster`): its node id, its Redis connections (one
publisher task, one reader that hands each message to its table's actor), and its life cycle; the
forwarding to owners and the leases are in :mod:`~stich.web.cluster.forwarding` and
:mod:`~stich.web.cluster.leases`."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets

from sqlalchemy import update

from stich.web import store
from stich.web.cluster.balance import Balance
from stich.web.cluster.channels import FORWARDED, kind_of, n_channel, released
from stich.web.cluster.forwarding import Forwarding, RemoteConn
from stich.web.cluster.leases import Leases, lease_ttl
from stich.web.logs import event

log = logging.getLogger("stich.web")


class Cluster(Forwarding, Leases, Balance):
    """This process's part in a cluster: its node id, its Redis connections, its leases."""

    def __init__(self, server, redis_url: str):
        self.server = server
        self.redis_url = redis_url
        self.node = secrets.token_hex(8)
        self.ttl = lease_ttl()
        self.conns: dict[int, object] = {}         # key -> local Conn, for frames the owner sends
        self.pending: dict[str, asyncio.Future] = {}  # forwarded request id -> its answer
        self.taking: dict[str, asyncio.Future] = {}
        self.queue: asyncio.Queue = asyncio.Queue()
        self.tasks: list[asyncio.Task] = []
        self.forwards: set[asyncio.Task] = set()
        self._keys = 0
        self.published = 0
        self.closing = False
        self.wanted: set[str] = set()   # channels this process wants; Redis's own list is lost with it
        self.listening = True           # the subscription connection works (readiness)
        self.publishing = True          # the last PUBLISH went through (logs say when this changes)

    # --- life cycle ---------------------------------------------------------------------------
    async def start(self) -> None:
        import redis.asyncio as aioredis

        self.redis = aioredis.from_url(self.redis_url, decode_responses=True, socket_connect_timeout=2.0)
        await self.redis.ping()
        self.pubsub = self.redis.pubsub()
        self.wanted.update((n_channel(self.node), released()))
        await self.pubsub.subscribe(*self.wanted)
        # After a lost connection redis-py connects again on the next read and subscribes to the channels
        # it knew; this callback runs right after, on every reconnection (not on the first connection).
        self.pubsub.connection.register_connect_callback(self._reconnected)
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self._reader(), name="stich-redis-reader"),
                      loop.create_task(self._publisher(), name="stich-redis-publisher"),
                      loop.create_task(self._keeper(), name="stich-leases")]
        event(log, "cluster node", node=self.node, lease_seconds=self.ttl)

    async def handover(self, table_ids: list[str]) -> None:
        """Graceful shutdown: give up every lease at once and name the tables, so that a live process
        takes each of them now rather than after the lease would have expired."""
        self.closing = True
        try:
            async with self.server.engine.begin() as conn:
                await conn.execute(update(store.leases).where(store.leases.c.owner == self.node).values(expires=0.0))
            if table_ids:
                await asyncio.wait_for(self.publish(released(), {"tables": table_ids, "node": self.node}), 2.0)
            event(log, "tables handed over", tables=len(table_ids))
        except Exception as exc:  # noqa: BLE001 - the leases then simply expire
            event(log, "handover failed", logging.WARNING, error=repr(exc))

    async def stop(self) -> None:
        for t in [*self.tasks, *self.forwards]:
            t.cancel()
        for t in [*self.tasks, *self.forwards]:
            with contextlib.suppress(BaseException):
                await t
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # --- pub/sub ------------------------------------------------------------------------------
    def publish(self, channel: str, msg: dict) -> asyncio.Future:
        """Queue a message; the future gives how many processes received it.  One publisher task
        sends them in order on one connection: a follower sees an owner's messages in commit order."""
        fut = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((channel, store.dumps(msg), fut))
        return fut

    async def _publisher(self) -> None:
        while True:
            batch = [await self.queue.get()]
            while not self.queue.empty() and len(batch) < 512:
                batch.append(self.queue.get_nowait())
            try:
                pipe = self.redis.pipeline(transaction=False)
                for channel, text, _fut in batch:
                    pipe.publish(channel, text)
                results = await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - Redis away: followers catch up from the log later
                if self.publishing:
                    event(log, "publish failed", logging.WARNING, error=repr(exc), messages=len(batch))
                self.publishing = False
                for _c, _t, fut in batch:
                    if not fut.done():
                        fut.set_exception(ConnectionError(f"redis: {exc}"))
                        fut.exception()
                await asyncio.sleep(0.2)
                continue
            self.published += len(batch)
            if not self.publishing:
                event(log, "publishing again")
                self.publishing = True
                # What failed to go out is lost, and it may have failed after the subscription was
                # back (redis-py's publishing connection reconnects on its own): then _resume's
                # catch-up came before the lost message, and a replica waiting for it would wait
                # forever.  So every table catches up again now, as after an outage.
                self._catch_up_all()
            for (_c, _t, fut), n in zip(batch, results, strict=True):
                if not fut.done():
                    fut.set_result(n)

    async def subscribe(self, *channels: str) -> None:
        """Listen on ``channels``; with Redis away, from when it is back (a table opened meanwhile reads
        the log then, after the subscription: nothing falls between)."""
        self.wanted.update(channels)
        try:
            await self.pubsub.subscribe(*channels)
        except Exception as exc:  # noqa: BLE001 - Redis away: _reconnected subscribes it
            event(log, "subscribe failed", logging.WARNING, error=repr(exc))

    async def unsubscribe(self, *channels: str) -> None:
        self.wanted.difference_update(channels)
        try:
            await self.pubsub.unsubscribe(*channels)
        except Exception as exc:  # noqa: BLE001 - Redis away: _reconnected drops it
            event(log, "unsubscribe failed", logging.WARNING, error=repr(exc))

    async def _reconnected(self, _connection) -> None:
        """Redis is back and redis-py has subscribed again to what it knew (runs inside its connect,
        so the rest is a task of its own)."""
        self.listening = True
        self._spawn(self._resume())

    async def _resume(self) -> None:
        """After an outage: fix the subscriptions changed meanwhile, then let every table catch up
        (a replica reads the log it missed, an owner tells its replicas its seq and seats)."""
        known = set(self.pubsub.channels)
        try:
            if self.wanted - known:
                await self.pubsub.subscribe(*(self.wanted - known))
            if known - self.wanted:
                await self.pubsub.unsubscribe(*(known - self.wanted))
        except Exception as exc:  # noqa: BLE001 - away again: the next reconnection comes back here
            event(log, "resubscribe failed", logging.WARNING, error=repr(exc))
            return
        event(log, "redis back", tables=len(self.server.tables))
        self._catch_up_all()

    def _catch_up_all(self) -> None:
        """Every open table catches up with what may have been lost (``after_outage``)."""
        for actor in list(self.server.tables.values()):
            actor.submit(actor.after_outage)

    async def problem(self, timeout: float) -> str | None:
        """Why this process cannot serve every table now (readiness), or None."""
        if not self.listening:
            return "redis unavailable: this process hears no other process"
        try:
            await asyncio.wait_for(self.redis.ping(), timeout)
        except Exception as exc:  # noqa: BLE001 - any failure means "not now"
            return f"redis unavailable: {type(exc).__name__}"
        return None

    async def _reader(self) -> None:
        while True:
            try:
                msg = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - keep listening; gaps are caught up from the log
                if self.listening:
                    event(log, "redis away", logging.WARNING, error=repr(exc))
                self.listening = False
                await asyncio.sleep(0.2)   # the next read connects again (and subscribes again)
                continue
            self.listening = True
            if msg is None or msg.get("type") != "message":
                continue
            try:
                self._dispatch(msg["channel"], json.loads(msg["data"]))
            except Exception:  # noqa: BLE001 - one bad message must not stop the others
                log.exception("cluster message failed", extra={"fields": {"channel": msg.get("channel")}})

    def _dispatch(self, channel: str, msg: dict) -> None:
        kind = msg.get("k")
        where, table_id = kind_of(channel)
        if where == "n":
            if kind == "send":
                conn = self.conns.get(msg["conn"])
                if conn is not None:
                    conn.send(msg["text"])
            elif kind == "done":
                fut = self.pending.get(msg["req"])
                if fut is not None and not fut.done():
                    fut.set_result(msg.get("result"))
            elif kind == "take":   # a process with more than its share hands these tables to this one
                for name in msg.get("tables", []):
                    self._spawn(self._take_later(name, 0.0))
            return
        if where == "released":
            if msg.get("node") != self.node:
                for table_id in msg.get("tables", []):
                    # a process that has the table open takes it first; the others a moment later
                    delay = 0.0 if table_id in self.server.tables else random.uniform(0.05, 0.3)
                    self._spawn(self._take_later(table_id, delay))
            return
        actor = self.server.tables.get(table_id)
        if actor is None:
            return
        if where == "t" or kind == "rematch":   # a finished table's last owner hears it too
            actor.submit(actor.on_owner_message, msg)
        elif kind == "call":
            rc = RemoteConn(self, msg["node"], msg.get("conn"), msg.get("seat"), msg.get("fmt", "json"),
                            msg.get("lang", "en"))
            if msg["op"] == "join":
                self._spawn(self._remote_join(actor, msg))
            elif msg["op"] in FORWARDED:
                actor.submit_remote(rc, msg["op"], msg.get("args", []), msg["req"])
        elif kind == "presence":
            actor.submit(actor.on_presence, msg["node"], msg.get("seats", []))

    def _spawn(self, coro) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self.forwards.add(task)
        task.add_done_callback(self.forwards.discard)
        return task
