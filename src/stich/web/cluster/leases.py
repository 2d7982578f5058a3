"""Table ownership: each unfinished table's lease (a row of ``leases`` in the shared database), taken
when it is free or expired, renewed every ``ttl/3`` seconds and by every commit of the owner
(:meth:`Leases.guard`), and a fair share of the orphaned tables taken over by each live process."""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time

from sqlalchemy import and_, or_, select, update
from sqlalchemy.exc import IntegrityError

from stich.web import store
from stich.web.cluster.balance import BALANCE_EVERY
from stich.web.cluster.channels import released
from stich.web.logs import event
from stich.web.settings import env_seconds

log = logging.getLogger("stich.web")

PRESENCE_STALE = 3        # renew periods after which a silent follower's connections count as gone


def lease_ttl() -> float:
    """Seconds a lease lasts without renewal: how long a killed owner's tables wait for a new owner
    (``STICH_LEASE_SECONDS``, default 2: a dead owner's tables move within 3 s).  A live process that
    misses a renewal (a stall, a database outage) keeps its tables: the sweep takes only the tables of
    owners that Redis no longer hears."""
    return env_seconds("STICH_LEASE_SECONDS", 2, 0.5, 600)


class Leases:
    """The lease methods of :class:`~stich.web.cluster.node.Cluster` (which has the fields they use)."""

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
                if held is not None and held["owner"] != self.node:
                    # who took which table from whom, and how late: the story of a failover
                    event(log, "lease taken", table=table_id, node=self.node, previous=held["owner"],
                          expired_for=round(now - held["expires"], 3))
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
        rounds = 0
        away = False
        while True:
            await asyncio.sleep(period * random.uniform(0.8, 1.0))
            # presence first: it needs Redis only, and must go on while the database is away (a
            # follower's seats that went silent would count as gone, and their bots take them)
            for actor in list(self.server.tables.values()):
                if actor.owner:
                    actor.submit(actor.expire_presence, period * PRESENCE_STALE)
                elif actor.conns:
                    self.presence(actor)
            try:
                await self._renew()
                await self.sweep()
                rounds += 1
                if rounds % BALANCE_EVERY == 0:
                    await self.rebalance()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the database may be away for a moment; try again
                if not store.unavailable(exc):
                    log.exception("lease keeping failed")
                elif not away:   # one line per outage, not one traceback per period
                    event(log, "lease keeping failed: database unavailable", logging.WARNING, error=repr(exc))
                away = store.unavailable(exc)
                continue
            away = False

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
        """Take a fair share of the unfinished tables whose lease has expired and whose owner Redis
        no longer hears (it died).  An owner that Redis still hears only missed renewals (a database
        outage, a stalled event loop): its tables stay with it, rather than all moving after every
        outage longer than the lease."""
        if self.closing:
            return 0
        T, L = store.tables, store.leases
        now = time.time()
        rows = await store.fetch_all(self.server.engine, select(T.c.id, L.c.owner).select_from(
            T.outerjoin(L, L.c.table_id == T.c.id)).where(
            and_(T.c.finished.is_(False), or_(L.c.expires.is_(None), L.c.expires < now))))
        if not rows:
            return 0
        try:
            heard = await self.live_nodes() - {self.node}
        except Exception:  # noqa: BLE001 - Redis away: who lives is unknown; the leases decide
            heard = set()
        ids = [r["id"] for r in rows if r["owner"] not in heard]
        if not ids:
            return 0
        random.shuffle(ids)
        try:
            live = max(1, int((await self.redis.pubsub_numsub(released()))[0][1]))
        except Exception:  # noqa: BLE001
            live = 1
        taken = 0
        for table_id in ids[:math.ceil(len(ids) / live)]:
            if await self.take(table_id):
                taken += 1
        if taken:
            event(log, "tables taken over", tables=taken, orphans=len(ids))
        return taken
