"""The table server's storage: the schema, the database URL, migrations, group commit and queries.

Every table's actions are rows of ``actions`` (``(table_id, seq)`` is the key): the log **is** the
match record, so crash recovery replays it.  Writes go through one :class:`Writer` task that
commits whatever has queued up in one transaction (group commit): a write returns only once its
transaction is committed, which is what lets the table actor announce an action only after it is
durable.  SQLite runs in WAL mode with ``synchronous=FULL``; Postgres through asyncpg.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from pathlib import Path

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    event,
    select,
    text,
)
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from stich.web import metrics

log = logging.getLogger("stich.web")

metadata = MetaData()

#: server-wide values, e.g. the secret that bot seeds derive from
meta = Table("meta", metadata, Column("key", String(64), primary_key=True), Column("value", Text, nullable=False))

tables = Table(
    "tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("variant", String(64), nullable=False),
    Column("options", Text, nullable=False),     # JSON: the engine's resolved options
    Column("settings", Text, nullable=False),    # JSON: grace, timer, signals, public, bot_delay
    Column("seed", BigInteger, nullable=False),  # the deal seed: secret until the match is over
    Column("setup", Text),                       # JSON: an explicit first deal (test hook only)
    Column("public", Boolean, nullable=False, default=False),
    Column("finished", Boolean, nullable=False, default=False),
    Column("created", Float, nullable=False),
    Column("record", Text),                      # JSON: the full record, written with the last action
    Column("started", Boolean, nullable=False, default=False),  # "start now with bots" was chosen
    Column("rated", Boolean, nullable=False, default=False),    # changes ratings (web/ratings.py)
)

seats = Table(
    "seats", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # human | bot
    Column("bot", String(64)),                   # bot seats: NAME or NAME@BUDGET
    Column("token_hash", String(64)),            # human seats: sha256 of the capability token
    Column("name", String(64)),
    Column("claimed", Boolean, nullable=False, default=False),
    Column("arrived", Boolean, nullable=False, default=False),  # its person has been connected once
    Column("player_id", Integer),                # the player whose first connection took it (web/identity.py)
)

actions = Table(
    "actions", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),     # 1, 2, ...: the table's seq after this action
    Column("seat", Integer, nullable=False),
    Column("action", String(200), nullable=False),
    Column("origin", String(16), nullable=False),  # human | bot | takeover | timer
    Column("client_id", String(128)),
    Column("at", Float, nullable=False),
)

#: the answer given to each client action id, so that a resent id gets the same answer
answers = Table(
    "answers", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("client_id", String(128), primary_key=True),
    Column("seq", Integer),       # acknowledged: the seq the action got
    Column("error", Text),        # refused: the message
)

chat = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(32), nullable=False, index=True),
    Column("seat", Integer),
    Column("name", String(64)),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
)

#: uploaded records (``POST /api/records``), watched on their replay page
records = Table(
    "records", metadata,
    Column("id", String(32), primary_key=True),
    Column("record", Text, nullable=False),
    Column("at", Float, nullable=False),
)

#: the rematch of a finished table (its key is the old table: one rematch per table, decided by the database)
rematches = Table(
    "rematches", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("next_id", String(32), nullable=False),
    Column("at", Float, nullable=False),
)

#: table ownership with several processes (``--redis``): the owner's node id and when its lease ends
leases = Table(
    "leases", metadata,
    Column("table_id", String(32), primary_key=True),
    Column("owner", String(64), nullable=False),
    Column("expires", Float, nullable=False),
)

MIGRATIONS = Path(__file__).with_name("migrations")


class LeaseLost(RuntimeError):
    """A guarded write found that this process no longer owns the table: nothing was committed."""


class Guard:
    """A statement that must change exactly one row, or the whole transaction is rolled back
    (:class:`LeaseLost`): an owner's action commits only while it still holds the table's lease."""

    def __init__(self, stmt, what: str, key: str = ""):
        self.stmt = stmt
        self.what = what
        self.key = key   # guards run first in a transaction, in key order: lease rows are always
        # locked in one order (table id), so a group commit never deadlocks with a renewal


def database_url(db: str | None) -> str:
    """The SQLAlchemy URL of ``--db``: a file path (SQLite, the default ``./stich.sqlite3``) or a
    ``postgresql://`` URL (asyncpg)."""
    db = db or "stich.sqlite3"
    for prefix in ("postgresql+asyncpg://", "postgresql://", "postgres://"):
        if db.startswith(prefix):
            return "postgresql+asyncpg://" + db[len(prefix):]
    if db.startswith("sqlite+aiosqlite://"):
        return db
    if "://" in db:
        raise ValueError(f"--db takes a file path or a postgresql:// URL, not {db!r}")
    return "sqlite+aiosqlite:///" + os.path.abspath(db)


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    """Every SQLite connection: WAL, and a commit is on disk when it returns."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()


def make_engine(url: str) -> AsyncEngine:
    # hide_parameters: a failed statement's error (logged) must not quote its values, which can be
    # a deal seed, a token's hash or a finished record with every hand
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 30}, hide_parameters=True)

        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    # pool_pre_ping: after a Postgres outage (or failover) the pooled connections are dead; without a
    # ping each one failed the first commit or query that took it, up to a minute after the outage
    return create_async_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True, hide_parameters=True)


def _upgrade(sync_conn) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = sync_conn
    command.upgrade(cfg, "head")


#: the Postgres advisory lock the migrations run under (an arbitrary key, the same in every process)
MIGRATION_LOCK = 0x57_1C_4E


async def migrate(engine: AsyncEngine) -> None:
    """Bring the schema to the newest Alembic revision (run at every start-up).

    On Postgres under a transaction-level advisory lock: processes started together on an empty
    database raced to create the same tables and all but one died (UniqueViolationError); now the
    first migrates and the others wait for its commit and find the schema made.  Alembic sees the
    transaction the lock opened and runs inside it; the commit releases the lock.  (SQLite serves
    one process: its own file lock is enough.)"""
    async with engine.connect() as conn:
        if conn.dialect.name == "postgresql":
            await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        await conn.run_sync(_upgrade)
        await conn.commit()


class Writer:
    """One task that commits queued writes, many per transaction (group commit).

    ``await writer.write(stmt, ...)`` returns once the statements are committed, or raises.  While
    one transaction is being committed, the writes that arrive queue up and go together in the
    next: one fsync for many actions when the server is busy, no waiting when it is not.

    On SQLite a transaction is committed by one call into a thread of its own with a plain
    ``sqlite3`` connection: through aiosqlite every statement (begin, each insert, commit) is a
    round trip between the event loop and the driver's thread, each waiting for the other's turn
    at the GIL, which made a one-action commit take ~8 ms of a busy server's time and the writer
    busy three quarters of the time at 200 actions/s.  On Postgres asyncpg is asynchronous
    itself and the same transaction runs on the async engine."""

    MAX_BATCH = 256

    def __init__(self, engine: AsyncEngine):
        self.engine = engine
        self.queue: asyncio.Queue = asyncio.Queue()
        self.task: asyncio.Task | None = None
        self.sync_engine = _sync_sqlite_engine(engine)
        self.thread = None
        if self.sync_engine is not None:
            from concurrent.futures import ThreadPoolExecutor

            self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stich-writer")

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run(), name="stich-writer")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except asyncio.CancelledError:
                pass
        if self.thread is not None:
            self.thread.shutdown(wait=True)
            self.sync_engine.dispose()

    async def write(self, *stmts) -> None:
        """Commit ``stmts``: SQLAlchemy statements, ``(table, row)`` pairs meaning "insert this row", or
        functions called with the transaction's synchronous connection."""
        fut = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((stmts, fut))
        await asyncio.shield(fut)

    async def _commit(self, batch) -> None:
        started = time.perf_counter()
        if self.sync_engine is not None:
            await asyncio.get_running_loop().run_in_executor(self.thread, self._commit_sync, batch)
        else:
            async with self.engine.begin() as conn:
                await conn.run_sync(_write_batch, batch)
        metrics.committed(time.perf_counter() - started, len(batch))

    def _commit_sync(self, batch) -> None:
        with self.sync_engine.begin() as conn:
            _write_batch(conn, batch)

    async def _run(self) -> None:
        while True:
            batch = [await self.queue.get()]
            while not self.queue.empty() and len(batch) < self.MAX_BATCH:
                batch.append(self.queue.get_nowait())
            try:
                await self._commit(batch)
                results = [None] * len(batch)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - one bad write must not sink the others: retry one by one
                results = []
                for item in batch:
                    try:
                        await self._commit([item])
                        results.append(None)
                    except Exception as exc:  # noqa: BLE001
                        log.error("write failed", extra={"fields": {"error": repr(exc)}})
                        metrics.error("write_failed")
                        results.append(exc)
            for (_stmts, fut), exc in zip(batch, results, strict=True):
                if fut.done():
                    continue
                if exc is None:
                    fut.set_result(None)
                else:
                    fut.set_exception(exc)


def _write_batch(conn, batch) -> None:
    """One transaction's statements on a synchronous connection: the lease guards first (in table
    order, so that a group commit never deadlocks with a renewal), then every statement in order,
    rows for the same table in one executemany (a busy server commits hundreds per transaction)."""
    rows: dict = {}
    guards = sorted((s for stmts, _f in batch for s in stmts if isinstance(s, Guard)), key=lambda g: g.key)
    for guard in guards:
        if conn.execute(guard.stmt).rowcount != 1:
            raise LeaseLost(guard.what)

    def flush():
        for table, params in rows.items():
            conn.execute(table.insert(), params)
        rows.clear()

    for stmts, _fut in batch:
        for stmt in stmts:
            if isinstance(stmt, tuple):
                rows.setdefault(stmt[0], []).append(stmt[1])
            elif isinstance(stmt, Guard):
                continue
            elif callable(stmt):   # work that reads in the same transaction (a match's ratings)
                flush()
                stmt(conn)
            else:
                flush()  # keep the order of statements and rows
                conn.execute(stmt)
    flush()


def write_rows(conn, stmts) -> None:
    """``stmts`` as :meth:`Writer.write` takes them, in a transaction the caller holds (a synchronous
    connection: ``await conn.run_sync(write_rows, stmts)``), for a write that must fail as a whole on a
    conflict and tell the caller so (the rematch's link), not be retried by the writer."""
    _write_batch(conn, [(stmts, None)])


def _sync_sqlite_engine(engine: AsyncEngine):
    """A synchronous engine on the same SQLite file (WAL, synchronous=FULL), or None for Postgres."""
    url = engine.url
    if not url.drivername.startswith("sqlite"):
        return None
    from sqlalchemy import create_engine

    sync = create_engine(url.set(drivername="sqlite"), connect_args={"timeout": 30, "check_same_thread": False},
                         hide_parameters=True)
    event.listen(sync, "connect", _sqlite_pragmas)
    return sync


async def fetch_all(engine: AsyncEngine, stmt) -> list:
    async with engine.connect() as conn:
        return list((await conn.execute(stmt)).mappings())


async def fetch_one(engine: AsyncEngine, stmt):
    rows = await fetch_all(engine, stmt)
    return rows[0] if rows else None


async def server_secret(engine: AsyncEngine) -> bytes:
    """The server's secret (made once, kept in the database): bot seeds derive from it one-way."""
    import secrets

    row = await fetch_one(engine, select(meta.c.value).where(meta.c.key == "secret"))
    if row is None:
        value = secrets.token_hex(32)
        async with engine.begin() as conn:
            await conn.execute(meta.insert().values(key="secret", value=value))
        row = await fetch_one(engine, select(meta.c.value).where(meta.c.key == "secret"))
    return bytes.fromhex(row["value"])


def unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot be reached or written just now (an outage, a failover,
    a full disk), as opposed to a bug: the client is told to try again (HTTP 503 with Retry-After, an
    ``error`` frame with ``retry: true``, a socket closed with 1013)."""
    from sqlalchemy import exc as sa

    if isinstance(exc, (OSError, TimeoutError, sa.TimeoutError, sa.OperationalError, sa.InterfaceError)):
        return True
    if isinstance(exc, sa.DBAPIError):
        if exc.connection_invalidated:
            return True
        # Postgres's classes: 08 connection exception, 53 insufficient resources (disk full),
        # 57 operator intervention (shutting down, cannot connect now)
        state = str(getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None) or "")
        return state[:2] in ("08", "53", "57")
    return False


#: seconds a client is asked to wait when the database is away (``Retry-After``)
RETRY_AFTER = 5


def dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
