"""``stich serve``: uvicorn on a socket bound first, and one flushed line once connections are accepted."""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
import threading
import time


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


async def _serve(app, sock: socket.socket, host: str, metrics_sock: socket.socket | None = None) -> None:
    import uvicorn

    from stich.web.httpproto import protocol_class

    limits = app.state.quotas.limits

    # No permessage-deflate: a table's frames are a few kB of JSON or HTML, while each compressing
    # socket keeps zlib state of about 300 kB (12 GB for 40,000 players) and a share of the CPU;
    # closed sockets are freed only by a full garbage collection (uvicorn's connection objects form
    # cycles), so with deflate on, a busy server's memory rose by ~45 MB a minute between them.
    config = uvicorn.Config(app, log_config=None, access_log=False, ws_max_size=1024 * 1024,
                            ws_ping_interval=20.0, ws_ping_timeout=20.0, ws_per_message_deflate=False,
                            lifespan="on", timeout_graceful_shutdown=3,
                            # the client's address for the limits: X-Forwarded-For only from these
                            proxy_headers=True, forwarded_allow_ips=limits.trusted_proxies,
                            # a request's head and body must arrive in time (slowloris)
                            http=protocol_class(limits.header_seconds, limits.body_seconds))
    server = uvicorn.Server(config)
    sockets = [sock]
    if metrics_sock is not None:   # one server, two listening sockets: the app tells them apart by port
        app.state.quotas.metrics_port = metrics_sock.getsockname()[1]
        sockets.append(metrics_sock)
    # uvicorn re-raises the signal that stopped it once it is done; a no-op handler makes that final
    # raise harmless, so SIGTERM ends the server with status 0 after a clean shutdown.
    signal.signal(signal.SIGTERM, lambda *_: None)
    task = asyncio.create_task(server.serve(sockets=sockets))
    while not server.started:
        if task.done():
            try:
                await task
            except SystemExit:
                pass
            raise SystemExit(1)
        await asyncio.sleep(0.02)
    port = sock.getsockname()[1]
    if metrics_sock is not None:
        m_host, m_port = metrics_sock.getsockname()[:2]
        print(f"stich metrics on http://{url_host(m_host)}:{m_port}/metrics", flush=True)
    print(f"stich serving on http://{url_host(host)}:{port}", flush=True)
    await task


def _loop_factory():
    """uvloop's event loop where it is installed (``uvicorn[standard]`` brings it on Linux and
    macOS), else asyncio's own.  Besides being faster, uvloop frees a closed connection's transport
    at once: asyncio's selector transport (Python 3.11) keeps a bound method of itself, so every
    closed socket waited for a full garbage collection, ~250 transports a minute at 200 tables."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


class DatabaseError(RuntimeError):
    """The database cannot be opened or migrated (the message says why, in one line)."""


def _one_line(exc: BaseException) -> str:
    """``Type: message`` of a failure, in one line: a driver's error without SQLAlchemy's wrapping
    (whose text adds a second "Background on this error" line)."""
    orig = getattr(exc, "orig", None)
    if isinstance(orig, BaseException):
        exc = orig
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


async def _threads_finished(before: set[threading.Thread], timeout: float = 5.0) -> None:
    """Keep the event loop open until the threads started since ``before`` have ended.

    When aiosqlite cannot open the file, its failed connect only *queues* the stop of its worker
    thread, with a future on this loop, and raises at once.  Were ``asyncio.run`` to close the loop
    now, the thread would find it closed when it hands back that future's result, and print
    "Exception in thread ... RuntimeError: Event loop is closed" with two tracebacks on stderr
    (about one start in twenty, depending on which thread runs first)."""
    deadline = time.monotonic() + timeout
    started = [t for t in threading.enumerate() if t not in before]
    while any(t.is_alive() for t in started) and time.monotonic() < deadline:
        await asyncio.sleep(0.005)
    await asyncio.sleep(0)  # run the callbacks those threads scheduled on this loop


async def _check_database(db: str | None) -> None:
    from stich.web import store

    before = set(threading.enumerate())
    engine = store.make_engine(store.database_url(db))
    try:
        await store.migrate(engine)
    except Exception as exc:  # noqa: BLE001 - reported as one clear line, not a traceback
        raise DatabaseError(f"cannot open the database {db}: {_one_line(exc)}") from None
    finally:
        await engine.dispose()
        await _threads_finished(before)


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


def metrics_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:9100`` for IPv6) of ``--metrics-address``."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--metrics-address is HOST:PORT, such as 127.0.0.1:9100, not {text!r}")
    return host.strip("[]"), int(port)


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, bot_workers: int | None = None,
          log_level: str = "info", redis: str | None = None, bot_queue: str = "local",
          metrics: tuple[str, int] | None = None) -> None:
    from stich.web import logs
    from stich.web.app import create_app

    logs.setup(log_level)
    asyncio.run(_check_database(db))  # before listening: a bad --db is one line, not a traceback
    if redis:
        asyncio.run(_check_redis(redis))
    app = create_app(db=db, bot_workers=bot_workers, redis=redis, bot_queue=bot_queue)
    sock = bind(host, port)
    metrics_sock = None
    try:
        metrics_sock = bind(*metrics) if metrics else None
        with asyncio.Runner(loop_factory=_loop_factory()) as runner:
            runner.run(_serve(app, sock, host, metrics_sock))
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        if metrics_sock is not None:
            metrics_sock.close()
        sys.stdout.flush()
