"""Invite again (docs/web-protocol.md, "Players"): from the people one played with, one request makes a
new table like the last finished match played together - the same game, variant, options, settings,
seats and rating - with the seats the two of them had reserved for them (``seats.player_id`` set at
creation: a seat bound to its player, which nobody else may take, as after a first connection).

The invited player finds the table among their invitations (``GET /api/me/invitations``) and gets a
link to their seat there (``POST /api/me/invitations/{table}``); the inviter gets every seat's link,
theirs and the invited one's included, to send it on as well."""

from __future__ import annotations

import json

from sqlalchemy import select
from starlette.responses import JSONResponse
from starlette.routing import Route

from stich.web import identity, store
from stich.web.players import BadCredential, identify
from stich.web.ratings import player_matches
from stich.web.spec import BadRequest, parse_table
from stich.web.tokens import seat_url


async def last_together(engine, me: int, other: int) -> dict | None:
    """The newest finished table both players sat at: {"table", "mine", "theirs"} (their seats)."""
    mine, theirs = player_matches.alias("mine"), player_matches.alias("theirs")
    row = await store.fetch_one(engine, select(mine.c.table_id, mine.c.seat.label("mine"),
                                               theirs.c.seat.label("theirs")).select_from(
        mine.join(theirs, theirs.c.table_id == mine.c.table_id)).where(
        mine.c.player_id == me, theirs.c.player_id == other).order_by(mine.c.finished.desc()).limit(1))
    return None if row is None else {"table": row["table_id"], "mine": row["mine"], "theirs": row["theirs"]}


async def table_body(engine, table_id: str) -> dict:
    """A ``POST /api/tables`` body that makes the table ``table_id`` again (a new deal, nobody seated)."""
    T, S = store.tables, store.seats
    row = await store.fetch_one(engine, select(T).where(T.c.id == table_id))
    seats = await store.fetch_all(engine, select(S.c.kind, S.c.bot).where(S.c.table_id == table_id).order_by(S.c.seat))
    settings = json.loads(row["settings"])
    body = {"game": row["game"], "variant": row["variant"], "options": json.loads(row["options"]),
            "seats": ["human" if s["kind"] == "human" else f"bot:{s['bot']}" for s in seats],
            "rated": bool(row["rated"])}
    body.update({k: settings[k] for k in ("timer", "signals", "bot_delay", "start") if k in settings})
    if "grace" in settings:
        body["grace"] = "never" if settings["grace"] is None else settings["grace"]
    return body


async def invite_again(server, me: dict, name) -> dict:
    """A new table like the last one ``me`` played with the player ``name``, both seats reserved."""
    other = await identity.player_by_name(server.engine, name) if isinstance(name, str) else None
    if other is None or other["id"] == me["id"]:
        raise BadRequest("there is no such player among the people you played with", 404)
    last = await last_together(server.engine, me["id"], other["id"])
    if last is None:
        raise BadRequest("there is no such player among the people you played with", 404)
    # the same parser as POST /api/tables: options or bots no longer accepted are refused in its words
    spec = parse_table(await table_body(server.engine, last["table"]))
    reserved = {last["mine"]: me, last["theirs"]: other}
    actor, tokens = await server.create(spec, names={s: p["name"] for s, p in reserved.items()},
                                        claimed=tuple(reserved), players={s: p["id"] for s, p in reserved.items()})
    seats = []
    for i, s in enumerate(spec.seats):
        item = {"seat": i, "kind": s.kind} if i not in tokens else {
            "seat": i, "kind": "human", "token": tokens[i], "url": seat_url(actor.id, tokens[i])}
        if i in reserved:
            item["player"] = reserved[i]["name"]
        seats.append(item)
    return {"table": actor.id, "seat": last["mine"], "url": seats[last["mine"]]["url"], "seats": seats,
            "watch": f"/t/{actor.id}"}


async def invitations(engine, player_id: int) -> list[dict]:
    """Unfinished tables with a seat reserved for the player, newest first: [{"table", "game", "variant",
    "seat", "rated", "with"}] (``with``: the other players there)."""
    T, S = store.tables, store.seats
    rows = await store.fetch_all(engine, select(T.c.id, T.c.game, T.c.variant, T.c.rated, S.c.seat).select_from(
        S.join(T, T.c.id == S.c.table_id)).where(S.c.player_id == player_id, T.c.finished.is_(False))
        .order_by(T.c.created.desc()).limit(20))
    out = []
    for r in rows:
        others = await store.fetch_all(engine, select(S.c.name).where(
            S.c.table_id == r["id"], S.c.player_id.is_not(None), S.c.player_id != player_id).order_by(S.c.seat))
        out.append({"table": r["id"], "game": r["game"], "variant": r["variant"], "seat": r["seat"],
                    "rated": bool(r["rated"]), "with": [o["name"] for o in others]})
    return out


def routes(read_json, error) -> list:
    async def me_or_401(request):
        try:
            player, _ = await identify(request, request.app.state.server.engine)
        except BadCredential as exc:
            return None, error(401, str(exc))
        return (player, None) if player else (None, error(401, "sign in first: a player's bearer token or "
                                                               "session cookie"))

    async def again(request):
        player, failed = await me_or_401(request)
        if failed:
            return failed
        try:
            body = await read_json(request)
            if not isinstance(body, dict) or set(body) != {"player"}:
                raise BadRequest('the request body is {"player": NAME}')
            made = await invite_again(request.app.state.server, player, body["player"])
        except BadRequest as exc:
            return error(exc.status, str(exc))
        return JSONResponse(made, status_code=201)

    async def mine(request):
        player, failed = await me_or_401(request)
        if failed:
            return failed
        return JSONResponse({"invitations": await invitations(request.app.state.server.engine, player["id"])},
                            headers={"Cache-Control": "no-store"})

    async def take(request):
        player, failed = await me_or_401(request)
        if failed:
            return failed
        status, body = await request.app.state.server.join(request.path_params["table"], None,
                                                           reserved_for=player["id"])
        return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})

    return [
        Route("/api/me/again", again, methods=["POST"]),
        Route("/api/me/invitations", mine, methods=["GET"]),
        Route("/api/me/invitations/{table}", take, methods=["POST"]),
    ]
