"""The table socket (``/ws/tables/{id}``): a client's connection to one table, and each of its
messages checked here before it is queued to the table's actor (docs/web-protocol.md)."""

from __future__ import annotations

import contextlib
import json
import logging
import time

from starlette.websockets import WebSocket, WebSocketDisconnect

from stich.web import jsonin, metrics, store
from stich.web.logs import event
from stich.web.server import Server, token_hash
from stich.web.table import MAX_CLIENT_ID, Conn

log = logging.getLogger("stich.web")

MAX_MESSAGE = 64 * 1024          # bytes of one socket message
LANGS = ("de", "it", "en", "fr")
DB_AWAY = "the database is unavailable for a moment: connect again in a few seconds"
TOO_LARGE = {"type": "error", "id": None, "message": f"message too large (at most {MAX_MESSAGE} bytes)"}


def _client_id(msg):
    cid = msg.get("id")
    if isinstance(cid, bool) or not isinstance(cid, (str, int)):
        return None
    cid = str(cid)
    return cid if 0 < len(cid) <= MAX_CLIENT_ID else None


async def table_socket(ws: WebSocket):
    server: Server = ws.app.state.server
    table_id = ws.path_params["table_id"]
    params = ws.query_params
    fmt = params.get("format", "json")
    lang = params.get("lang", "en")
    await ws.accept()

    async def refuse(message: str, code: int) -> None:
        metrics.error("socket_refused")
        with contextlib.suppress(Exception):   # the client may be gone already: nothing to tell
            await ws.send_text(json.dumps({"type": "error", "id": None, "message": message}))
            await ws.close(code=code)

    if fmt not in ("json", "html"):
        return await refuse(f"format is json or html, not {fmt!r}", 4400)
    if lang not in LANGS:
        return await refuse(f"lang is one of {', '.join(LANGS)}, not {lang!r}", 4400)
    try:
        actor = await server.table(table_id)
    except Exception as exc:
        if not store.unavailable(exc):
            raise
        return await refuse(DB_AWAY, 1013)   # 1013: try again later
    if actor is None:
        return await refuse(f"there is no table {table_id}", 4404)
    seat = None
    token = params.get("token")
    if token is not None:
        seat = actor.seat_for_hash(token_hash(token))
        if seat is None:
            return await refuse("this token is not a seat of this table", 4403)
    conn = Conn(ws, seat, fmt, lang)
    try:
        await actor.attach(conn)
    except Exception as exc:
        if not store.unavailable(exc):
            raise
        return await refuse(DB_AWAY, 1013)
    event(log, "connected", table=table_id, seq=actor.seq, seat=seat, format=fmt)
    try:
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            raw = msg.get("text")
            if raw is None:
                data = msg.get("bytes") or b""
                if len(data) > MAX_MESSAGE:
                    metrics.error("bad_message")
                    conn.send(TOO_LARGE)
                    continue
                try:
                    raw = data.decode("utf-8")
                except UnicodeDecodeError:
                    metrics.error("bad_message")
                    conn.send({"type": "error", "id": None, "message": "a message is UTF-8 JSON text"})
                    continue
            if len(raw) > MAX_MESSAGE or len(raw.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
                metrics.error("bad_message")
                conn.send(TOO_LARGE)
                continue
            handle(actor, conn, raw)
    except WebSocketDisconnect:
        pass
    finally:
        actor.detach(conn)
        event(log, "disconnected", table=table_id, seq=actor.seq, seat=seat)


def handle(actor, conn: Conn, raw: str) -> None:
    """One client message: checked here, then queued to the table's actor."""
    received = time.perf_counter()  # the action latency metric starts here
    try:
        msg = jsonin.loads(raw, "a message")
    except jsonin.BadJSON as exc:
        metrics.error("bad_message")
        conn.send({"type": "error", "id": None, "message": str(exc)})
        return
    if not isinstance(msg, dict):
        metrics.error("bad_message")
        conn.send({"type": "error", "id": None, "message": "a message is a JSON object with a 'type'"})
        return
    kind = msg.get("type")
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
    elif kind == "pong":
        pass
    elif kind == "chat":
        actor.submit_from(conn, actor.say, msg.get("text"))
    elif kind == "name":
        actor.submit_from(conn, actor.rename, msg.get("name"))
    elif kind == "signal":
        actor.submit_from(conn, actor.signal, msg.get("signal"))
    elif kind == "start":   # "start now with bots" (table/evening.py)
        actor.submit_from(conn, actor.begin)
    else:
        metrics.error("bad_message")
        conn.send({"type": "error", "id": None,
                   "message": f"unknown message type {kind!r}; types are act, resync, ping, chat, name, signal, "
                              "start"})
