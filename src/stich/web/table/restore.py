"""A table rebuilt from its stored log: the match replayed action by action from its seed, its seats,
the answers already given to each client's ids, the last chat lines and its rematch link.  The owner
loads a table this way at start-up, after a crash, and a replica when it falls behind its owner."""

from __future__ import annotations

import json
import logging

from sqlalchemy import select

import stich
from stich.engine import StichError
from stich.web import store
from stich.web.logs import event
from stich.web.table.conn import Seat

log = logging.getLogger("stich.web")


async def restore(engine, table_id: str, quiet: bool = False) -> dict | None:
    """A table's fields as its log rebuilds them (the state replayed), or None if there is none;
    ``quiet``: no "table restored" line (a cluster's replicas read tables all the time)."""
    row = await store.fetch_one(engine, select(store.tables).where(store.tables.c.id == table_id))
    if row is None:
        return None
    seat_rows = await store.fetch_all(engine, select(store.seats).where(
        store.seats.c.table_id == table_id).order_by(store.seats.c.seat))
    action_rows = await store.fetch_all(engine, select(store.actions).where(
        store.actions.c.table_id == table_id).order_by(store.actions.c.seq))
    answer_rows = await store.fetch_all(engine, select(store.answers).where(
        store.answers.c.table_id == table_id))
    chat_rows = await store.fetch_all(engine, select(store.chat).where(
        store.chat.c.table_id == table_id).order_by(store.chat.c.id.desc()).limit(50))
    game = stich.game(row["game"], row["variant"], **json.loads(row["options"]))
    state = game.new_state(seed=int(row["seed"]), **(json.loads(row["setup"]) if row["setup"] else {}))
    marks = [len(state.events)]
    for i, a in enumerate(action_rows):
        if a["seq"] != i + 1:
            raise RuntimeError(f"table {table_id}: the log is broken at seq {a['seq']}")
        try:  # any seat may have acted, on turn or out of turn: the engine checks it for that seat
            state.apply(a["action"], seat=a["seat"])
        except StichError as exc:
            raise RuntimeError(f"table {table_id}: the log is broken at seq {a['seq']}: {exc}") from exc
        marks.append(len(state.events))
    answers = {}
    for a in answer_rows:
        if a["error"] is None:
            answers[(a["seat"], a["client_id"])] = {"type": "ack", "id": a["client_id"], "seq": a["seq"]}
        else:
            answers[(a["seat"], a["client_id"])] = {"type": "error", "id": a["client_id"], "message": a["error"]}
    seats = [Seat(r["seat"], r["kind"], r["bot"], r["token_hash"], r["name"], bool(r["claimed"]),
                  bool(r["arrived"]), r["player_id"]) for r in seat_rows]
    link = await store.fetch_one(engine, select(store.rematches.c.next_id).where(
        store.rematches.c.table_id == table_id))
    chat = [{"seat": r["seat"], "name": r["name"], "text": r["text"]} for r in reversed(chat_rows)]
    if action_rows and not quiet:
        event(log, "table restored", table=table_id, seq=len(action_rows))
    return dict(game=game, state=state, seats=seats, settings=json.loads(row["settings"]),
                public=bool(row["public"]), answers=answers, chat=chat, marks=marks,
                started=bool(row["started"]), rematch=link["next_id"] if link else None,
                rated=bool(row["rated"]))
