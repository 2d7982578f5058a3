"""``stich serve``: uvicorn on a socket bound first, and one flushed line once connections are accepted."""

from __future__ import annotations

import asyncio
import signal
import socket
import sys


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


async def _serve(app, sock: socket.socket, host: str) -> None:
    import uvicorn

    config = uvicorn.Config(app, log_config=None, access_log=False, ws_max_size=1024 * 1024,
                            ws_ping_interval=20.0, ws_ping_timeout=20.0, lifespan="on", timeout_graceful_shutdown=3)
    server = uvicorn.Server(config)
    # uvicorn re-raises the signal that stopped it once it is done; a no-op handler makes that final
    # raise harmless, so SIGTERM ends the server with status 0 after a clean shutdown.
    signal.signal(signal.SIGTERM, lambda *_: None)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if task.done():
            try:
                await task
            except SystemExit:
                pass
            raise SystemExit(1)
        await asyncio.sleep(0.02)
    port = sock.getsockname()[1]
    print(f"stich serving on http://{url_host(host)}:{port}", flush=True)
    await task


class DatabaseError(RuntimeError):
    """The database cannot be opened or migrated (the message says why, in one line)."""


async def _check_database(db: str | None) -> None:
    from stich.web import store

    engine = store.make_engine(store.database_url(db))
    try:
        await store.migrate(engine)
    except Exception as exc:  # noqa: BLE001 - reported as one clear line, not a traceback
        raise DatabaseError(f"cannot open the database {db}: {type(exc).__name__}: {exc}") from None
    finally:
        await engine.dispose()


async def _check_redis(url: str) -> None:
    import redis.asyncio as aioredis

    try:
        client = aioredis.from_url(url)
        try:
            await client.ping()
        finally:
            await client.aclose()
    except Exception as exc:  # noqa: BLE001 - reported as one clear line, not a traceback
        raise DatabaseError(f"cannot reach Redis at {url}: {type(exc).__name__}: {exc}") from None


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, bot_workers: int | None = None,
          log_level: str = "info", redis: str | None = None) -> None:
    from stich.web import logs
    from stich.web.app import create_app

    logs.setup(log_level)
    asyncio.run(_check_database(db))  # before listening: a bad --db is one line, not a traceback
    if redis:
        asyncio.run(_check_redis(redis))
    app = create_app(db=db, bot_workers=bot_workers, redis=redis)
    sock = bind(host, port)
    try:
        asyncio.run(_serve(app, sock, host))
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        sys.stdout.flush()
