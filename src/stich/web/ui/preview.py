"""A local preview of the pages without the table server: one table per game, you in seat 1 and
random bots in the others, kept in memory (nothing stored, nothing secret: for looking at pages).

    python -m stich.web.ui.preview [PORT]     # then open http://127.0.0.1:PORT/t/watten

It speaks the socket's ``format=html`` messages (``html``, ``ack``, ``error``) well enough for the
pages' script; the real server is ``stich serve``.
"""

from __future__ import annotations

import random
import sys

from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

import stich
from stich.web.ui import render_table, routes

TABLES: dict[str, object] = {}


class Facade:
    async def table_meta(self, table_id):
        return {"game": table_id} if table_id in stich.games() else None

    async def record(self, table_id):
        if table_id not in stich.games():
            return None
        g = stich.game(table_id)
        s = g.new_state(seed=1)
        r = random.Random(1)
        while not s.is_terminal() and s.hand_number < 2:
            s.apply(r.choice(s.legal_actions()))
        return s.record()


def _state(game: str):
    if game not in TABLES:
        TABLES[game] = stich.game(game).new_state(seed=random.randrange(1 << 30))
    return TABLES[game]


def _bots(state, rng):
    while not state.is_terminal() and state.current_player != 0:
        state.apply(rng.choice(state.legal_actions()))


async def socket(ws: WebSocket):
    game = ws.path_params["table_id"]
    lang = ws.query_params.get("lang", "en")
    await ws.accept()
    if game not in stich.games():
        await ws.close(4404, "no such table")
        return
    state, rng, seq = _state(game), random.Random(), 0

    async def push():
        nonlocal seq
        seq += 1
        ctx = {"table": game, "game": game, "variant": state.game.variant, "options": dict(state.game.options),
               "seat": 0, "view": state.view(0), "legal": [str(a) for a in state.legal_actions()]
               if state.current_player == 0 else [], "events": state.visible_events(0),
               "seats": [{"seat": i, "name": "Preview" if i == 0 else None, "kind": "human" if i == 0 else "bot:random",
                          "connected": True, "bot_playing": False} for i in range(state.game.num_players)],
               "lang": lang, "seq": seq, "finished": state.is_terminal(), "chat": []}
        await ws.send_json({"type": "html", "seq": seq, "seat": 0, "legal": ctx["legal"], "html": render_table(ctx)})

    _bots(state, rng)
    await push()
    try:
        while True:
            msg = await ws.receive_json()
            if msg.get("type") == "act":
                try:
                    state.apply(msg.get("action", ""), seat=0)
                except stich.StichError as exc:
                    await ws.send_json({"type": "error", "id": msg.get("id"), "message": str(exc)})
                    continue
                await ws.send_json({"type": "ack", "id": msg.get("id")})
                _bots(state, rng)
                await push()
            elif msg.get("type") == "resync":
                await push()
    except WebSocketDisconnect:
        pass


def app() -> Starlette:
    a = Starlette(routes=routes() + [WebSocketRoute("/ws/tables/{table_id}", socket)])
    a.state.stich = Facade()
    return a


if __name__ == "__main__":
    import uvicorn
    uvicorn.run(app(), host="127.0.0.1", port=int(sys.argv[1]) if len(sys.argv) > 1 else 8765)
