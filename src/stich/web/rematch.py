"""The rematch of a finished table: ``POST /api/tables/{id}/rematch`` with ``{"token": T}``, a seat's token.

The new table has the old one's game, variant, options, settings and seats (bots stay bots with their
levels, people keep their names and whether their seat was handed out); each seat keeps its token
(the stored hash is copied, the token itself is never stored), so every invite link and every
browser that held a seat of the old table leads to the same seat at the new one.  It gets a new deal.

The database decides, not a process: a finished table has no owner in a cluster (its lease ended with
its last action), and any process may be asked.  The link old -> new is one row of ``rematches`` keyed
by the old table, inserted first in the same transaction as the new table's rows: two rematches asked
at once, on one process or on two, insert the same key, the database lets one transaction through,
and the other, refused, reads the winner's table (``200``) having written nothing."""

from __future__ import annotations

import hmac
import logging
import secrets
import time

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from stich.web import store
from stich.web.cluster.channels import o_channel, t_channel
from stich.web.logs import event
from stich.web.spec import BadRequest
from stich.web.tokens import new_id, token_hash

log = logging.getLogger("stich.web")


def _token(body) -> str:
    if not isinstance(body, dict) or set(body) != {"token"} or not isinstance(body["token"], str):
        raise BadRequest('the request body is {"token": "<the token of one of the table\'s seats>"}')
    return body["token"]


async def _next(server, table_id: str) -> str | None:
    row = await store.fetch_one(server.engine, select(store.rematches.c.next_id).where(
        store.rematches.c.table_id == table_id))
    return row["next_id"] if row else None


async def rematch(server, table_id: str, body) -> tuple[int, dict]:
    """(201, {"table": NEW}) for the first rematch of a finished table, (200, the same) after it; 404 for
    an unknown table, 403 for a token that is none of its seats', 409 while its match runs."""
    token = _token(body)
    T, S = store.tables, store.seats
    row = None
    if len(table_id) <= 32:
        row = await store.fetch_one(server.engine, select(T.c.game, T.c.variant, T.c.options, T.c.settings,
                                                          T.c.public, T.c.finished, T.c.rated).where(
            T.c.id == table_id))
    if row is None:
        return 404, {"error": f"there is no table {table_id}"}
    seats = await store.fetch_all(server.engine, select(S).where(S.c.table_id == table_id).order_by(S.c.seat))
    wanted = token_hash(token)
    found = False
    for s in seats:   # every seat compared, each in constant time
        if s["token_hash"] is not None and hmac.compare_digest(s["token_hash"], wanted):
            found = True
    if not found:
        return 403, {"error": "this token is not a seat of this table"}
    known = await _next(server, table_id)
    if known is not None:
        return 200, {"table": known}
    if not row["finished"]:
        return 409, {"error": "the match is not over yet: a rematch can be asked once it is"}
    next_id = new_id()
    rows = [(store.rematches, dict(table_id=table_id, next_id=next_id, at=time.time())),   # first: the key decides
            (store.tables, dict(id=next_id, game=row["game"], variant=row["variant"], options=row["options"],
                                settings=row["settings"], seed=secrets.randbelow(2**63), setup=None,
                                public=row["public"], finished=False, started=False, created=time.time(),
                                record=None, rated=row["rated"]))]   # a rated table's rematch is rated too
    rows += [(store.seats, dict(table_id=next_id, seat=s["seat"], kind=s["kind"], bot=s["bot"],
                                token_hash=s["token_hash"], name=s["name"], claimed=s["claimed"], arrived=False))
             for s in seats]
    if server.cluster is not None:
        rows.append(server.cluster.lease_row(next_id))   # the process that made it owns it first
    try:
        async with server.engine.begin() as conn:
            await conn.run_sync(store.write_rows, rows)
    except IntegrityError:
        known = await _next(server, table_id)
        if known is None:   # another constraint failed: a real error
            raise
        event(log, "rematch made elsewhere at once", table=table_id, next=known)
        return 200, {"table": known}
    await server.table(next_id)   # loaded now: its bots and timers run
    event(log, "rematch", table=table_id, next=next_id, game=row["game"], variant=row["variant"])
    old = server.tables.get(table_id)
    if old is not None:
        old.submit(old.on_rematch, next_id)
    if server.cluster is not None:   # the other processes' pages of the old table offer it too
        for channel in (t_channel(table_id), o_channel(table_id)):
            server.cluster.publish(channel, {"k": "rematch", "table": next_id})
    return 201, {"table": next_id}
