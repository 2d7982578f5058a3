"""The clubs' HTTP API (docs/web-protocol.md, "Clubs"); the data is :mod:`stich.web.clubs`.

Every request acts as a player (bearer token or session cookie).  A club is visible to its members
only: to anyone else it answers 404, the same as an unknown club.  Admins alone change members,
invite links and presets.  A table started from a preset goes through the same parser and creation
as ``POST /api/tables`` and is marked as the club's."""

from __future__ import annotations

import logging

from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from stich.web import clubs, ratings
from stich.web.clubs import ClubError
from stich.web.logs import event
from stich.web.players import BadCredential, identify
from stich.web.spec import BadRequest
from stich.web.tables_api import create_from_body
from stich.web.tourney import people as tourney_people

log = logging.getLogger("stich.web")

NO_CLUB = "there is no such club (or you are not its member)"
clubs_of = clubs.clubs_of   # one's clubs, for the pages (the app's Facade)


class _Refused(Exception):
    def __init__(self, response):
        self.response = response


async def page_data(engine, club_id: str, player_id: int, key: str) -> dict | None:
    """A club as its member's page shows it (None for anyone else), with its leaderboard of ``key``."""
    club = await clubs.club(engine, club_id)
    role = None if club is None else await clubs.membership(engine, club_id, player_id)
    if role is None:
        return None
    return {**club, **role, "members": await clubs.member_list(engine, club_id),
            "presets": await clubs.preset_list(engine, club_id), "tables": await clubs.lobby(engine, club_id),
            "history": await clubs.history(engine, club_id),
            "tournaments": await tourney_people.of_club(engine, club_id),
            "leaderboard": await clubs.leaderboard(engine, club_id, key),
            "invites": await clubs.invite_list(engine, club_id) if role["admin"] else []}


def routes(read_json, error) -> list:
    """The routes; ``read_json`` and ``error`` are the app's (one body reader, one error shape)."""

    def engine(request):
        return request.app.state.server.engine

    def handler(fn):
        async def wrapped(request):
            try:
                return await fn(request)
            except _Refused as refused:
                return refused.response
            except (ClubError, BadRequest) as exc:
                return error(exc.status, str(exc))
        return wrapped

    async def me(request) -> dict:
        try:
            player, _session = await identify(request, engine(request))
        except BadCredential as exc:
            raise _Refused(error(401, str(exc))) from None
        if player is None:
            raise _Refused(error(401, "sign in first: a player's bearer token or session cookie"))
        return player

    async def member(request, admin: bool = False) -> tuple[dict, dict, dict]:
        """(player, club, membership) of a member (an admin when ``admin``), else the refusal."""
        player = await me(request)
        club = await clubs.club(engine(request), request.path_params["club"])
        role = None if club is None else await clubs.membership(engine(request), club["id"], player["id"])
        if role is None:
            raise _Refused(error(404, NO_CLUB))
        if admin and not role["admin"]:
            raise _Refused(error(403, "only the club's admins may do this"))
        return player, club, role

    async def body_of(request, fields: set[str], required: set[str]) -> dict:
        body = await read_json(request)
        if not isinstance(body, dict) or not set(body) <= fields or not required <= set(body):
            raise ClubError(f"the request body is an object with {', '.join(sorted(fields))}")
        return body

    def number(request, name: str) -> int:
        raw = request.path_params[name]
        if not raw.isdigit() or len(raw) > 12:
            raise ClubError(f"there is no such {name}", 404)
        return int(raw)

    @handler
    async def mine(request):
        player = await me(request)
        return JSONResponse({"clubs": await clubs.clubs_of(engine(request), player["id"])})

    @handler
    async def create(request):
        player = await me(request)
        body = await body_of(request, {"name"}, {"name"})
        made = await clubs.create(engine(request), player["id"], body["name"])
        event(log, "club created", club=made["club"], player=player["name"])
        return JSONResponse(made, status_code=201)

    @handler
    async def show(request):
        _player, club, role = await member(request)
        e = engine(request)
        out = {"club": club["id"], "name": club["name"], "admin": role["admin"],
               "members": await clubs.member_list(e, club["id"]),
               "presets": await clubs.preset_list(e, club["id"]),
               "tables": await clubs.lobby(e, club["id"]),
               "history": await clubs.history(e, club["id"]),
               "tournaments": await tourney_people.of_club(e, club["id"])}
        if role["admin"]:
            out["invites"] = await clubs.invite_list(e, club["id"])
        return JSONResponse(out, headers={"Cache-Control": "no-store"})

    @handler
    async def leaderboard(request):
        _player, club, _role = await member(request)
        key = request.query_params.get("key")
        if key not in ratings.keys():
            return error(400, f"'key' is one of {', '.join(ratings.keys())}")
        return JSONResponse({"key": key, "players": await clubs.leaderboard(engine(request), club["id"], key)})

    @handler
    async def join(request):
        player = await me(request)
        body = await body_of(request, {"token"}, {"token"})
        club = await clubs.club(engine(request), request.path_params["club"])
        if club is None:   # the same words as a wrong token: an outsider learns nothing from the id
            raise ClubError("this invite link is not valid (revoked, or not this club's)", 403)
        await clubs.join(engine(request), club["id"], player["id"], body["token"])
        event(log, "club joined", club=club["id"], player=player["name"])
        return JSONResponse({"club": club["id"], "name": club["name"]})

    @handler
    async def set_member(request):
        _player, club, _role = await member(request, admin=True)
        body = await body_of(request, {"admin"}, {"admin"})
        await clubs.set_admin(engine(request), club["id"], request.path_params["name"], body["admin"])
        return Response(status_code=204)

    @handler
    async def remove_member(request):
        player, club, role = await member(request)
        name = request.path_params["name"]
        leaving = name.casefold() == player["name"].casefold()
        if not leaving and not role["admin"]:
            return error(403, "only the club's admins may remove a member (anyone may leave)")
        gone = await clubs.remove(engine(request), club["id"], name)
        event(log, "club member removed", club=club["id"], leaving=leaving, club_ended=gone)
        return Response(status_code=204)

    @handler
    async def invite(request):
        _player, club, _role = await member(request, admin=True)
        made = await clubs.new_invite(engine(request), club["id"])
        # the token in the fragment: a browser never sends it to a server (no log line, no Referer)
        made["url"] = f"/clubs/{club['id']}/join#{made['token']}"
        return JSONResponse(made, status_code=201, headers={"Cache-Control": "no-store"})

    @handler
    async def revoke(request):
        _player, club, _role = await member(request, admin=True)
        await clubs.revoke(engine(request), club["id"], request.path_params["invite"])
        return Response(status_code=204)

    @handler
    async def save_preset(request):
        _player, club, _role = await member(request, admin=True)
        body = await body_of(request, {"name", "table"}, {"name", "table"})
        pid = await clubs.save_preset(engine(request), club["id"], body["name"], body["table"])
        return JSONResponse({"preset": pid}, status_code=201)

    @handler
    async def delete_preset(request):
        _player, club, _role = await member(request, admin=True)
        await clubs.delete_preset(engine(request), club["id"], number(request, "preset"))
        return Response(status_code=204)

    @handler
    async def start(request):
        player, club, _role = await member(request)
        preset = await clubs.preset(engine(request), club["id"], number(request, "preset"))
        if preset is None:
            return error(404, "there is no such preset")
        server = request.app.state.server
        # POST /api/tables's own path: the same parser and creation (a preset the rules no longer
        # accept is refused with the parser's words); the starter's seat is handed out already
        made = await create_from_body(server, preset["table"], claim_first=True)
        # a second commit: if it fails (the database away), the answer is an error and the table,
        # never opened, is swept like any unopened one (STICH_UNOPENED_TABLE_SECONDS)
        await clubs.mark_table(engine(request), club["id"], made["table"], preset["preset"], player["id"])
        # the starter gets their own seat's link only: the club's lobby hands out the others
        mine_ = next((s for s in made["seats"] if s["kind"] == "human"), None)
        answer = {"table": made["table"], "club": club["id"], "watch": made["watch"],
                  "seat": None if mine_ is None else mine_["seat"], "token": None if mine_ is None else mine_["token"],
                  "url": made["watch"] if mine_ is None else mine_["url"]}
        event(log, "club table started", club=club["id"], table=made["table"], preset=preset["preset"])
        return JSONResponse(answer, status_code=201)

    @handler
    async def take_seat(request):
        _player, club, _role = await member(request)
        table_id = request.path_params["table"]
        if not await clubs.is_club_table(engine(request), club["id"], table_id):
            return error(404, "there is no such table in this club")
        status, body = await request.app.state.server.join(table_id, await read_json(request, empty_ok=True),
                                                           private_ok=True)
        return JSONResponse(body, status_code=status)

    base = "/api/clubs/{club}"
    return [
        Route("/api/clubs", mine, methods=["GET"]),
        Route("/api/clubs", create, methods=["POST"]),
        Route(base, show, methods=["GET"]),
        Route(base + "/leaderboard", leaderboard, methods=["GET"]),
        Route(base + "/members", join, methods=["POST"]),
        Route(base + "/members/{name}", set_member, methods=["POST"]),
        Route(base + "/members/{name}", remove_member, methods=["DELETE"]),
        Route(base + "/invites", invite, methods=["POST"]),
        Route(base + "/invites/{invite}", revoke, methods=["DELETE"]),
        Route(base + "/presets", save_preset, methods=["POST"]),
        Route(base + "/presets/{preset}", delete_preset, methods=["DELETE"]),
        Route(base + "/presets/{preset}/start", start, methods=["POST"]),
        Route(base + "/tables/{table}/join", take_seat, methods=["POST"]),
    ]
