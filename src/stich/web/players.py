"""The players' HTTP API (docs/web-protocol.md, "Players"): becoming a player, signing in, one's own
account, profiles and leaderboards.

Who asks is the ``Authorization: Bearer TOKEN`` header (programs) or the session cookie (browsers);
:func:`identify` answers for requests and table sockets alike.  No credential travels in a URL, and
none is logged: the event lines name players, never their secrets."""

from __future__ import annotations

import logging
import os

from sqlalchemy import delete, select, update
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from stich.web import botscale, clubs, identity, ratings, stats, store
from stich.web.guard import address as client_address
from stich.web.identity import COOKIE, COOKIE_DAYS, PlayerError
from stich.web.logs import event
from stich.web.spec import BadRequest
from stich.web.tourney import people as tourney_people

log = logging.getLogger("stich.web")


class BadCredential(Exception):
    """An ``Authorization`` header that is not a player's bearer token."""


def leaderboard_min_matches() -> int:
    """Rated matches a player needs to appear on a leaderboard (``STICH_LEADERBOARD_MATCHES``, default 5)."""
    raw = os.environ.get("STICH_LEADERBOARD_MATCHES", "5")
    if not raw.isdigit() or not 1 <= int(raw) <= 1000:
        raise ValueError("STICH_LEADERBOARD_MATCHES must be a whole number from 1 to 1000")
    return int(raw)


def _same_origin(conn) -> bool:
    """Whether a browser's request comes from this site's own pages (no ``Origin``: not a browser's
    cross-site request).  A cookie sent with another site's socket or request does not count."""
    origin = conn.headers.get("origin")
    if not origin:
        return True
    # host names only: a proxy may pass Host without the port the browser's Origin names (nginx's $host)
    return _hostname(origin.split("://", 1)[-1]) == _hostname(conn.headers.get("host", ""))


def _hostname(host: str) -> str:
    host = host.strip().lower()
    if host.startswith("["):   # [::1]:8000
        return host.split("]", 1)[0] + "]"
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


async def identify(conn, engine) -> tuple[dict | None, str | None]:
    """(player {"id", "name"} or None, the session secret when the cookie identified them).

    A bearer header that names no player raises :class:`BadCredential` (a program must hear that its
    token is wrong); a stale cookie counts as no player (the browser just becomes a guest)."""
    header = conn.headers.get("authorization")
    if header is not None:
        scheme, _, secret = header.partition(" ")
        if scheme.lower() != "bearer" or not secret.strip():
            raise BadCredential("the Authorization header is 'Bearer TOKEN' with a player's token")
        player = await identity.player_by_secret(engine, secret.strip())
        if player is None:
            raise BadCredential("this bearer token is not a player's")
        return player, None
    secret = conn.cookies.get(COOKIE)
    if secret and _same_origin(conn):
        player = await identity.player_by_secret(engine, secret)
        if player is not None:
            return player, secret
    return None, None


def _set_cookie(request, response: Response, session: str) -> None:
    # Secure when the request came over HTTPS (uvicorn takes X-Forwarded-Proto from the trusted proxy,
    # STICH_TRUSTED_PROXIES, 127.0.0.1 and ::1 by default: docs/deploy.md)
    response.set_cookie(COOKIE, session, max_age=COOKIE_DAYS * 86400, httponly=True, samesite="lax",
                        secure=request.url.scheme == "https", path="/")


def routes(read_json, error) -> list:
    """The routes; ``read_json`` and ``error`` are the app's (one body reader, one error shape)."""

    def server(request):
        return request.app.state.server

    def refused(exc: PlayerError | BadRequest) -> JSONResponse:
        response = error(exc.status, str(exc))
        if getattr(exc, "retry_after", None):
            response.headers["Retry-After"] = str(exc.retry_after)
        return response

    async def me_or_401(request):
        try:
            player, session = await identify(request, server(request).engine)
        except BadCredential as exc:
            return None, None, error(401, str(exc))
        if player is None:
            return None, None, error(401, "sign in first: a player's bearer token or session cookie")
        return player, session, None

    async def create(request):
        try:
            body = await read_json(request)
            if not isinstance(body, dict) or set(body) != {"name"}:
                raise PlayerError('the request body is {"name": "..."}')
            pid, name, token, session = await identity.create_player(server(request).engine, body["name"])
        except (PlayerError, BadRequest) as exc:
            return refused(exc)
        event(log, "player created", player=name)
        response = JSONResponse({"player": name, "token": token}, status_code=201)
        _set_cookie(request, response, session)
        return response

    async def profile(request):
        engine = server(request).engine
        player = await identity.player_by_name(engine, request.path_params["name"])
        if player is None:
            return error(404, "there is no such player")
        return JSONResponse(await profile_data(engine, player))

    async def leaderboard(request):
        key = request.query_params.get("key")
        if key not in ratings.keys():
            return error(400, f"'key' is one of {', '.join(ratings.keys())}")
        return JSONResponse(await leaderboard_data(server(request).engine, key))

    async def signin(request):
        try:
            body = await read_json(request)
            if not isinstance(body, dict) or not set(body) <= {"name", "password", "code"} or "name" not in body:
                raise PlayerError('the request body is {"name": ..., "password": ...} or {"name": ..., "code": ...}')
            address = client_address(request.scope)   # behind a trusted proxy, the one it names
            player = await identity.sign_in(server(request).engine, body["name"], body.get("password"),
                                            body.get("code"), address)
        except (PlayerError, BadRequest) as exc:
            return refused(exc)
        engine = server(request).engine
        session = await identity.new_session(engine, player["id"])
        event(log, "player signed in", player=player["name"], how="password" if "password" in body else "code")
        response = JSONResponse({"player": player["name"]})
        _set_cookie(request, response, session)
        return response

    async def me(request):
        player, _session, failed = await me_or_401(request)
        if failed:
            return failed
        row = await identity.player_by_name(server(request).engine, player["name"])
        return JSONResponse({"player": player["name"], "password": row["password_hash"] is not None})

    async def code(request):
        player, _session, failed = await me_or_401(request)
        if failed:
            return failed
        text, seconds = await identity.new_code(server(request).engine, player["id"])
        return JSONResponse({"code": text, "expires_in": seconds}, status_code=201,
                            headers={"Cache-Control": "no-store"})

    async def password(request):
        player, _session, failed = await me_or_401(request)
        if failed:
            return failed
        try:
            body = await read_json(request)
            if not isinstance(body, dict) or not set(body) <= {"password", "current"} or "password" not in body:
                raise PlayerError('the request body is {"password": ..., "current": ...}')
            await identity.set_password(server(request).engine, player["id"], body["password"], body.get("current"))
        except (PlayerError, BadRequest) as exc:
            return refused(exc)
        return Response(status_code=204)

    async def rename(request):
        player, _session, failed = await me_or_401(request)
        if failed:
            return failed
        try:
            body = await read_json(request)
            if not isinstance(body, dict) or set(body) != {"name"}:
                raise PlayerError('the request body is {"name": "..."}')
            name = await identity.rename(server(request).engine, player["id"], body["name"])
        except (PlayerError, BadRequest) as exc:
            return refused(exc)
        event(log, "player renamed", player=name)
        return JSONResponse({"player": name})

    async def signout(request):
        player, session, failed = await me_or_401(request)
        if failed:
            return failed
        if session is not None:
            await identity.end_session(server(request).engine, session)
        response = Response(status_code=204)
        response.delete_cookie(COOKIE, path="/")
        return response

    async def data(request):
        player, _session, failed = await me_or_401(request)
        if failed:
            return failed
        engine = server(request).engine
        row = await identity.player_by_name(engine, player["name"])
        body = await profile_data(engine, row, limit=100_000)
        body.update(created=row["created"], renamed=row["renamed"], password=row["password_hash"] is not None,
                    stats=await stats.player_stats(engine, row["id"]), clubs=await clubs.clubs_of(engine, row["id"]),
                    tournaments=await tourney_people.of_player(engine, row["id"]),
                    figures=await stats.player_figures(engine, row["id"]))
        return JSONResponse(body, headers={"Content-Disposition": f'attachment; filename="stich-{row["name"]}.json"',
                                           "Cache-Control": "no-store"})

    async def people(request):
        player, _session, failed = await me_or_401(request)
        if failed:
            return failed
        return JSONResponse({"people": await ratings.people(server(request).engine, player["id"])})

    async def remove(request):
        player, _session, failed = await me_or_401(request)
        if failed:
            return failed
        await delete_player(server(request), player["id"])
        event(log, "player deleted")
        response = Response(status_code=204)
        response.delete_cookie(COOKIE, path="/")
        return response

    return [
        Route("/api/players", create, methods=["POST"]),
        Route("/api/players/signin", signin, methods=["POST"]),
        Route("/api/players/{name}", profile, methods=["GET"]),
        Route("/api/leaderboard", leaderboard, methods=["GET"]),
        Route("/api/me", me, methods=["GET"]),
        Route("/api/me", remove, methods=["DELETE"]),
        Route("/api/me/code", code, methods=["POST"]),
        Route("/api/me/password", password, methods=["POST"]),
        Route("/api/me/name", rename, methods=["POST"]),
        Route("/api/me/signout", signout, methods=["POST"]),
        Route("/api/me/data", data, methods=["GET"]),
        Route("/api/me/people", people, methods=["GET"]),
    ]


async def profile_data(engine, player: dict, limit: int = 200) -> dict:
    return {"player": player["name"], "ratings": await ratings.player_ratings(engine, player["id"]),
            "matches": await ratings.player_history(engine, player["id"], limit)}


async def leaderboard_data(engine, key: str) -> dict:
    least = leaderboard_min_matches()
    scale = botscale.for_key(key)   # the bots' levels, fixed, measured in the arena
    return {"key": key, "players": await ratings.leaderboard(engine, key, least), "min_matches": least,
            "bots": scale["bots"], "bots_measured": scale.get("measured")}


async def page_data(engine, name: str) -> dict | None:
    """A profile page's facts: the profile, each match's other seats (partners and opponents), and
    each rating's course (1500, then after each rated match) for the graph."""
    player = await identity.player_by_name(engine, name)
    if player is None:
        return None
    data = await profile_data(engine, player, limit=500)
    data["stats"] = await stats.player_stats(engine, player["id"])   # the page's; the API's shape is fixed
    data["tournaments"] = await tourney_people.of_player(engine, player["id"])
    data["figures"] = await stats.player_figures(engine, player["id"])
    ids = sorted({m["table"] for m in data["matches"]})
    seats: dict[str, list] = {}
    if ids:
        S = store.seats
        for r in await store.fetch_all(engine, select(S.c.table_id, S.c.seat, S.c.name, S.c.player_id, S.c.kind).where(
                S.c.table_id.in_(ids)).order_by(S.c.table_id, S.c.seat)):
            seats.setdefault(r["table_id"], []).append(r)
    course: dict[str, list] = {}
    for m in reversed(data["matches"]):   # oldest first
        partner = ratings.partners(m["game"], m["variant"], m["seat"])
        m["others"] = [{"seat": r["seat"], "name": r["name"], "player": r["player_id"] is not None,
                        "bot": r["kind"] == "bot", "partner": r["seat"] in partner}
                       for r in seats.get(m["table"], []) if r["seat"] != m["seat"]]
        if m["rated"]:
            course.setdefault(m["key"], [m["before"]]).append(m["after"])
    data["course"] = course
    return data


async def delete_player(server, player_id: int) -> None:
    """Delete an account: its credentials, ratings and history go; its seats in old tables and records
    become anonymous (no name, no player), and the records still replay."""
    import json

    P, S, T = ratings.player_matches, store.seats, store.tables
    async with server.engine.begin() as conn:
        held = (await conn.execute(select(S.c.table_id, S.c.seat).where(S.c.player_id == player_id))).all()
        for table_id, seat in held:
            row = (await conn.execute(select(T.c.record).where(T.c.id == table_id))).first()
            if row is not None and row.record:
                record = json.loads(row.record)
                for item in record.get("web", {}).get("seats", []):
                    if item.get("seat") == seat:
                        item.update(name=None, player=False)
                await conn.execute(update(T).where(T.c.id == table_id).values(record=store.dumps(record)))
        await conn.execute(update(S).where(S.c.player_id == player_id).values(player_id=None, name=None))
        for table in (identity.credentials, identity.signin_codes):
            await conn.execute(delete(table).where(table.c.player_id == player_id))
        await conn.execute(delete(ratings.ratings).where(ratings.ratings.c.player_id == player_id))
        await clubs.forget_player(conn, player_id)
        await tourney_people.forget_player(conn, player_id)
        await conn.execute(delete(P).where(P.c.player_id == player_id))
        await conn.execute(delete(identity.players).where(identity.players.c.id == player_id))
    for actor in list(server.tables.values()):   # tables in memory here forget the seat's player too
        for s in actor.seats:
            if s.player_id == player_id:
                s.player_id, s.name = None, None
