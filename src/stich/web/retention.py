"""What a stranger can make is not kept for ever (docs/web-protocol.md, "Limits"): uploaded records
expire after ``STICH_RECORD_SECONDS``, and a table nobody ever opened leaves the database after
``STICH_UNOPENED_TABLE_SECONDS``.

A table counts as never opened when no seat's person has been connected (``seats.arrived``), nobody
chose "start now with bots" (``tables.started``) and no action was ever taken: the tables a script
creates by the thousand and never uses.  A table somebody sat at is a real match and stays: it can be
resumed.  One sweep runs in every process (idempotent: each delete repeats its conditions, so a
person arriving at the last moment keeps the table)."""

from __future__ import annotations

import asyncio
import logging
import time

from sqlalchemy import and_, delete, exists, select

from stich.web import store
from stich.web.analyses import analyses
from stich.web.logs import event
from stich.web.tourney.schema import tournament_tables

log = logging.getLogger("stich.web")


def _unopened(cut: float):
    """The condition "created before ``cut`` and never opened", on ``store.tables``."""
    t = store.tables.c
    arrived = exists().where(and_(store.seats.c.table_id == t.id, store.seats.c.arrived.is_(True)))
    acted = exists().where(store.actions.c.table_id == t.id)
    # a tournament's table waits for its late player as long as the tournament does (its director decides)
    drawn = exists().where(tournament_tables.c.table_id == t.id)
    return and_(t.finished.is_(False), t.started.is_(False), t.created < cut, ~arrived, ~acted, ~drawn)


async def forget_unopened(server, keep: float) -> list[str]:
    """Delete the tables created more than ``keep`` seconds ago that nobody ever opened; their ids."""
    cut = time.time() - keep
    rows = await store.fetch_all(server.engine, select(store.tables.c.id).where(_unopened(cut)))
    gone = []
    for row in rows:
        table_id = row["id"]
        actor = server.tables.get(table_id)
        if actor is not None and actor.conns:   # somebody is looking right now (a spectator): keep it
            continue
        still = and_(store.tables.c.id == table_id, _unopened(cut))
        doomed = select(store.tables.c.id).where(still).scalar_subquery()
        # the dependent rows first, each on the same condition, then the table: one transaction
        await server.writer.write(
            delete(store.seats).where(store.seats.c.table_id == doomed),
            delete(store.chat).where(store.chat.c.table_id == doomed),
            delete(store.rematches).where(store.rematches.c.next_id == doomed),
            delete(store.leases).where(store.leases.c.table_id == doomed),
            delete(store.tables).where(still))
        if await store.fetch_all(server.engine, select(store.tables.c.id).where(store.tables.c.id == table_id)):
            continue   # a person arrived in between: the table stays
        actor = server.tables.pop(table_id, None)
        if actor is not None:
            actor.stop()
        gone.append(table_id)
    if gone:
        event(log, "unopened tables deleted", count=len(gone))
    return gone


async def sweep(server, limits) -> None:
    """Every ``limits.sweep_seconds``: delete expired uploads and tables nobody opened."""
    while True:
        try:
            cut = time.time() - limits.record_seconds
            expired = select(store.records.c.id).where(store.records.c.at < cut)
            await server.writer.write(   # an expired upload's analyses go with it
                delete(analyses).where(analyses.c.table_id.in_(expired)),
                delete(store.records).where(store.records.c.at < cut))
            await forget_unopened(server, limits.unopened_seconds)
        except Exception as exc:  # noqa: BLE001 - the database is away: the next sweep tries again
            event(log, "sweep failed", logging.WARNING, error=repr(exc))
        await asyncio.sleep(limits.sweep_seconds)
