"""The Starlette application: the server, its routes (the JSON API of each part: :mod:`.tables_api`,
:mod:`.players`, :mod:`.tournaments`, ...; the probes, :mod:`.health`; the table socket,
:mod:`.sockets`), the facade the pages ask (:mod:`.facade`), and the life cycle around them.

``create_app(db=..., bot_workers=...)`` builds it; ``stich serve`` runs it under uvicorn.  The
browser pages come from ``stich.web.ui.routes()`` when that module is installed."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse
from starlette.routing import WebSocketRoute

from stich.web import (
    again,
    analyses,
    clubs_api,
    health,
    jsonin,
    metrics,
    players,
    retention,
    store,
    tables_api,
    tournaments,
)
from stich.web.collector import collect_regularly, freeze_what_lives_forever, full_collection_every
from stich.web.facade import Facade
from stich.web.guard import Guard
from stich.web.logs import event
from stich.web.quotas import Limits, Quotas
from stich.web.server import Server
from stich.web.sockets import table_socket
from stich.web.spec import BadRequest, bots_only_cap

log = logging.getLogger("stich.web")

MAX_BODY = 64 * 1024             # bytes of an API request body


async def database_away(request: Request, exc: Exception) -> JSONResponse:
    """Any request that met the database away (an outage, a failover, a full disk): 503 JSON with
    Retry-After, never a plain-text 500; anything else is a bug and stays a 500."""
    if not store.unavailable(exc):
        raise exc
    event(log, "database unavailable", logging.WARNING, path=request.url.path, error=type(exc).__name__)
    return JSONResponse({"error": "the database is unavailable for a moment: try again in a few seconds"},
                        status_code=503, headers={"Retry-After": str(store.RETRY_AFTER)})


def error(status: int, message: str) -> JSONResponse:
    if status == 400:
        metrics.error("bad_request")
    return JSONResponse({"error": message}, status_code=status)


async def read_json(request: Request, limit: int = MAX_BODY, empty_ok: bool = False):
    chunks, size = [], 0
    try:
        async for chunk in request.stream():  # stop reading at the limit: a huge body is never held
            size += len(chunk)
            if size > limit:
                raise BadRequest(f"the request body is too large (at most {limit} bytes)")
            chunks.append(chunk)
    except ClientDisconnect:   # gone, or closed by the body's deadline (stich.web.httpproto): nobody hears
        raise BadRequest("the request body did not arrive", status=408) from None
    body = b"".join(chunks)
    if not body.strip():
        if empty_ok:
            return None
        raise BadRequest("the request body must be JSON")
    # JSON only: another site's form can send text/plain, urlencoded or multipart bodies across
    # origins without asking, but not application/json (that needs a CORS preflight we never grant).
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise BadRequest(f"the request body must be sent as application/json, not {kind or 'without a type'}",
                         status=415)
    try:
        return jsonin.loads(body, "the request body")
    except jsonin.BadJSON as exc:
        raise BadRequest(str(exc)) from None


def create_app(db: str | None = None, bot_workers: int | None = None, redis: str | None = None,
               bot_queue: str = "local") -> Starlette:
    """``bot_queue="redis"`` (needs ``redis``): bots think in ``stich bot-worker`` processes fed through
    Redis, ``bot_workers`` then sizes only the fallback pool (docs/scaling.md, "Bot workers")."""
    server = Server(db, bot_workers, redis)
    tournaments.install(server)
    limits = Limits.from_env()
    server.evict_after = limits.finished_seconds
    server.refusals_kept = limits.refusals_kept
    if bot_queue == "redis":
        if not redis:
            raise ValueError("the Redis bot queue needs a Redis URL")
        from stich.web.botqueue import RemoteBotPool

        server.pool_factory = lambda workers: RemoteBotPool(redis, workers)
    elif bot_queue != "local":
        raise ValueError(f"bot_queue is 'local' or 'redis', not {bot_queue!r}")
    bots_only_cap()   # a bad STICH_BOTS_ONLY_* stops the start here, not the first table's creation

    @contextlib.asynccontextmanager
    async def lifespan(app):
        every = full_collection_every()
        freeze_what_lives_forever()
        await server.start()
        await server.tournaments.resume()   # tables that ended while no process heard it
        collector = asyncio.get_running_loop().create_task(collect_regularly(every))
        sweeper = asyncio.get_running_loop().create_task(retention.sweep(server, limits))
        try:
            yield
        finally:
            collector.cancel()
            sweeper.cancel()
            server.analyses.close()
            await server.stop()
            aclose = getattr(getattr(server, "pool", None), "aclose", None)
            if aclose is not None:   # the Redis bot queue's connections
                await aclose()

    routes = [WebSocketRoute("/ws/tables/{table_id}", table_socket), *health.routes()]
    routes.extend(tables_api.routes(read_json, error))  # tables, quick play, the lobby, seats, records
    routes.extend(players.routes(read_json, error))   # players, sign-in, profiles, leaderboards
    routes.extend(analyses.routes(read_json, error))  # a finished match's analysis (issue #38)

    routes.extend(tournaments.routes(read_json, error))
    routes.extend(clubs_api.routes(read_json, error))  # clubs: members, invites, presets, their tables
    routes.extend(again.routes(read_json, error))      # invite again: the people one played with
    try:
        from stich.web.ui import routes as ui_routes
    except ImportError:
        ui_routes = None
    if ui_routes is not None:
        routes.extend(ui_routes())
    from sqlalchemy.exc import SQLAlchemyError

    quotas = Quotas(limits)
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(Guard, quotas=quotas)],
                    exception_handlers={SQLAlchemyError: database_away, OSError: database_away})
    app.state.server = server
    app.state.analyses = server.analyses = analyses.Analyses(server)
    app.state.quotas = quotas
    app.state.stich = Facade(server)
    return app
