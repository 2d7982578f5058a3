"""The tournaments' HTTP API (docs/tournaments.md): create one, draw its rounds, read it, type a result.

- ``POST /api/tournaments`` -> ``201 {"tournament", "director_token", "players": [{"name", "token", "url"}]}``
  (``"club": CLUB_ID``: a club's tournament, asked by one of its admins, signed in; 403 for anyone else)
- ``POST /api/tournaments/{ID}/rounds`` ``{"token": D}`` (and ``"paper": [table numbers]``) -> ``201
  {"round", "tables": [{"table", "players"}]}``; 409 while a round is played or when all are drawn
- ``GET /api/tournaments/{ID}`` -> rounds, tables, results, standings, finished, corrections
- ``POST /api/tournaments/{ID}/tables/{TABLE}/result`` ``{"token": D, "scores": [...]}``: a paper table's
  score sheet, or the director's correction of any finished table (logged: who, when, old, new)
- ``GET /api/tournaments/{ID}/standings.csv``: the ranking as CSV
- ``POST /api/tournaments/{ID}/players`` ``{"name": N}`` (signed in: ``{}``) -> ``201 {"name", "token", "url"}``:
  registration by link, until round 1 is drawn (``stich.web.tourney.register``)
- ``POST /api/tournaments/{ID}/registration`` ``{"token": D, "open": false}`` (``true``: again) -> ``200
  {"tournament", "registration"}``: the director closes registration by link before round 1

The work is :class:`stich.web.tourney.service.Tournaments` (``server.tournaments``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from stich.web.players import BadCredential, identify
from stich.web.spec import BadRequest
from stich.web.tourney import people, register, view
from stich.web.tourney.keys import check_token, player_token
from stich.web.tourney.service import Tournaments


def install(server) -> Tournaments:
    """Give ``server`` its tournaments (they hear every table's end through the server's finish hooks)."""
    server.tournaments = Tournaments(server)
    return server.tournaments


async def page_data(server, tid: str, token: str | None, director: str | None = None,
                    player: dict | None = None) -> dict | None:
    """A tournament as its page shows it: the API's document, plus ``mine`` (the player whose token the
    page was opened with: name, the online table of theirs still being played, if any, and whether the
    entry is bound to ``player``, the signed-in reader: ``tourney.people.bind``) and ``director`` (the
    page opened with the director's token, ``?director=``: what only the director sees)."""
    tours: Tournaments = server.tournaments
    t = await tours.load(tid)
    if t is None:
        return None
    doc = view.document(t, await tours.corrections(t.id))
    doc["mine"] = None
    who = next((p for p in t.players if check_token(p["token_hash"], token)), None) if token else None
    if who is not None:
        number = t.players.index(who)
        playing = [r for r in t.rows if number in r["seats"] and not r["paper"] and not r["table_finished"]]
        bound = player is not None and await people.bind(server.engine, t.id, number, player["id"])
        doc["mine"] = {"name": who["name"], "table": playing[0]["table_id"] if playing else None,
                       "player": player["name"] if bound else None}
    doc["director"] = None if director is None else director_data(t, director)
    return doc


def director_data(t, director: str) -> dict:
    """What the director's page adds: the key, each person's link (derived again from the key; None for a
    tournament whose tokens were not derived from it), the sides of the seats (one result per side),
    whether the next round can be drawn, whether people register by link (``registration``, until round 1) and
    whether the director has closed that (``closed``).  ``{"refused": True}`` for a key that is not the
    director's."""
    if not check_token(t.row["director_hash"], director):
        return {"refused": True}
    links = []
    for number, p in enumerate(t.players):
        if p["kind"] != "human":
            continue
        token = player_token(director, t.id, number)
        ok = check_token(p["token_hash"], token)
        # a person who registered by link holds a random token of their own (tourney.register)
        links.append({"name": p["name"], "url": f"/tournaments/{t.id}?token={token}" if ok else None,
                      "joined": not ok and bool(t.row["registration"])})
    drawn = t.row["drawn"]
    n = t.game.num_players
    return {"key": director, "links": links, "sides": t.sides, "tables": len(t.players) // n,
            "can_draw": drawn < t.fmt["rounds"] and (drawn == 0 or t.complete(drawn)),
            "registration": bool(t.row["registration"]) and drawn == 0, "registered": len(t.players),
            "closed": bool(t.row["registration_closed"]),
            "short": (-len(t.players)) % n if t.players else n}


def routes(read_json, error) -> list:
    """The routes; ``read_json`` and ``error`` are the app's (one body reader, one error shape)."""

    def service(request) -> Tournaments:
        return request.app.state.server.tournaments

    async def create(request: Request):
        try:
            body = await read_json(request)
            club = None
            if isinstance(body, dict) and "club" in body:   # a club's tournament: its admin asks
                body = dict(body)
                try:
                    player, _session = await identify(request, request.app.state.server.engine)
                except BadCredential as exc:
                    return error(401, str(exc))
                club = await people.check_club_admin(request.app.state.server.engine, body.pop("club"), player)
            return JSONResponse(await service(request).create(body, club), status_code=201)
        except BadRequest as exc:
            return error(exc.status, str(exc))

    async def rounds(request: Request):
        try:
            status, body = await service(request).next_round(request.path_params["tid"], await read_json(request))
        except BadRequest as exc:
            return error(exc.status, str(exc))
        return JSONResponse(body, status_code=status)

    async def show(request: Request):
        tours = service(request)
        t = await tours.load(request.path_params["tid"])
        if t is None:
            return error(404, f"there is no tournament {request.path_params['tid']}")
        return JSONResponse(view.document(t, await tours.corrections(t.id)))

    async def result(request: Request):
        try:
            status, body = await service(request).enter(request.path_params["tid"], request.path_params["table"],
                                                         await read_json(request))
        except BadRequest as exc:
            return error(exc.status, str(exc))
        return JSONResponse(body, status_code=status)

    async def join(request: Request):
        engine = request.app.state.server.engine
        try:
            body = await read_json(request)
            try:
                player, _session = await identify(request, engine)
            except BadCredential as exc:
                return error(401, str(exc))
            return JSONResponse(await register.join(engine, request.path_params["tid"], body, player), status_code=201,
                                headers={"Cache-Control": "no-store"})
        except BadRequest as exc:
            return error(exc.status, str(exc))

    async def registration(request: Request):
        try:
            status, body = await register.set_open(request.app.state.server.engine, request.path_params["tid"],
                                                   await read_json(request))
        except BadRequest as exc:
            return error(exc.status, str(exc))
        return JSONResponse(body, status_code=status)

    async def standings_csv(request: Request):
        t = await service(request).load(request.path_params["tid"])
        if t is None:
            return error(404, f"there is no tournament {request.path_params['tid']}")
        return Response(view.standings_csv(t), media_type="text/csv; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="stich-tournament-{t.id}.csv"'})

    return [
        Route("/api/tournaments", create, methods=["POST"]),
        Route("/api/tournaments/{tid}", show, methods=["GET"]),
        Route("/api/tournaments/{tid}/rounds", rounds, methods=["POST"]),
        Route("/api/tournaments/{tid}/tables/{table}/result", result, methods=["POST"]),
        Route("/api/tournaments/{tid}/standings.csv", standings_csv, methods=["GET"]),
        Route("/api/tournaments/{tid}/players", join, methods=["POST"]),
        Route("/api/tournaments/{tid}/registration", registration, methods=["POST"]),
    ]
