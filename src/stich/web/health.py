"""The probes and the metrics: ``/healthz`` (liveness), ``/readyz`` (readiness: may players be sent here
now) and ``/metrics`` (Prometheus, :mod:`stich.web.metrics`); docs/deploy.md says what each answers."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from stich.web import metrics


def unavailable(message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=503)


async def metrics_page(request: Request):
    body, content_type = metrics.exposition()
    return Response(body, media_type=content_type)


READY_DB_TIMEOUT = 3.0  # seconds a readiness probe waits for the database before it says no


async def healthz(request: Request):
    """Liveness: the event loop answers and, once started, the database writer still runs (without it
    no action can be committed again: only a restart helps).  A database outage is not a liveness
    failure (a restart would not cure it): ``/readyz`` reports it."""
    writer = getattr(request.app.state.server, "writer", None)
    task = getattr(writer, "task", None)
    if task is not None and task.done() and request.app.state.server.ready:
        return JSONResponse({"ok": False, "error": "the database writer has stopped"}, status_code=503)
    return JSONResponse({"ok": True})


async def readyz(request: Request):
    """Readiness: the tables are restored, the server is not shutting down, the database answers a
    query within READY_DB_TIMEOUT seconds, and in a cluster Redis answers too (a process that cannot
    reach it cannot serve the tables other processes own: see docs/scaling.md, "Faults")."""
    server = request.app.state.server
    if not server.ready:
        return unavailable("starting or stopping")
    try:
        from sqlalchemy import text

        async def ping():
            async with server.engine.connect() as conn:
                await conn.execute(text("SELECT 1"))

        await asyncio.wait_for(ping(), READY_DB_TIMEOUT)
    except Exception as exc:  # noqa: BLE001 - any failure means "do not send players here now"
        return unavailable(f"database unavailable: {type(exc).__name__}")
    if server.cluster is not None:
        problem = await server.cluster.problem(READY_DB_TIMEOUT)
        if problem is not None:
            return unavailable(problem)
    return JSONResponse({"ok": True, "tables": len(server.tables)})


def routes() -> list:
    return [
        Route("/healthz", healthz, methods=["GET"]),
        Route("/metrics", metrics_page, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
    ]
