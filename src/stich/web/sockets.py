"""The table socket (``/ws/tables/{id}``): a client's connection to one table, and each of its
messages checked here before it is queued to the table's actor (docs/web-protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time

from starlette.responses import JSONResponse
from starlette.websockets import WebSocket, WebSocketDisconnect

from stich.web import jsonin, metrics, store
from stich.web.guard import address, origin_problem
from stich.web.logs import event
from stich.web.players import BadCredential, identify
from stich.web.quotas import BAD_INPUT, FORBIDDEN, FOREIGN_ORIGIN, TOO_MANY, Quotas, refused_too_often, retry_after
from stich.web.server import Server
from stich.web.table import MAX_CLIENT_ID, Conn
from stich.web.table.conn import TableLeft
from stich.web.table.players import NEEDS_PLAYER, SeatRefused
from stich.web.tokens import token_hash

log = logging.getLogger("stich.web")

MAX_MESSAGE = 64 * 1024          # bytes of one socket message
LANGS = ("de", "it", "en", "fr")
DB_AWAY = "the database is unavailable for a moment: connect again in a few seconds"
TABLE_MOVING = "the table is moving between the server's processes: connect again in a moment"
ATTACH_TRIES = 3                 # a table left memory while a connection waited for it: asked again
TOO_LARGE = {"type": "error", "id": None, "message": f"message too large (at most {MAX_MESSAGE} bytes)"}


def _client_id(msg):
    cid = msg.get("id")
    if isinstance(cid, bool) or not isinstance(cid, (str, int)):
        return None
    cid = str(cid)
    return cid if 0 < len(cid) <= MAX_CLIENT_ID else None


async def table_socket(ws: WebSocket):
    server: Server = ws.app.state.server
    quotas: Quotas = ws.app.state.quotas
    table_id = ws.path_params["table_id"]
    params = ws.query_params
    fmt = params.get("format", "json")
    lang = params.get("lang", "en")
    peer = address(ws.scope)
    over = quotas.may_open(peer)
    if over is not None:   # refused at the handshake: a flood of reconnects costs no WebSocket each
        metrics.error("rate_limited")
        body = JSONResponse({"error": over[0]}, status_code=429, headers={"Retry-After": retry_after(over[1])})
        if "websocket.http.response" in ws.scope.get("extensions", {}):
            return await ws.send_denial_response(body)
        await ws.close(code=TOO_MANY, reason="too many sockets")   # a server without the extension: 403
        return
    await ws.accept()

    async def refuse(message: str, code: int, reason: str = "") -> None:
        # ``reason``: a short English word for programs; the table page shows its own, translated
        # words for the codes it knows when the reason is empty (stich.js)
        metrics.error("rate_limited" if code == TOO_MANY else "socket_refused")
        with contextlib.suppress(Exception):   # the client may be gone already: nothing to tell
            await ws.send_text(json.dumps({"type": "error", "id": None, "message": message}))
            await ws.close(code=code, reason=reason)

    problem = origin_problem(ws.headers, quotas.limits.allowed_origins)
    if problem is not None:
        return await refuse(problem, FOREIGN_ORIGIN, "origin not allowed")
    if fmt not in ("json", "html"):
        return await refuse(f"format is json or html, not {fmt!r}", 4400)
    if lang not in LANGS:
        return await refuse(f"lang is one of {', '.join(LANGS)}, not {lang!r}", 4400)
    for _ in range(ATTACH_TRIES):
        try:
            actor = await server.table(table_id)
        except Exception as exc:
            if not store.unavailable(exc):
                raise
            return await refuse(DB_AWAY, 1013)   # 1013: try again later
        if actor is None:
            return await refuse(f"there is no table {table_id}", 4404)
        try:
            return await _attach(ws, server, actor, table_id, fmt, lang, quotas, peer, params, refuse)
        except TableLeft:
            continue
    await refuse(TABLE_MOVING, 1013)


async def _attach(ws, server, actor, table_id, fmt, lang, quotas, peer, params, refuse):
    """Seat and serve one connection at ``actor`` until it closes; raises :class:`TableLeft` when the
    actor stopped before the connection was attached (the caller asks for the table again)."""
    seat = None
    token = params.get("token")
    player = None
    if token is not None:
        seat = actor.seat_for_hash(token_hash(token))
        if seat is None:
            return await refuse("this token is not a seat of this table", FORBIDDEN)
        try:   # a seat's connection may be a player's (its bearer header or session cookie)
            player, _session = await identify(ws, server.engine)
        except BadCredential as exc:
            return await refuse(str(exc), NEEDS_PLAYER, "not a player's token")
        except Exception as exc:
            if not store.unavailable(exc):
                raise
            return await refuse(DB_AWAY, 1013)
    problem = quotas.admit(peer, actor.id, seat is None)
    if problem is not None:
        return await refuse(problem, TOO_MANY, "too many sockets")
    conn = None
    try:
        conn = Conn(ws, seat, fmt, lang, player)
        try:
            await actor.attach(conn)
        except SeatRefused as exc:   # a player's seat, a rated table (table/players.py); nothing attached
            conn = None
            return await refuse(str(exc), exc.code)
        except TableLeft:   # nothing attached, nothing sent: the caller finds the table's actor again
            conn = None
            raise
        except Exception as exc:
            if not store.unavailable(exc):
                raise
            conn = None   # attach cleaned up after itself (table/conn.py): nothing to detach
            return await refuse(DB_AWAY, 1013)
        event(log, "connected", table=table_id, seq=actor.seq, seat=seat, format=fmt)
        key, bad = quotas.socket_key(), 0

        closer: list[asyncio.Task] = []   # the task closing this socket for its refusals

        def on_refused() -> None:   # an action of this socket was refused (in the table's actor)
            why = refused_too_often(quotas, key)
            if why is not None and not closer:
                metrics.error("rate_limited")
                closer.append(asyncio.get_running_loop().create_task(
                    close_after(conn, ws, why, TOO_MANY, "too many refusals")))

        conn.on_refused = on_refused
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            closing, bad = handle_frame(actor, conn, msg, quotas, key, bad)
            if closing is not None:
                await close_after(conn, ws, *closing)
                break
    except WebSocketDisconnect:
        pass
    finally:
        quotas.leave(peer, actor.id, seat is None)
        if conn is not None:
            conn.on_refused = None   # its closure holds the connection: no cycle left for the collector
            actor.detach(conn)
            event(log, "disconnected", table=table_id, seq=actor.seq, seat=seat)


KINDS = ("act", "resync", "ping", "pong", "chat", "name", "signal", "start")


def handle_frame(actor, conn: Conn, msg: dict, quotas: Quotas, key: str, bad: int):
    """One received frame: ``(None, bad)``, or ``((message, code, reason), bad)`` when the socket is to
    be closed: a rate of its messages exceeded, or too many frames that were no protocol message at
    all (``bad`` counts those: not UTF-8 JSON, too large, not an object, an unknown type)."""
    received = time.perf_counter()  # the action latency metric starts here
    parsed, problem = parse(msg)
    if problem is not None:
        metrics.error("bad_message")
        bad += 1
        if bad >= quotas.limits.bad_messages:
            return (f"{problem}; the socket is closed after {bad} messages that were not protocol messages",
                    BAD_INPUT, "too many bad messages"), bad
        conn.send({"type": "error", "id": None, "message": problem})
        return None, bad
    over = quotas.message(key, parsed["type"])
    if over is not None:
        metrics.error("rate_limited")
        return (over, TOO_MANY, "too many messages"), bad
    dispatch(actor, conn, parsed, received)
    return None, bad


def parse(msg: dict) -> tuple[dict | None, str | None]:
    """A frame's message (a JSON object of a known type), or None and why it is none."""
    raw = msg.get("text")
    if raw is None:
        data = msg.get("bytes") or b""
        if len(data) > MAX_MESSAGE:
            return None, TOO_LARGE["message"]
        try:
            raw = data.decode("utf-8")
        except UnicodeDecodeError:
            return None, "a message is UTF-8 JSON text"
    if len(raw) > MAX_MESSAGE or len(raw.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        return None, TOO_LARGE["message"]
    try:
        parsed = jsonin.loads(raw, "a message")
    except jsonin.BadJSON as exc:
        return None, str(exc)
    if not isinstance(parsed, dict):
        return None, "a message is a JSON object with a 'type'"
    if parsed.get("type") not in KINDS:
        return None, f"unknown message type {parsed.get('type')!r}; types are {', '.join(KINDS)}"
    return parsed, None


def dispatch(actor, conn: Conn, msg: dict, received: float) -> None:
    """One protocol message: its fields checked here, then queued to the table's actor."""
    kind = msg["type"]
    if kind == "act":
        cid = _client_id(msg)
        if cid is None:
            metrics.error("bad_message")
            conn.send({"type": "error", "id": msg.get("id") if isinstance(msg.get("id"), (str, int)) else None,
                       "message": f"an act message needs an 'id': text of 1 to {MAX_CLIENT_ID} characters, unique "
                                  "per action"})
            return
        actor.submit_from(conn, actor.act, cid, msg.get("action"), received)
    elif kind == "resync":
        seq = msg.get("seq", 0)
        if isinstance(seq, bool) or not isinstance(seq, int):
            metrics.error("bad_message")
            conn.send({"type": "error", "id": None, "message": "'seq' must be a whole number"})
            return
        actor.submit_from(conn, actor.resync, seq)
    elif kind == "ping":
        conn.send({"type": "pong"})
    elif kind == "chat":
        actor.submit_from(conn, actor.say, msg.get("text"))
    elif kind == "name":
        actor.submit_from(conn, actor.rename, msg.get("name"))
    elif kind == "signal":
        actor.submit_from(conn, actor.signal, msg.get("signal"))
    elif kind == "start":   # "start now with bots" (table/evening.py)
        actor.submit_from(conn, actor.begin)


async def close_after(conn: Conn, ws: WebSocket, message: str, code: int, reason: str) -> None:
    """An ``error`` frame after the frames queued before it, then the close with ``code``."""
    conn.send({"type": "error", "id": None, "message": message})
    flushed = asyncio.get_running_loop().create_future()
    conn.after_sent(lambda: flushed.done() or flushed.set_result(None))
    try:
        await asyncio.wait_for(flushed, 1)
    except TimeoutError:
        pass   # a client that does not read: closed all the same
    conn.stop()
    try:
        await ws.close(code=code, reason=reason)
    except Exception:  # noqa: BLE001 - the client went away first
        pass
