"""The table server's core: the database, the bot pool, and every table's actor.

:class:`Server` creates tables (tokens from ``secrets``, stored only as SHA-256 hashes; the deal
seed from ``secrets``), loads a table by replaying its log (at start-up every unfinished table is
loaded, so its bots and timers resume after a crash; the replay is :mod:`stich.web.table.restore`) and
hands out a table's free seats.  The HTTP API's requests are :mod:`stich.web.tables_api`'s."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time

from sqlalchemy import select, update

from stich.bots import bot_names, default_bot_name
from stich.web import metrics, store
from stich.web.botpool import BotPool, bot_seed
from stich.web.logs import event
from stich.web.spec import BadRequest, TableSpec, clean_name
from stich.web.table import TableActor
from stich.web.table.actor import EVICT_AFTER
from stich.web.table.restore import restore
from stich.web.tokens import new_id, new_token, seat_url, token_hash

log = logging.getLogger("stich.web")


class Server:
    def __init__(self, db: str | None = None, bot_workers: int | None = None, redis: str | None = None):
        self.url = store.database_url(db)
        self.bot_workers = bot_workers
        self.redis_url = redis
        self.cluster = None   # with --redis: this process's part in a cluster (stich.web.cluster)
        self.tables: dict[str, TableActor] = {}
        self.loading: dict[str, asyncio.Future] = {}
        self.ready = False
        self.pool_factory = BotPool   # stich.web.app puts a RemoteBotPool here for --bot-queue redis
        # limits (stich.web.quotas, set from the environment by stich.web.app)
        self.evict_after = EVICT_AFTER    # seconds a finished table nobody watches stays in memory
        self.refusals_kept = 100          # refused actions remembered per seat of a table
        self.finish_hooks: list = []      # called with a table's id when its match ends (table_finished)

    # --- life cycle ---------------------------------------------------------------------------
    async def start(self) -> None:
        self.engine = store.make_engine(self.url)
        await store.migrate(self.engine)
        self.secret = await store.server_secret(self.engine)
        self.writer = store.Writer(self.engine)
        self.writer.start()
        # Every bot module is imported here, on the event loop's thread, before any request: the
        # registry loads once, and a worker thread warming up must never see it half-loaded.
        bot_names()
        self.pool = self.pool_factory(self.bot_workers)
        self.pool.warm()
        if self.redis_url:
            from stich.web.cluster import Cluster

            self.cluster = Cluster(self, self.redis_url)
            await self.cluster.start()
            # tables whose owner is gone are taken by the sweep, a fair share per live process
            rows = []
            await self.cluster.sweep()
        else:
            rows = await store.fetch_all(self.engine, select(store.tables.c.id).where(
                store.tables.c.finished.is_(False)))
        for row in rows:
            try:
                await self.table(row["id"])
            except Exception:  # noqa: BLE001 - one broken table must not keep the others down
                log.exception("table could not be restored", extra={"fields": {"table": row["id"]}})
        event(log, "ready", tables=len(rows), db=self.url.split("://")[0])
        metrics.watch(self)
        self.ready = True

    async def stop(self) -> None:
        self.ready = False
        owned = [t.id for t in self.tables.values() if t.owner and not t.finished]
        for t in list(self.tables.values()):
            t.stop()
        if self.cluster is not None:
            await self.cluster.handover(owned)
            await self.cluster.stop()
        await self.writer.stop()
        self.pool.close()
        await self.engine.dispose()

    def evict(self, table_id: str) -> None:
        """Drop a finished table, or a replica of another process's table, that nobody here watches."""
        actor = self.tables.get(table_id)
        if actor is not None and (actor.finished or not actor.owner) and not actor.conns:
            actor.stop()
            del self.tables[table_id]
            if self.cluster is not None:
                from stich.web.cluster import o_channel, t_channel

                channel = o_channel(table_id) if actor.owner else t_channel(table_id)
                asyncio.get_running_loop().create_task(self._unfollow(table_id, channel))

    async def _unfollow(self, table_id: str, channel: str) -> None:
        """Stop listening on an evicted table's channel, unless the table was opened here again in the
        meantime: its new actor subscribed already, and a late unsubscribe would leave it deaf."""
        if table_id not in self.tables and table_id not in self.loading:
            await self.cluster.unsubscribe(channel)

    # --- bots ---------------------------------------------------------------------------------
    def bot_seed(self, table_id: str, seat: int, seq: int) -> int:
        return bot_seed(self.secret, table_id, seat, seq)

    def takeover_bot(self, game_name: str) -> str:
        return default_bot_name(game_name)

    # --- tables -------------------------------------------------------------------------------
    def table_rows(self, spec: TableSpec, names: dict[int, str] | None = None, claimed: tuple[int, ...] = (),
                   hashes: dict[int, str] | None = None, players: dict[int, int] | None = None
                   ) -> tuple[str, dict[int, str], list]:
        """A new table's id, the tokens of its human seats and the rows that make it, to be committed in
        one transaction (:meth:`create`; a tournament's round commits its tables with its own rows).
        ``hashes``: seats whose token exists already (stored hashed; a tournament player's token).
        ``players``: seats reserved for players (seat -> player id), theirs alone from the start."""
        game = spec.game
        table_id = new_id()
        seed = secrets.randbelow(2**63) if spec.seed is None else spec.seed
        hashes = hashes or {}
        tokens = {i: new_token() for i, s in enumerate(spec.seats) if s.kind == "human" and i not in hashes}
        names = names or {}
        stmts = [store.tables.insert().values(
            id=table_id, game=game.name, variant=game.variant, options=store.dumps(dict(game.options)),
            settings=store.dumps(spec.settings), seed=seed, setup=store.dumps(spec.setup) if spec.setup else None,
            public=spec.public, finished=False, rated=spec.rated,
            created=time.time(), record=None)]
        for i, s in enumerate(spec.seats):
            digest = hashes.get(i) or (token_hash(tokens[i]) if i in tokens else None)
            stmts.append((store.seats, dict(
                table_id=table_id, seat=i, kind=s.kind, bot=s.bot, token_hash=digest, name=names.get(i) or s.name,
                claimed=i in claimed, player_id=(players or {}).get(i))))
        if self.cluster is not None:
            stmts.append(self.cluster.lease_row(table_id))   # the creating process owns the table first
        return table_id, tokens, stmts

    async def create(self, spec: TableSpec, names: dict[int, str] | None = None,
                     claimed: tuple[int, ...] = (), players: dict[int, int] | None = None
                     ) -> tuple[TableActor, dict[int, str]]:
        """A new table; returns its actor and the token of each human seat (shown once, stored hashed)."""
        table_id, tokens, stmts = self.table_rows(spec, names, claimed, players=players)
        await self.writer.write(*stmts)
        actor = await self.table(table_id)
        self.created(spec, table_id)
        return actor, tokens

    def created(self, spec: TableSpec, table_id: str) -> None:
        event(log, "table created", table=table_id, seq=0, game=spec.game.name, variant=spec.game.variant,
              seats=[s.kind if s.kind == "human" else f"bot:{s.bot}" for s in spec.seats], public=spec.public)

    def table_finished(self, table_id: str) -> None:
        """Called by a table's actor once its last action is committed: each of ``finish_hooks`` hears it
        (a tournament's next match, its results); a hook must not block."""
        for hook in self.finish_hooks:
            hook(table_id)

    async def table(self, table_id: str) -> TableActor | None:
        """The actor of a table, loaded (by replaying its log) on first use; None if there is none."""
        actor = self.tables.get(table_id)
        if actor is not None:
            return actor
        if not isinstance(table_id, str) or len(table_id) > 32:
            return None
        pending = self.loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut = asyncio.get_running_loop().create_future()
        self.loading[table_id] = fut
        try:
            if self.cluster is not None:
                actor = await self._open(table_id)
            else:
                actor = await self._load(table_id)
            if actor is not None:
                self.tables[table_id] = actor
                actor.start()
                actor.maybe_evict()  # a finished match loaded for a page or a record
            fut.set_result(actor)
            return actor
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            self.loading.pop(table_id, None)

    async def _open(self, table_id: str) -> TableActor | None:
        """With a cluster: load a table as its owner when its lease is free (or ours), else as a replica
        that follows the owner's channel (subscribed before the log is read: nothing falls between)."""
        from stich.web.cluster import o_channel, t_channel

        row = await store.fetch_one(self.engine, select(store.tables.c.finished).where(store.tables.c.id == table_id))
        if row is None:
            return None
        await self.cluster.subscribe(t_channel(table_id))
        owner = not row["finished"] and await self.cluster.acquire(table_id)
        if owner:
            await self.cluster.subscribe(o_channel(table_id))
            await self.cluster.unsubscribe(t_channel(table_id))
        return await self._load(table_id, owner)

    async def _load(self, table_id: str, owner: bool = True) -> TableActor | None:
        fields = await self.read(table_id)
        return None if fields is None else TableActor(self, table_id, **fields, owner=owner)

    async def read(self, table_id: str) -> dict | None:
        """A table's fields as its log rebuilds them (:func:`stich.web.table.restore.restore`), or None."""
        return await restore(self.engine, table_id, quiet=self.cluster is not None)

    # --- seats ---------------------------------------------------------------------------------
    async def join(self, table_id: str, body, private_ok: bool = False,
                   reserved_for: int | None = None) -> tuple[int, dict]:
        """Claim a free human seat of a public table (``private_ok``: of any table, for a club's
        member at the club's table; ``reserved_for``: the seat reserved for that player, a new link
        to it): (status, body)."""
        actor = await self.table(table_id)
        if actor is None:
            return 404, {"error": f"there is no table {table_id}"}
        if self.cluster is not None and not actor.owner:  # the owner alone hands out seats
            answer = await self.cluster.call(actor, "join", [body, private_ok, reserved_for])
            if not isinstance(answer, list):   # no answer in time (UNDELIVERED)
                return 503, {"error": "the table's server did not answer; try again"}
            return answer[0], answer[1]
        return await self.join_here(actor, body, private_ok, reserved_for)

    async def join_here(self, actor: TableActor, body, private_ok: bool = False,
                        reserved_for: int | None = None) -> tuple[int, dict]:
        table_id = actor.id
        if not actor.public and not private_ok and reserved_for is None:
            return 403, {"error": "this table is private: ask for an invite link"}
        if actor.finished:
            return 409, {"error": "the match is over"}
        if body is not None and not isinstance(body, dict):
            raise BadRequest("the request body must be a JSON object")
        name = (body or {}).get("name")
        name = clean_name(name) if name is not None else None
        if reserved_for is not None:   # the player's own seat, whoever opened it before
            free = [s for s in actor.seats if s.player_id == reserved_for]
            if not free:
                return 404, {"error": "no seat at this table is reserved for you"}
        else:
            free = [s for s in actor.seats if s.kind == "human" and not s.claimed]
        if not free:
            return 409, {"error": "every seat at this table is taken"}
        s = free[0]
        token = new_token()
        s.claimed = True  # claimed before the await: two joins never get the same seat
        old = (s.token_hash, s.name)
        s.token_hash, s.name = token_hash(token), name or s.name
        try:
            await self.writer.write(update(store.seats).where(
                store.seats.c.table_id == table_id, store.seats.c.seat == s.seat).values(
                token_hash=s.token_hash, name=s.name, claimed=True))
        except Exception:
            s.claimed, (s.token_hash, s.name) = False, old
            raise
        actor.broadcast_seats()
        return 201, {"seat": s.seat, "token": token, "url": seat_url(table_id, token)}


__all__ = ["Server"]
