"""Records: a finished table's (stored with its last action) and uploaded ones (``POST /api/records``,
kept once they replay exactly), both read by id (``GET /api/records/{ID}``, the replay page, analyses)."""

from __future__ import annotations

import json
import logging
import time

from sqlalchemy import select

import stich
from stich.engine import StichError
from stich.web import store
from stich.web.logs import event
from stich.web.spec import BadRequest
from stich.web.tokens import new_id

log = logging.getLogger("stich.web")

MAX_RECORD_BYTES = 4 * 1024 * 1024


async def record(engine, table_id: str) -> dict | None:
    """The record of a finished table, or of an uploaded record; None if there is none (yet)."""
    if not isinstance(table_id, str) or len(table_id) > 32:
        return None
    row = await store.fetch_one(engine, select(store.tables.c.record).where(store.tables.c.id == table_id))
    if row is not None and row["record"]:
        return json.loads(row["record"])
    row = await store.fetch_one(engine, select(store.records.c.record).where(store.records.c.id == table_id))
    if row is not None:
        return json.loads(row["record"])
    return None


async def upload(writer, body) -> dict:
    """Keep an uploaded record once it replays exactly: ``{"id", "url"}``."""
    if not isinstance(body, dict):
        raise BadRequest("a record is a JSON object (the file 'stich play' or a table's record link saves)")
    try:
        state = stich.replay(body)
    except StichError as exc:
        raise BadRequest(str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - any other failure of a hostile record is still a bad request
        raise BadRequest(f"the record does not replay: {type(exc).__name__}: {exc}") from None
    rec = state.record()
    for key in ("web", "cli"):  # keep the table's or terminal's notes (names, bots) if well-formed
        if isinstance(body.get(key), dict):
            rec[key] = body[key]
    rid = new_id()
    await writer.write(store.records.insert().values(id=rid, record=store.dumps(rec), at=time.time()))
    event(log, "record uploaded", id=rid, game=rec["game"], actions=len(rec["actions"]))
    return {"id": rid, "url": f"/replay/{rid}"}
