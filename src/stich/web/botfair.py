"""Bot thinking scheduled per table: the table that has thought least lately goes first, not first
come first served.

With one queue for every table, a stranger's all-bot tables at a 10 s budget filled it: a ``random``
bot elsewhere waited 8 to 40 s for its move (issue #35).  Here each decision waits for a *slot* (a
worker of the pool); when slots are short, the next one goes to the waiting table whose bots have
thought least lately: each table's thinking (seconds from slot to answer) is summed with a decay of
:data:`MEMORY` seconds, so what a table thought a minute ago hardly counts.  Hence:

- a table whose bots think little (cheap bots, a human table's occasional search) goes ahead of every
  waiting decision of the tables that think much: it waits for a slot to free, one decision in flight
  per slot at most, never for the queue;
- tables that think alike take turns (round robin): the one just answered has thought most;
- no table waits for ever: a waiting table's sum decays while the others' grows with their thinking.

Stored per table is the sum and its time; the order of two tables never changes while they wait (the
decay is the same for both), so a heap keyed by ``log(sum) + time / MEMORY`` holds it.  Each table
asks for one decision at a time (``Owner._ask_bot``): the queue holds at most one per table."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
import time
from collections.abc import Callable
from contextlib import asynccontextmanager

#: seconds over which a table's thinking is forgotten (its sum decays by e in this time)
MEMORY = 20.0
#: a table whose sum has decayed below this is forgotten (it counts as one that never thought)
FORGET = 1e-3


class FairQueue:
    """Slots for decisions, given out per table, least thinking lately first (module docstring).

    ``slots``: how many decisions may be in flight at once (a number, or a function asked each time:
    the live workers of the Redis bot queue)."""

    def __init__(self, slots: int | Callable[[], int], clock: Callable[[], float] = time.monotonic):
        self._slots = slots
        self.clock = clock
        self.busy = 0                                   # decisions holding a slot
        self.thought: dict[object, tuple[float, float]] = {}   # table -> (seconds thought, when)
        self._heap: list[tuple[float, int, object, asyncio.Future]] = []
        self._order = itertools.count()

    @property
    def slots(self) -> int:
        return max(1, self._slots() if callable(self._slots) else self._slots)

    @property
    def waiting(self) -> int:
        return sum(1 for *_, f in self._heap if not f.done())

    def lately(self, table, now: float | None = None) -> float:
        """The seconds ``table``'s bots have thought, decayed to ``now``."""
        seconds, at = self.thought.get(table, (0.0, 0.0))
        now = self.clock() if now is None else now
        return seconds * math.exp(-(now - at) / MEMORY)

    def _key(self, table) -> float:
        seconds, at = self.thought.get(table, (0.0, 0.0))
        return -math.inf if seconds <= 0 else math.log(seconds) + at / MEMORY

    @asynccontextmanager
    async def turn(self, table: object):
        """Hold a slot for one decision of ``table`` (its thinking time is charged to the table)."""
        future = asyncio.get_running_loop().create_future()
        heapq.heappush(self._heap, (self._key(table), next(self._order), table, future))
        self._dispatch()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():   # given a slot just as it was cancelled
                self._release(table, 0.0)
            raise
        began = time.perf_counter()
        try:
            yield
        finally:
            self._release(table, time.perf_counter() - began)

    def _release(self, table, seconds: float) -> None:
        self.busy -= 1
        now = self.clock()
        self.thought[table] = (self.lately(table, now) + seconds, now)
        if len(self.thought) > 2 * len(self._heap) + self.busy + 64:   # forget tables long quiet
            self.thought = {k: v for k, v in self.thought.items() if self.lately(k, now) >= FORGET}
        self._dispatch()

    def _dispatch(self) -> None:
        while self._heap and self.busy < self.slots:
            *_, future = heapq.heappop(self._heap)
            if future.done():   # its asker was cancelled (the table left memory)
                continue
            self.busy += 1
            future.set_result(None)
