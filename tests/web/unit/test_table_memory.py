"""A table that leaves memory is freed by reference counting alone: its actor's task must not keep a
reference cycle (actor -> task -> cancellation traceback -> the actor's frame -> actor), or every
finished table, with its whole history, waits for a full garbage collection (in a 10-minute soak at
200 tables that was ~80,000 objects a minute, and the collection that found them paused the server)."""

from __future__ import annotations

import asyncio
import gc
import weakref

import stich
from stich.web.table import TableActor


def test_a_stopped_table_is_freed_without_the_cycle_collector():
    async def main():
        game = stich.game("watten", variant="bavarian_2")
        actor = TableActor(None, "t1", game, game.new_state(seed=1), [], {}, False, {}, [], [])
        await asyncio.sleep(0)          # its task runs and waits for the inbox
        task = weakref.ref(actor.task)
        ref = weakref.ref(actor)
        actor.stop()
        for _ in range(3):
            await asyncio.sleep(0)      # the cancellation is delivered and the task finishes
        del actor
        return ref, task

    gc.collect()
    gc.disable()
    try:
        ref, task = asyncio.run(main())
        assert task() is None
        assert ref() is None
    finally:
        gc.enable()
