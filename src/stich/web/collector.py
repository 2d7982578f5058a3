"""The server's own garbage collection: what lives for the whole process frozen out of the collector's
sight before any table exists, and a full collection on the event loop's schedule (``STICH_GC_SECONDS``)
instead of the allocation counter's.  Measured at 200 tables: see :func:`collect_regularly`."""

from __future__ import annotations

import asyncio
import gc
import logging
import time

from stich.web import metrics
from stich.web.logs import event
from stich.web.settings import env_seconds

log = logging.getLogger("stich.web")


def freeze_what_lives_forever() -> None:
    """Move the objects made so far (modules, classes, the games' and bots' tables) out of the
    garbage collector's sight before any table exists.  A full collection walks every tracked object;
    with ~100,000 that live for the whole process among those of 200 tables, its pause was the p99 of
    an action's latency.  Objects made later are collected as before."""
    import stich.bots

    stich.bots.bot_names()   # import every bot module now, so that their objects are frozen too
    gc.collect()
    gc.freeze()
    # A young collection every 10,000 net allocations instead of 700: a server allocates ~8,000 a
    # second at 200 tables, most of which die young; fewer young collections promote fewer of them.
    # The full collections are not left to the allocation counter (see collect_regularly): the
    # third threshold makes an automatic one rare.
    gc.set_threshold(10_000, 10, 100)


def full_collection_every() -> float:
    """Seconds between the server's own full garbage collections (``STICH_GC_SECONDS``, default 60)."""
    return env_seconds("STICH_GC_SECONDS", 60, 0.1, 3600)


async def collect_regularly(every: float) -> None:
    """A full garbage collection once a minute, on the event loop's schedule.

    A closed socket leaves reference cycles that only a full collection frees (the websockets
    library's protocol and its parser generator, with the connection's buffers; uvicorn's
    HTTP protocol and parser).  Its connection lived for minutes, so the cycle sits in the oldest
    generation.  Left to the allocation counter, a full collection came about every ten minutes at
    200 tables: by then ~3,000 closed connections' garbage had raised the RSS by ~19 MiB a minute, and
    walking it paused the server 1-2 s (that minute's p99 1.2-1.3 s).  Once a minute, each
    collection walks only the live objects and one minute's garbage (0.17-0.36 s at 200 tables, fewer
    actions delayed than the p99 counts) and memory stays flat."""
    while True:
        await asyncio.sleep(every)
        started = time.perf_counter()
        found = gc.collect()
        took = time.perf_counter() - started
        metrics.GC_FULL.observe(took)
        event(log, "full garbage collection", seconds=round(took, 3), freed=found)
