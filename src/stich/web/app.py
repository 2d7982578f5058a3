"""The Starlette application: the JSON API, health checks and the facade, and the routes to the table
socket (:mod:`stich.web.sockets`).

``create_app(db=..., bot_workers=...)`` builds it; ``stich serve`` runs it under uvicorn.  The
browser pages come from ``stich.web.ui.routes()`` when that module is installed."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute

from stich.web import again, analyses, clubs_api, jsonin, metrics, players, ratings, retention, store, tournaments
from stich.web.catalogue import games_catalogue
from stich.web.guard import Guard
from stich.web.logs import event
from stich.web.quotas import Limits, Quotas
from stich.web.rematch import rematch as rematch_table
from stich.web.server import Server
from stich.web.settings import env_seconds
from stich.web.sockets import table_socket
from stich.web.spec import BadRequest, bots_only_cap
from stich.web.tourney import people as tourney_people
from stich.web.tourney import register as tourney_register

log = logging.getLogger("stich.web")

MAX_BODY = 64 * 1024             # bytes of an API request body
MAX_RECORD_BODY = 4 * 1024 * 1024


class Facade:
    """What server-side pages may ask (``request.app.state.stich``): public facts and finished records."""

    def __init__(self, server: Server):
        self._server = server

    async def record(self, table_id: str) -> dict | None:
        """The record of a finished match or an uploaded record; None while a match runs or if unknown
        (or while a duplicate round's other tables still play its deals)."""
        if await self._server.tournaments.withheld(table_id):
            return None
        return await self._server.record(table_id)

    async def table_meta(self, table_id: str) -> dict | None:
        """Game, variant, options, settings, seats (names escaped), finished, seq; None if unknown."""
        actor = await self._server.table(table_id)
        return None if actor is None else actor.meta()

    async def lobby(self) -> dict:
        return await self._server.lobby()

    def games(self) -> dict:
        return games_catalogue()

    # players (stich.web.players): a profile's page, a leaderboard, who the reader is
    async def player_page(self, name: str) -> dict | None:
        return await players.page_data(self._server.engine, name)

    async def leaderboard(self, key: str) -> dict:
        return await players.leaderboard_data(self._server.engine, key)

    async def people(self, player_id: int) -> list[dict]:
        """The players someone played with lately (``GET /api/me/people``)."""
        return await ratings.people(self._server.engine, player_id)

    async def analysis(self, table_id: str, seat: int) -> dict | None:
        """The stored analysis of ``seat`` in a finished match (``stich.web.analyses``), or None."""
        return await self._server.analyses.stored(table_id, seat)

    async def tournament(self, tid: str, token: str | None = None, director: str | None = None,
                         player: dict | None = None) -> dict | None:
        """A tournament as its page shows it (``stich.web.tournaments.page_data``; ``player``, the signed-in
        reader, takes the entry of ``token``); None if unknown."""
        return await tournaments.page_data(self._server, tid, token, director, player)

    async def admin_club(self, club_id: str, player: dict | None) -> dict | None:
        """``{"club", "name"}`` of a club ``player`` is an admin of, else None (the new-tournament form's club)."""
        try:
            club_id = await tourney_people.check_club_admin(self._server.engine, club_id, player)
        except BadRequest:
            return None
        club = await clubs_api.clubs.club(self._server.engine, club_id)
        return None if club is None else {"club": club_id, "name": club["name"]}

    async def registration(self, tid: str) -> dict | None:
        """Whether a tournament takes registrations by link (``stich.web.tourney.register.state``)."""
        return await tourney_register.state(self._server.engine, tid)

    async def join_tournament(self, tid: str, body, player: dict | None) -> dict:
        """Register by link (``POST /api/tournaments/{ID}/players``'s code): ``register.Refused`` as there."""
        return await tourney_register.join(self._server.engine, tid, body, player)

    async def player_tournaments(self, player_id: int) -> list[dict]:
        """The tournaments a player's entries are in (``stich.web.tourney.people.of_player``)."""
        return await tourney_people.of_player(self._server.engine, player_id)

    # the director's forms (stich.web.ui.tourney_form): the API's own code paths, BadRequest as there
    async def create_tournament(self, body, club: str | None = None, player: dict | None = None) -> dict:
        """``club``: a club's tournament, refused (BadRequest 401/403) unless ``player`` is its admin."""
        if club is not None:
            club = await tourney_people.check_club_admin(self._server.engine, club, player)
        return await self._server.tournaments.create(body, club)

    async def draw_round(self, tid: str, body) -> tuple[int, dict]:
        return await self._server.tournaments.next_round(tid, body)

    async def enter_result(self, tid: str, table_id: str, body) -> tuple[int, dict]:
        return await self._server.tournaments.enter(tid, table_id, body)

    # clubs (stich.web.clubs): a member's view of a club, and one's clubs
    async def club_page(self, club_id: str, player_id: int, key: str) -> dict | None:
        """A club as its member sees it (None for anyone else), with its leaderboard of ``key``."""
        return await clubs_api.page_data(self._server.engine, club_id, player_id, key)

    async def invitations(self, player_id: int) -> list[dict]:
        """Tables with a seat reserved for the player (``GET /api/me/invitations``)."""
        return await again.invitations(self._server.engine, player_id)

    async def clubs_of(self, player_id: int) -> list[dict]:
        return await clubs_api.clubs_of(self._server.engine, player_id)

    async def me(self, conn) -> dict | None:
        """The player a page's request comes from (its cookie or bearer header), or None."""
        try:
            return (await players.identify(conn, self._server.engine))[0]
        except players.BadCredential:
            return None


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


def server_of(request) -> Server:
    return request.app.state.server


async def create_table(request: Request):
    try:
        return JSONResponse(await server_of(request).create_from_body(await read_json(request)), status_code=201)
    except BadRequest as exc:
        return error(exc.status, str(exc))


async def quickplay(request: Request):
    try:
        return JSONResponse(await server_of(request).quickplay(await read_json(request)), status_code=201)
    except BadRequest as exc:
        return error(exc.status, str(exc))


async def lobby(request: Request):
    return JSONResponse(await server_of(request).lobby())


async def join(request: Request):
    try:
        status, body = await server_of(request).join(request.path_params["table_id"],
                                                    await read_json(request, empty_ok=True))
    except BadRequest as exc:
        return error(exc.status, str(exc))
    return JSONResponse(body, status_code=status)


async def rematch(request: Request):
    try:
        status, body = await rematch_table(server_of(request), request.path_params["table_id"],
                                           await read_json(request))
    except BadRequest as exc:
        return error(exc.status, str(exc))
    return JSONResponse(body, status_code=status)


async def games(request: Request):
    return JSONResponse(games_catalogue())


async def table_info(request: Request):
    actor = await server_of(request).table(request.path_params["table_id"])
    if actor is None:
        return error(404, f"there is no table {request.path_params['table_id']}")
    return JSONResponse(actor.meta())


#: a duplicate table's record holds the deals the round's other tables are still playing
WITHHELD = "the record of a duplicate table opens once every table of its round has finished"


async def table_record(request: Request):
    table_id = request.path_params["table_id"]
    server = server_of(request)
    actor = await server.table(table_id)
    if actor is None:
        return error(404, f"there is no table {table_id}")
    if not actor.finished:
        return error(403, "the record is available once the match is over")
    if await server.tournaments.withheld(table_id):
        return error(403, WITHHELD)
    return JSONResponse(await server.record(table_id),
                        headers={"Content-Disposition": f'attachment; filename="stich-{table_id}.json"'})


async def upload_record(request: Request):
    try:
        return JSONResponse(await server_of(request).upload(await read_json(request, MAX_RECORD_BODY)),
                            status_code=201)
    except BadRequest as exc:
        return error(exc.status, str(exc))


async def get_record(request: Request):
    if await server_of(request).tournaments.withheld(request.path_params["record_id"]):
        return error(403, WITHHELD)
    rec = await server_of(request).record(request.path_params["record_id"])
    if rec is None:
        return error(404, "no such record (a match's record exists once it is over)")
    return JSONResponse(rec)


async def metrics_page(request: Request):
    body, content_type = metrics.exposition()
    return Response(body, media_type=content_type)


READY_DB_TIMEOUT = 3.0  # seconds a readiness probe waits for the database before it says no


async def healthz(request: Request):
    """Liveness: the event loop answers and, once started, the database writer still runs (without it
    no action can be committed again: only a restart helps).  A database outage is not a liveness
    failure (a restart would not cure it): ``/readyz`` reports it."""
    writer = getattr(server_of(request), "writer", None)
    task = getattr(writer, "task", None)
    if task is not None and task.done() and server_of(request).ready:
        return JSONResponse({"ok": False, "error": "the database writer has stopped"}, status_code=503)
    return JSONResponse({"ok": True})


async def readyz(request: Request):
    """Readiness: the tables are restored, the server is not shutting down, the database answers a
    query within READY_DB_TIMEOUT seconds, and in a cluster Redis answers too (a process that cannot
    reach it cannot serve the tables other processes own: see docs/scaling.md, "Faults")."""
    server = server_of(request)
    if not server.ready:
        return error(503, "starting or stopping")
    try:
        from sqlalchemy import text

        async def ping():
            async with server.engine.connect() as conn:
                await conn.execute(text("SELECT 1"))

        await asyncio.wait_for(ping(), READY_DB_TIMEOUT)
    except Exception as exc:  # noqa: BLE001 - any failure means "do not send players here now"
        return error(503, f"database unavailable: {type(exc).__name__}")
    if server.cluster is not None:
        problem = await server.cluster.problem(READY_DB_TIMEOUT)
        if problem is not None:
            return error(503, problem)
    return JSONResponse({"ok": True, "tables": len(server.tables)})


def _freeze_what_lives_forever() -> None:
    """Move the objects made so far (modules, classes, the games' and bots' tables) out of the
    garbage collector's sight before any table exists.  A full collection walks every tracked object;
    with ~100,000 that live for the whole process among those of 200 tables, its pause was the p99 of
    an action's latency.  Objects made later are collected as before."""
    import stich.bots

    stich.bots.bot_names()   # import every bot module now, so that their objects are frozen too
    gc.collect()
    gc.freeze()
    # A young collection every 10,000 net allocations instead of 700: a server allocates ~8,000 a
    # second at 200 tables, most of which die young; fewer young collections promote fewer of them.
    # The full collections are not left to the allocation counter (see _collect_regularly): the
    # third threshold makes an automatic one rare.
    gc.set_threshold(10_000, 10, 100)


def full_collection_every() -> float:
    """Seconds between the server's own full garbage collections (``STICH_GC_SECONDS``, default 60)."""
    return env_seconds("STICH_GC_SECONDS", 60, 0.1, 3600)


async def _collect_regularly(every: float) -> None:
    """A full garbage collection once a minute, on the event loop's schedule.

    A closed socket leaves reference cycles that only a full collection frees (the websockets
    library's protocol and its parser generator, with the connection's buffers; uvicorn's
    HTTP protocol and parser).  Its connection lived for minutes, so the cycle sits in the oldest
    generation.  Left to the allocation counter, a full collection came about every ten minutes at
    200 tables: by then ~3,000 closed connections' garbage had raised the RSS by ~19 MiB a minute, and
    walking it paused the server 1-2 s (that minute's p99 1.2-1.3 s).  Once a minute, each
    collection walks only the live objects and one minute's garbage (0.17-0.36 s at 200 tables, fewer
    actions delayed than the p99 counts) and memory stays flat."""
    while True:
        await asyncio.sleep(every)
        started = time.perf_counter()
        found = gc.collect()
        took = time.perf_counter() - started
        metrics.GC_FULL.observe(took)
        event(log, "full garbage collection", seconds=round(took, 3), freed=found)


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
        _freeze_what_lives_forever()
        await server.start()
        await server.tournaments.resume()   # tables that ended while no process heard it
        collector = asyncio.get_running_loop().create_task(_collect_regularly(every))
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

    routes = [
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/quickplay", quickplay, methods=["POST"]),
        Route("/api/lobby", lobby, methods=["GET"]),
        Route("/api/games", games, methods=["GET"]),
        Route("/api/tables/{table_id}", table_info, methods=["GET"]),
        Route("/api/tables/{table_id}/join", join, methods=["POST"]),
        Route("/api/tables/{table_id}/rematch", rematch, methods=["POST"]),
        Route("/api/tables/{table_id}/record", table_record, methods=["GET"]),
        Route("/api/records", upload_record, methods=["POST"]),
        Route("/api/records/{record_id}", get_record, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/metrics", metrics_page, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
    ]
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
