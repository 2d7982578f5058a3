"""Bot thinking scheduled per table: one queue per table, and the pool takes the next decision from
the tables, people's first, then by response ratio; not first come first served.

With one queue for every table, a stranger's all-bot tables at a 10 s budget filled it: a ``random``
bot elsewhere waited 8 to 40 s for its move (issue #35).  Here each decision waits for a *slot* (a
worker of the pool).  When slots are short, the next one goes to a table where a person sits (a human
seat connected: someone waits for the move), before any table without one (nobody waits there but
spectators); within each of the two, to the table whose first waiting decision has the highest
*response ratio*: ``(seconds waited + expected thinking) / expected thinking``, where a bot's
expected thinking is measured (a moving average of its spec's recent decisions, slot to answer;
before any, its time budget, else :data:`FIRST_GUESS`).  Hence:

- however many all-bot tables think, a table with a person waits for a slot to free (one decision
  in flight per slot: at most the 1 s those tables may think), never for their queue;
- among tables alike, a cheap decision (``strong``: ~0.05 s) overtakes waiting expensive ones
  (``pimc@5s``) after a short wait: each is slowed about equally relative to its own thinking;
- tables whose decisions cost alike take turns (the one that waited longest goes first), each table
  asking one decision at a time (``Owner._ask_bot``): round robin;
- among tables alike nothing waits for ever: a waiting decision's ratio grows with its wait.  Tables
  without people get the slots that people's tables leave (their bots' moves wait while every worker
  thinks for people: add workers, ``--bot-workers`` or ``stich bot-worker``).

Which table asks is all that is kept of it while it waits; an empty table queue is dropped."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

#: seconds a bot spec without a time budget is expected to think before any of its decisions is measured
FIRST_GUESS = 0.1
#: weight of the newest decision in a spec's expected thinking (an exponential moving average)
LEARN = 0.3
#: expected thinking is at least this (a ratio needs a divisor; below it every bot is instant anyway)
FLOOR = 0.001
#: bot specs whose expected thinking is kept (``pimc@0.37s`` and ``pimc@0.38s`` are two); the oldest go
KEEP_SPECS = 256


@dataclass
class _Ask:
    spec: str
    people: bool
    at: float
    future: asyncio.Future = field(repr=False)


def budget_guess(spec: str) -> float:
    """What ``spec`` is expected to think before it was measured: its time budget, else FIRST_GUESS."""
    from stich.bots import Budget

    try:
        seconds = Budget.parse(spec.partition("@")[2] or None).seconds
    except ValueError:
        seconds = None
    return max(FLOOR, seconds) if seconds else FIRST_GUESS


class FairQueue:
    """Slots for bot decisions, taken from per-table queues by response ratio (module docstring).

    ``slots``: how many decisions may be in flight at once (a number, or a function asked each time:
    the live workers of the Redis bot queue)."""

    def __init__(self, slots: int | Callable[[], int], clock: Callable[[], float] = time.monotonic):
        self._slots = slots
        self.clock = clock
        self.busy = 0                                   # decisions holding a slot
        self.tables: dict[object, deque[_Ask]] = {}     # table -> its waiting decisions, oldest first
        self.cost: dict[str, float] = {}                # bot spec -> expected seconds of thinking

    @property
    def slots(self) -> int:
        return max(1, self._slots() if callable(self._slots) else self._slots)

    @property
    def waiting(self) -> int:
        return sum(1 for asks in self.tables.values() for a in asks if not a.future.done())

    def expected(self, spec: str) -> float:
        cost = self.cost.get(spec)
        return budget_guess(spec) if cost is None else cost

    @asynccontextmanager
    async def turn(self, table: object, spec: str, people: bool = True):
        """Hold a slot for one decision of ``table``'s bot ``spec`` (its thinking teaches the spec's
        cost); ``people``: whether a person sits at the table (its decisions go first)."""
        ask = _Ask(spec, people, self.clock(), asyncio.get_running_loop().create_future())
        self.tables.setdefault(table, deque()).append(ask)
        self._dispatch()
        try:
            await ask.future
        except asyncio.CancelledError:
            if ask.future.done() and not ask.future.cancelled():   # given a slot just as it was cancelled
                self.busy -= 1
                self._dispatch()
            raise
        began = time.perf_counter()
        try:
            yield
        finally:
            self._learn(spec, time.perf_counter() - began)
            self.busy -= 1
            self._dispatch()

    def _learn(self, spec: str, seconds: float) -> None:
        before = self.cost.pop(spec, None)    # popped and put back: the dict's order is the newest last
        self.cost[spec] = max(FLOOR, seconds if before is None else before + LEARN * (seconds - before))
        if len(self.cost) > KEEP_SPECS:
            del self.cost[next(iter(self.cost))]

    def _next(self) -> _Ask | None:
        """Take the waiting decision of a table with people first, then with the highest response ratio
        (ties: the one asked first)."""
        now = self.clock()
        best, best_key, best_table = None, None, None
        for table, asks in list(self.tables.items()):
            while asks and asks[0].future.done():   # its asker was cancelled (the table left memory)
                asks.popleft()
            if not asks:
                del self.tables[table]
                continue
            head = asks[0]
            cost = self.expected(head.spec)
            key = (head.people, (now - head.at + cost) / cost, -head.at)
            if best_key is None or key > best_key:
                best, best_key, best_table = head, key, table
        if best is not None:
            asks = self.tables[best_table]
            asks.popleft()
            if asks:   # the table's next decision waits from now: it queued behind its own
                asks[0].at = max(asks[0].at, now)
            else:
                del self.tables[best_table]
        return best

    def poke(self) -> None:
        """Let decisions through if slots have come free other than by a release (``slots`` grew)."""
        self._dispatch()

    def _dispatch(self) -> None:
        while self.busy < self.slots:
            ask = self._next()
            if ask is None:
                return
            self.busy += 1
            ask.future.set_result(None)
