"""Several ``stich serve`` processes on one database (``--redis``): table ownership and Redis pub/sub.

Each unfinished table is **owned** by one process at a time: the one holding its lease (a row of
``leases`` in the shared database, renewed every ``ttl/3`` seconds).  Only the owner applies actions,
runs the table's bots, timers and grace periods; each of its commits also renews the lease in the
same transaction and fails if the lease is no longer its own (a :class:`~stich.web.store.Guard`), so
two processes can never both extend one table's log.

Every other process with a connection to the table keeps a **replica** (a follower
:class:`~stich.web.table.TableActor`): the owner publishes each committed action on the table's
channel, and followers apply it to their copy and send their own connections their own frames (each
built from ``view(seat)`` on the follower, as on the owner).  A follower forwards its connections'
actions, chat, names and signals to the owner's channel; the owner answers through the follower's
node channel.  Channels:

``stich:t:ID``   owner -> followers: ``applied``, ``seats``, ``chat``, ``signal``, ``owner``
``stich:o:ID``   followers -> owner: ``call`` (act, say, rename, signal, join), ``presence``
``stich:n:NODE`` owner -> one process: ``send`` (a frame for one of its connections), ``done``
``stich:released``  a process that shuts down names the tables it gave up: others take them at once

An action is committed before it is published, so a follower that sees a gap in seqs (or joins late)
reads the log again; a forwarded action whose answer does not come is sent again with the same client
id (idempotent), to whichever process owns the table by then.  When PUBLISH to ``stich:o:ID`` reaches
nobody, the owner is gone: the follower takes the lease as soon as it has expired.

Redis holds nothing that matters: every message is either in the log already or answered again.  While
it is away, owners go on committing (their own clients play on), a forwarded action is given up after
``REDIS_WAIT`` seconds and its client told to send it again with the same id, and when the connection
comes back (redis-py subscribes again on the next read) every replica reads the log it missed and every
owner announces its seq and seats."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import random
import secrets
import time

from sqlalchemy import and_, or_, select, update
from sqlalchemy.exc import IntegrityError

from stich.web import store
from stich.web.logs import event
from stich.web.settings import env_seconds

log = logging.getLogger("stich.web")

RELEASED = "stich:released"
FORWARD_WAIT = 3.0        # seconds a forwarded action waits for its answer before it is sent again
FORWARD_GIVE_UP = 60.0    # seconds after which a forwarded message is given up (the client is told to resend)
REDIS_WAIT = 3.0          # seconds a forwarded message waits while Redis refuses it, before its client is told
PRESENCE_STALE = 3        # renew periods after which a silent follower's connections count as gone
FORWARDED = ("act", "say", "rename", "signal")


def lease_ttl() -> float:
    """Seconds a lease lasts without renewal: how long a killed owner's tables wait for a new owner
    (``STICH_LEASE_SECONDS``, default 10: a busy process must renew within it)."""
    return env_seconds("STICH_LEASE_SECONDS", 10, 0.5, 600)


def t_channel(table_id: str) -> str:
    return f"stich:t:{table_id}"


def o_channel(table_id: str) -> str:
    return f"stich:o:{table_id}"


def n_channel(node: str) -> str:
    return f"stich:n:{node}"


UNDELIVERED = object()    # call(): no answer came, in time or at all


def undelivered(op: str, args: list) -> dict:
    """What a client hears when its forwarded message reached no owner in time.  An action may still be
    applied (it may have arrived and only the answer got lost), so its client sends it again with the
    same id: that resend gets the one true answer (``retry``: the frame says so to programs)."""
    if op == "act":
        return {"type": "error", "id": args[0], "retry": True,
                "message": "no answer from the table's server (its process or the cluster's Redis is away "
                           "for a moment): send the action again with the same id; it takes effect once"}
    return {"type": "error", "id": None,
            "message": "the table's server cannot be reached just now: your message may not have arrived"}


class RemoteConn:
    """A connection held by another process, as the owner's actor sees it: what it sends goes to
    that process's node channel, which hands it to the socket."""

    def __init__(self, cluster: Cluster, node: str, key: int, seat: int | None, fmt: str, lang: str):
        self.cluster = cluster
        self.node = node
        self.key = key
        self.seat = seat
        self.fmt = fmt
        self.lang = lang
        self.closed = False
        self.inflight = 0

    def after_sent(self, fn) -> None:
        """The latency metric counts connections of this process only (another process's clock)."""

    def send(self, message) -> None:
        text = message if isinstance(message, str) else store.dumps(message)
        self.cluster.publish(n_channel(self.node), {"k": "send", "conn": self.key, "text": text})


class Cluster:
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
        self.wanted.update((n_channel(self.node), RELEASED))
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
                await asyncio.wait_for(self.publish(RELEASED, {"tables": table_ids, "node": self.node}), 2.0)
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
        if channel.startswith("stich:n:"):
            if kind == "send":
                conn = self.conns.get(msg["conn"])
                if conn is not None:
                    conn.send(msg["text"])
            elif kind == "done":
                fut = self.pending.get(msg["req"])
                if fut is not None and not fut.done():
                    fut.set_result(msg.get("result"))
            return
        if channel == RELEASED:
            if msg.get("node") != self.node:
                for table_id in msg.get("tables", []):
                    # a process that has the table open takes it first; the others a moment later
                    delay = 0.0 if table_id in self.server.tables else random.uniform(0.05, 0.3)
                    self._spawn(self._take_later(table_id, delay))
            return
        table_id = channel[len("stich:t:"):]
        actor = self.server.tables.get(table_id)
        if actor is None:
            return
        if channel.startswith("stich:t:"):
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

    def done(self, node: str, req: str, result=None) -> None:
        self.publish(n_channel(node), {"k": "done", "req": req, "result": result})

    def register(self, conn) -> None:
        self._keys += 1
        conn.key = self._keys
        self.conns[conn.key] = conn

    def unregister(self, conn) -> None:
        self.conns.pop(getattr(conn, "key", None), None)

    # --- forwarding to the owner ----------------------------------------------------------------
    def forward(self, actor, conn, op: str, args) -> None:
        self._spawn(self._forward(actor, conn, op, list(args)))

    async def _forward(self, actor, conn, op: str, args: list) -> None:
        try:
            answer = await self.call(actor, op, args, conn)
        except Exception:  # noqa: BLE001 - e.g. the database away while taking the table: tell the client
            log.exception("forwarding failed", extra={"fields": {"table": actor.id, "op": op}})
            answer = UNDELIVERED
        if answer is UNDELIVERED and not conn.closed:
            conn.send(undelivered(op, args))

    async def call(self, actor, op: str, args: list, conn=None):
        """Send ``op`` to the table's owner and wait for its answer (``act`` again and again, with the
        same client id, until one comes); take the table when it has no owner.  Returns the owner's
        result (``join``: ``[status, body]``), or UNDELIVERED when Redis refused the message for
        REDIS_WAIT seconds or no answer came within FORWARD_GIVE_UP: the client is told, never left
        waiting."""
        req = secrets.token_hex(8)
        fut = asyncio.get_running_loop().create_future()
        self.pending[req] = fut
        msg = {"k": "call", "op": op, "node": self.node, "args": args, "req": req,
               "conn": getattr(conn, "key", None), "seat": getattr(conn, "seat", None),
               "fmt": getattr(conn, "fmt", "json"), "lang": getattr(conn, "lang", "en")}
        end = time.monotonic() + FORWARD_GIVE_UP
        away = None   # since when Redis has refused this message
        try:
            while not (conn is not None and conn.closed) and not self.closing:
                now = time.monotonic()
                if now >= end or (away is not None and now - away >= REDIS_WAIT):
                    return UNDELIVERED
                if actor.owner:  # became ours meanwhile
                    return await self._local(actor, op, args, conn)
                try:
                    heard = await asyncio.wait_for(asyncio.shield(self.publish(o_channel(actor.id), msg)),
                                                   REDIS_WAIT)
                except (ConnectionError, TimeoutError):
                    away = now if away is None else away
                    await asyncio.sleep(0.2)
                    continue
                away = None
                if heard == 0:   # nobody owns it now: take it when its lease has run out
                    if await self.take(actor.id):
                        continue
                    await asyncio.sleep(0.2)
                    continue
                try:
                    return await asyncio.wait_for(asyncio.shield(fut), FORWARD_WAIT)
                except TimeoutError:
                    if op not in ("act", "join"):
                        return None   # chat and names are not resent (they are not idempotent)
        finally:
            self.pending.pop(req, None)
        return None

    async def _local(self, actor, op: str, args: list, conn):
        if op == "join":
            status, body = await self.server.join_here(actor, *args)
            return [status, body]
        actor.submit_from(conn, getattr(actor, op), *args)
        return None

    async def _remote_join(self, actor, msg) -> None:
        from stich.web.spec import BadRequest

        if not actor.owner:
            return
        try:
            status, body = await self.server.join_here(actor, *msg.get("args", []))
        except BadRequest as exc:
            status, body = 400, {"error": str(exc)}
        self.done(msg["node"], msg["req"], [status, body])

    def presence(self, actor) -> None:
        """Tell the owner which seats this process has connections for."""
        if actor.owner:
            return
        seats = sorted({c.seat for c in actor.conns if c.seat is not None})
        self.publish(o_channel(actor.id), {"k": "presence", "node": self.node, "seats": seats})

    # --- leases -------------------------------------------------------------------------------
    def guard(self, table_id: str) -> store.Guard:
        """The statement every owner's commit carries: it renews the lease, and fails when it is gone."""
        L = store.leases
        return store.Guard(update(L).where(L.c.table_id == table_id, L.c.owner == self.node).values(
            expires=time.time() + self.ttl), f"table {table_id}: this process no longer owns it", table_id)

    def lease_row(self, table_id: str) -> tuple:
        return (store.leases, dict(table_id=table_id, owner=self.node, expires=time.time() + self.ttl))

    async def acquire(self, table_id: str) -> bool:
        """Take (or keep) the lease of ``table_id`` when it is free or expired; True if it is ours."""
        if self.closing:
            return False
        L = store.leases
        now = time.time()
        # a plain read first: a table held by a live owner is not ours, and asking for its row lock
        # would wait behind the owner's commits
        held = await store.fetch_one(self.server.engine, select(L.c.owner, L.c.expires).where(L.c.table_id == table_id))
        if held is not None and held["owner"] != self.node and held["expires"] >= now:
            return False
        async with self.server.engine.begin() as conn:
            r = await conn.execute(update(L).where(L.c.table_id == table_id, or_(
                L.c.owner == self.node, L.c.expires < now)).values(owner=self.node, expires=now + self.ttl))
            if r.rowcount == 1:
                return True
            held = (await conn.execute(select(L.c.owner).where(L.c.table_id == table_id))).first()
        if held is not None:
            return False
        try:
            async with self.server.engine.begin() as conn:
                await conn.execute(L.insert().values(table_id=table_id, owner=self.node, expires=now + self.ttl))
            return True
        except IntegrityError:
            return False

    async def take(self, table_id: str) -> bool:
        """Own ``table_id`` if its lease is free: promote our replica, or load the table as its owner."""
        actor = self.server.tables.get(table_id)
        if actor is not None and actor.owner:
            return True
        pending = self.taking.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut = asyncio.get_running_loop().create_future()
        self.taking[table_id] = fut
        try:
            got = await self._take(table_id)
            fut.set_result(got)
            return got
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()
            raise
        finally:
            self.taking.pop(table_id, None)

    async def _take(self, table_id: str) -> bool:
        actor = self.server.tables.get(table_id)
        if actor is None:
            actor = await self.server.table(table_id)   # loads it, as its owner when the lease is free
            return actor is not None and actor.owner
        row = await store.fetch_one(self.server.engine, select(store.tables.c.finished).where(
            store.tables.c.id == table_id))
        if row is None or row["finished"] or not await self.acquire(table_id):
            return False
        done = asyncio.get_running_loop().create_future()
        actor.submit(actor.promote, done)
        await done
        return actor.owner

    async def _take_later(self, table_id: str, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await self.take(table_id)
        except Exception:  # noqa: BLE001 - the sweep tries again
            log.exception("taking a released table failed", extra={"fields": {"table": table_id}})

    async def _keeper(self) -> None:
        """Every ttl/3 seconds: renew our leases (and notice any we lost), tell owners where our
        connections are, forget silent followers, and take tables nobody owns."""
        period = self.ttl / 3
        while True:
            await asyncio.sleep(period * random.uniform(0.8, 1.0))
            try:
                await self._renew()
                for actor in list(self.server.tables.values()):
                    if actor.owner:
                        actor.submit(actor.expire_presence, period * PRESENCE_STALE)
                    elif actor.conns:
                        self.presence(actor)
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the database may be away for a moment; try again
                log.exception("lease keeping failed")

    async def _renew(self) -> None:
        L = store.leases
        # One statement in its own transaction (autocommit): the row locks are held for the statement
        # only, never across turns of a busy event loop; rows are locked in table id order, as group
        # commits lock them, so the two never deadlock.
        async with self.server.engine.connect() as conn:
            conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
            ours = select(L.c.table_id).where(L.c.owner == self.node).order_by(L.c.table_id)
            if not self.server.url.startswith("sqlite"):
                ours = ours.with_for_update()
            mine = {r[0] for r in await conn.execute(update(L).where(L.c.table_id.in_(ours.scalar_subquery())).values(
                expires=time.time() + self.ttl).returning(L.c.table_id))}
        for actor in list(self.server.tables.values()):
            if actor.owner and not actor.finished and actor.id not in mine:
                event(log, "lease lost", logging.WARNING, table=actor.id)
                actor.submit(actor.demote)

    async def sweep(self) -> int:
        """Take a fair share of the unfinished tables whose lease has expired (their owner died)."""
        if self.closing:
            return 0
        T, L = store.tables, store.leases
        now = time.time()
        rows = await store.fetch_all(self.server.engine, select(T.c.id).select_from(
            T.outerjoin(L, L.c.table_id == T.c.id)).where(
            and_(T.c.finished.is_(False), or_(L.c.expires.is_(None), L.c.expires < now))))
        if not rows:
            return 0
        ids = [r["id"] for r in rows]
        random.shuffle(ids)
        try:
            live = max(1, int((await self.redis.pubsub_numsub(RELEASED))[0][1]))
        except Exception:  # noqa: BLE001
            live = 1
        taken = 0
        for table_id in ids[:math.ceil(len(ids) / live)]:
            if await self.take(table_id):
                taken += 1
        if taken:
            event(log, "tables taken over", tables=taken, orphans=len(ids))
        return taken
