"""The tables' HTTP API (docs/web-protocol.md): create a table, quick play against bots, the lobby, take
a seat, a rematch, a table's facts and its record, uploaded records.  The work of each request is here;
the tables themselves are the server's (:class:`stich.web.server.Server`: creation, loading, seats)."""

from __future__ import annotations

import html
import json

from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from stich.web import records, store
from stich.web.catalogue import games_catalogue
from stich.web.rematch import rematch as rematch_table
from stich.web.spec import BadRequest, clean_name, make_game, parse_table
from stich.web.tokens import seat_url

#: a duplicate table's record holds the deals the round's other tables are still playing
WITHHELD = "the record of a duplicate table opens once every table of its round has finished"


# --- the work -------------------------------------------------------------------------------------
async def create_from_body(server, body, claim_first: bool = False) -> dict:
    """``POST /api/tables``; ``claim_first``: the first human seat is handed out already (a club
    member who starts a table sits there; the club's lobby offers only the others)."""
    spec = parse_table(body)
    first = next((i for i, s in enumerate(spec.seats) if s.kind == "human"), None)
    actor, tokens = await server.create(spec, claimed=(first,) if claim_first and first is not None else ())
    out = []
    for i, s in enumerate(spec.seats):
        if i in tokens:
            out.append({"seat": i, "kind": "human", "token": tokens[i], "url": seat_url(actor.id, tokens[i])})
        else:
            out.append({"seat": i, "kind": "bot", "bot": s.bot})
    return {"table": actor.id, "seats": out, "watch": f"/t/{actor.id}"}


async def quickplay(server, body) -> dict:
    """``POST /api/quickplay``: one person and bots in every other seat, started at once."""
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    known = {"game", "variant", "options", "name", "bot", "grace", "timer", "signals", "bot_delay"}
    extra = sorted(set(body) - known)
    if extra:
        raise BadRequest(f"unknown field(s): {', '.join(extra)}; fields are: {', '.join(sorted(known))}")
    game = make_game(body.get("game"), body.get("variant"), body.get("options"))
    bot = body.get("bot")
    if bot is None:
        bot = "bot"
    elif not isinstance(bot, str):
        raise BadRequest("'bot' must be a bot name such as 'pimc' or 'heuristic@0.5s'")
    else:
        bot = "bot:" + bot
    seats = ["human"] + [bot] * (game.num_players - 1)
    table_body = {k: v for k, v in body.items() if k in ("game", "variant", "options", "grace", "timer",
                                                          "signals", "bot_delay")}
    # one person with bots: nobody to wait for, the match starts at once (docs/web-protocol.md)
    spec = parse_table({**table_body, "seats": seats, "start": "now"})
    name = clean_name(body["name"]) if body.get("name") is not None else None
    actor, tokens = await server.create(spec, names={0: name} if name else None, claimed=(0,))
    return {"table": actor.id, "seat": 0, "token": tokens[0], "url": seat_url(actor.id, tokens[0])}


async def lobby(server) -> dict:
    """The public tables with a free seat: this process's own, or in a cluster every process's."""
    if server.cluster is not None:
        return await _lobby_from_db(server.engine)
    out = []
    for actor in list(server.tables.values()):
        if not actor.public or actor.finished:
            continue
        if not any(s.kind == "human" and not s.claimed for s in actor.seats):
            continue
        out.append({"table": actor.id, "game": actor.game.name, "variant": actor.game.variant,
                    "settings": dict(actor.settings),
                    "seats": [{"seat": s["seat"], "kind": s["kind"], "taken": s["taken"], "name": s["name"]}
                              for s in actor.seats_info()]})
    return {"tables": out}


async def _lobby_from_db(engine) -> dict:
    """The lobby of a cluster: every process's public tables with a free seat, from the database."""
    T, S = store.tables, store.seats
    free = select(S.c.table_id).where(S.c.kind == "human", S.c.claimed.is_(False))
    rows = await store.fetch_all(engine, select(T.c.id, T.c.game, T.c.variant, T.c.settings).where(
        T.c.public.is_(True), T.c.finished.is_(False), T.c.id.in_(free)).order_by(T.c.created))
    seats: dict[str, list] = {r["id"]: [] for r in rows}
    if rows:
        for s in await store.fetch_all(engine, select(S).where(S.c.table_id.in_(list(seats))).order_by(
                S.c.table_id, S.c.seat)):
            taken = s["kind"] == "bot" or bool(s["claimed"])
            seats[s["table_id"]].append({"seat": s["seat"], "kind": s["kind"], "taken": taken,
                                         "name": html.escape(s["name"]) if s["name"] else None})
    return {"tables": [{"table": r["id"], "game": r["game"], "variant": r["variant"],
                        "settings": json.loads(r["settings"]), "seats": seats[r["id"]]} for r in rows]}


# --- the routes -----------------------------------------------------------------------------------
def routes(read_json, error) -> list:
    """The routes; ``read_json`` and ``error`` are the app's (one body reader, one error shape)."""

    def server_of(request):
        return request.app.state.server

    def answers(work, status: int = 201, **read):
        """A handler that answers ``work(server, body)`` with ``status``, a bad request in the API's shape."""
        async def handler(request: Request):
            try:
                return JSONResponse(await work(server_of(request), await read_json(request, **read)),
                                    status_code=status)
            except BadRequest as exc:
                return error(exc.status, str(exc))
        return handler

    async def upload(server, body):
        return await records.upload(server.writer, body)

    async def lobby_page(request: Request):
        return JSONResponse(await lobby(server_of(request)))

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
        return JSONResponse(await records.record(server.engine, table_id),
                            headers={"Content-Disposition": f'attachment; filename="stich-{table_id}.json"'})

    async def get_record(request: Request):
        server = server_of(request)
        if await server.tournaments.withheld(request.path_params["record_id"]):
            return error(403, WITHHELD)
        rec = await records.record(server.engine, request.path_params["record_id"])
        if rec is None:
            return error(404, "no such record (a match's record exists once it is over)")
        return JSONResponse(rec)

    return [
        Route("/api/tables", answers(create_from_body), methods=["POST"]),
        Route("/api/quickplay", answers(quickplay), methods=["POST"]),
        Route("/api/lobby", lobby_page, methods=["GET"]),
        Route("/api/games", games, methods=["GET"]),
        Route("/api/tables/{table_id}", table_info, methods=["GET"]),
        Route("/api/tables/{table_id}/join", join, methods=["POST"]),
        Route("/api/tables/{table_id}/rematch", rematch, methods=["POST"]),
        Route("/api/tables/{table_id}/record", table_record, methods=["GET"]),
        Route("/api/records", answers(upload, limit=records.MAX_RECORD_BYTES), methods=["POST"]),
        Route("/api/records/{record_id}", get_record, methods=["GET"]),
    ]
