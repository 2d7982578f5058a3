"""Fair bots (issue #35): the scheduler's order per table, the instant bots' own lane, and the budget
cap of tables without people.  The server-level flood is in ``tests/web/test_fair_bots.py``."""

from __future__ import annotations

import asyncio
import time

import pytest

import stich
from stich.bots import Budget
from stich.web.botfair import FairQueue
from stich.web.botpool import BotPool, instant
from stich.web.spec import BadRequest, bots_only_cap, capped, over_cap, parse_table
from stich.web.table import legal_for
from tests.web.client import until


def run(coro, timeout=60):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def _decide(queue: FairQueue, table: str, spec: str, seconds: float, started: list[str],
                  took: dict[str, list[float]] | None = None, waiting: int = 0) -> None:
    """One decision of ``seconds``; with ``waiting``, it thinks only once that many decisions wait
    behind it (the order tests' others have all asked before it ends, however late a loaded machine
    runs their tasks; a fixed head start of a few ms was not enough when a process stalled)."""
    async with queue.turn(table, spec):
        started.append(table)
        began = time.perf_counter()
        await until(lambda: queue.waiting >= waiting, 30, "the other decisions to ask", every=0.001)
        await asyncio.sleep(seconds)
        if took is not None:
            took.setdefault(spec, []).append(time.perf_counter() - began)


def test_a_cheap_decision_goes_before_the_waiting_expensive_ones():
    """One slot; H1 thinks (0.2 s a decision, as its spec has been measured), H2 and H3 wait with the
    same spec, and L (0.01 s) asks last: L is let through first, after the one decision in flight."""
    started: list[str] = []
    took: dict[str, list[float]] = {}   # how long the decisions really held the slot (a loaded machine overruns)

    async def main():
        q = FairQueue(1)
        await _decide(q, "H0", "heavy", 0.2, started, took)   # the specs' costs, measured
        await _decide(q, "L0", "light", 0.01, started, took)
        started.clear()
        tasks = []
        for table, spec, seconds, behind in [("H1", "heavy", 0.2, 3), ("H2", "heavy", 0.2, 0),
                                             ("H3", "heavy", 0.2, 0), ("L", "light", 0.01, 0)]:
            tasks.append(asyncio.ensure_future(_decide(q, table, spec, seconds, started, took, behind)))
            await asyncio.sleep(0.001)
        await asyncio.gather(*tasks)
        return q

    q = run(main())
    assert started == ["H1", "L", "H2", "H3"], started
    # what it learned is a running mean of the real holds: inside their range, whatever the load
    # (H1's hold, as the queue measured it, includes its wait for the others to ask: a few ms)
    assert min(took["heavy"]) * 0.99 <= q.expected("heavy") <= max(took["heavy"]) * 1.01 + 0.001
    assert q.expected("light") <= max(took["light"]) * 1.01 + 0.001 and q.expected("light") < q.expected("heavy") / 2
    assert q.expected("pimc@1.5s") == 1.5 and q.expected("strong") == 0.1   # not measured yet: a guess


def test_a_table_with_people_goes_before_tables_without():
    """Four all-bot tables wait (cheap decisions, waiting longer); a people's table asking last for an
    expensive decision goes first all the same: someone waits for it."""
    started: list[str] = []

    async def ask(q, table, spec, people, seconds=0.01, waiting=0):
        async with q.turn(table, spec, people):
            started.append(table)
            # the holder: until the other five have asked
            await until(lambda: q.waiting >= waiting, 30, "the other decisions to ask", every=0.001)
            await asyncio.sleep(seconds)

    async def main():
        q = FairQueue(1)
        holder = asyncio.ensure_future(ask(q, "first", "cheap", False, 0.2, waiting=5))
        await asyncio.sleep(0.001)
        tasks = [asyncio.ensure_future(ask(q, f"b{i}", "cheap", False)) for i in range(4)]
        await asyncio.sleep(0.001)
        tasks.append(asyncio.ensure_future(ask(q, "people", "pimc@5s", True)))
        await asyncio.gather(holder, *tasks)

    run(main())
    assert started[:2] == ["first", "people"] and started[2:] == ["b0", "b1", "b2", "b3"], started


def test_tables_that_think_alike_take_turns():
    """Two tables each asking again as soon as answered, on one slot: they alternate (round robin)."""
    started: list[str] = []

    async def loop(q, table, n):
        for _ in range(n):
            await _decide(q, table, "same", 0.01, started)

    async def main():
        q = FairQueue(1)
        await asyncio.gather(loop(q, "A", 6), loop(q, "B", 6))

    run(main())
    assert all(started[i] != started[i + 1] for i in range(len(started) - 1)), started


def test_a_table_asking_twice_waits_its_turn_in_its_own_queue():
    """A table's decisions go in the order it asked them, one at a time against the others."""
    started: list[str] = []

    async def main():
        q = FairQueue(1)
        holder = asyncio.ensure_future(_decide(q, "X", "s", 0.05, started, waiting=3))
        await asyncio.sleep(0.001)
        rest = [asyncio.ensure_future(_decide(q, t, "s", 0.01, started)) for t in ("A", "A", "B")]
        await asyncio.gather(holder, *rest)

    run(main())
    assert started == ["X", "A", "B", "A"], started


def test_a_flood_of_expensive_tables_delays_a_cheap_one_by_one_decision_per_slot_at_most():
    """Ten tables keep two slots full (0.15 s a decision, each asking again when answered); a table
    of cheap decisions asking now and then waits for a slot to free, never for the queue of ten."""
    waits: list[float] = []
    holds: list[float] = []   # how long a heavy decision really held its slot (0.15 s, more under load)

    async def heavy(q, table, stop):
        while not stop.is_set():
            async with q.turn(table, "heavy"):
                began = time.perf_counter()
                await asyncio.sleep(0.15)
                holds.append(time.perf_counter() - began)

    async def light(q):
        for _ in range(6):
            await asyncio.sleep(0.07)
            asked = time.perf_counter()
            async with q.turn("light", "light"):
                waits.append(time.perf_counter() - asked)
                await asyncio.sleep(0.005)

    async def main():
        q = FairQueue(2)
        await _decide(q, "L0", "light", 0.005, [])   # the cheap spec's cost, measured
        stop = asyncio.Event()
        heavies = [asyncio.ensure_future(heavy(q, f"h{i}", stop)) for i in range(10)]
        await asyncio.sleep(0.2)
        assert q.waiting == 8 and q.busy == 2
        await light(q)
        stop.set()
        await asyncio.gather(*heavies)
        return q

    q = run(main())
    # first come first served would have made it wait for ~8 queued decisions: 4 x 0.15 s = 0.6 s; the
    # bound is one decision as long as the longest really took (a loaded machine's sleep overruns 0.15 s:
    # a CI-sized run once saw 0.23 s waits beside decisions of that length)
    assert max(waits) < max(holds) + 0.05, (waits, max(holds))
    assert q.busy == 0 and q.waiting == 0 and not q.tables


def test_an_expensive_decision_is_not_starved_by_cheap_ones():
    """Three tables of cheap decisions keep one slot busy; an expensive one still gets through, once
    its wait has grown past the cheap ones' ratio (here within about 0.3 s), not never."""
    got: list[float] = []

    async def cheap(q, table, stop):
        while not stop.is_set():
            async with q.turn(table, "cheap"):
                await asyncio.sleep(0.02)

    async def main():
        q = FairQueue(1)
        stop = asyncio.Event()
        cheaps = [asyncio.ensure_future(cheap(q, f"c{i}", stop)) for i in range(3)]
        await asyncio.sleep(0.2)
        asked = time.perf_counter()
        async with q.turn("big", "pimc@0.2s"):
            got.append(time.perf_counter() - asked)
        stop.set()
        await asyncio.gather(*cheaps)

    run(main())
    # by the ratios it waits about 0.4 s (until (wait + 0.2) / 0.2 passes a cheap one's ratio, about 3);
    # starved, it would wait for ever (the run's 60 s timeout).  A loaded machine's late cheap decisions
    # raise their ratio for a moment: 3 s leaves room for that and still fails a big one held back for long
    assert got[0] < 3.0, got


def test_a_cancelled_decision_gives_its_slot_back():
    async def main():
        q = FairQueue(1)
        holder = asyncio.ensure_future(_decide(q, "A", "s", 0.2, []))
        await asyncio.sleep(0.01)
        waiting = asyncio.ensure_future(_decide(q, "B", "s", 0.01, []))   # its table leaves memory meanwhile
        await asyncio.sleep(0.01)
        waiting.cancel()
        started: list[str] = []
        await asyncio.gather(holder, _decide(q, "C", "s", 0.01, started), return_exceptions=True)
        assert started == ["C"] and q.busy == 0 and q.waiting == 0 and not q.tables
        # the slot of a decision cancelled while it thinks comes back too
        thinking = asyncio.ensure_future(_decide(q, "D", "s", 5, []))
        await asyncio.sleep(0.01)
        thinking.cancel()
        await asyncio.gather(thinking, return_exceptions=True)
        assert q.busy == 0

    run(main())


def test_instant_bots_do_not_wait_behind_searches():
    """One search worker busy with a 1 s search and another queued: a ``random`` and a ``heuristic``
    decision at other tables answer at once, in their own lane."""
    state = stich.game("watten", "bavarian_2").new_state(seed=3)
    state.apply("cut 4", seat=state.current_player)   # the next decision (schlag) thinks its whole budget
    seat = state.current_player
    view, legal = state.view(seat), legal_for(state, seat)
    assert instant("random") and instant("heuristic") and instant("club") and instant("beginner@3s")
    assert not instant("pimc") and not instant("max") and not instant("ismcts@10") and not instant("nobot")

    async def main():
        pool = BotPool(0)   # threads: the search lane has 2 slots
        try:
            searches = [asyncio.ensure_future(pool.choose("pimc@1s", 1, view, legal, table=f"s{i}"))
                        for i in range(3)]
            ended: list[float] = []   # when each search answered
            for s in searches:
                s.add_done_callback(lambda _f: ended.append(time.perf_counter()))
            await asyncio.sleep(0.1)
            assert pool.searches.busy == 2 and pool.searches.waiting == 1
            answered = []
            for spec in ("random", "heuristic"):
                action, fault = await pool.choose(spec, 7, view, legal, table="light")
                answered.append(time.perf_counter())
                assert fault is None and action in legal
            # not behind a 1 s search: both answered while the two searches still thought and the third
            # still waited (compared with the searches' own end, not a fixed time: the GIL is shared
            # with two searches, and a loaded machine makes the instant decisions slow, not the 1 s)
            assert not ended and pool.searches.busy == 2 and pool.searches.waiting == 1, (ended, answered)
            for action, fault in await asyncio.gather(*searches):
                assert fault is None and action in legal
            assert max(answered) < min(ended), (answered, ended)
        finally:
            pool.close()

    run(main())


def test_tables_without_people_get_the_small_budgets(monkeypatch):
    monkeypatch.delenv("STICH_BOTS_ONLY_MAX_SECONDS", raising=False)
    monkeypatch.delenv("STICH_BOTS_ONLY_MAX_ITERATIONS", raising=False)
    cap = bots_only_cap()
    assert (cap.seconds, cap.iterations) == (1.0, 400)
    for seats in (["bot:pimc@1.5s", "bot:random"], ["bot:ismcts@401", "bot:random"], ["bot:max@2s", "bot"]):
        with pytest.raises(BadRequest, match="without a human seat may give its bots at most 1s or 400 iterations"):
            parse_table({"game": "watten", "variant": "bavarian_2", "seats": seats})
    for seats in (["bot:pimc@1s", "bot:max"], ["bot:ismcts@400", "bot:strong"], ["human", "bot:pimc@10s"]):
        parse_table({"game": "watten", "variant": "bavarian_2", "seats": seats})
    assert capped("pimc@10s", cap) == "pimc@1s" and capped("ismcts@5000", cap) == "ismcts@400it"
    assert capped("max", cap) == "max" and capped("random", cap) == "random" and capped("pimc", cap) == "pimc"
    assert over_cap("max", Budget(seconds=0.5, iterations=400))   # max thinks 1 s when given no budget
    monkeypatch.setenv("STICH_BOTS_ONLY_MAX_SECONDS", "0.25")
    with pytest.raises(BadRequest, match="at most 0.25s"):
        parse_table({"game": "watten", "variant": "bavarian_2", "seats": ["bot:pimc@0.5s", "bot:max"]})
    for bad in ("0", "11", "soon"):
        monkeypatch.setenv("STICH_BOTS_ONLY_MAX_SECONDS", bad)
        with pytest.raises(ValueError, match="STICH_BOTS_ONLY_MAX_SECONDS"):
            bots_only_cap()
    monkeypatch.setenv("STICH_BOTS_ONLY_MAX_SECONDS", "1")
    monkeypatch.setenv("STICH_BOTS_ONLY_MAX_ITERATIONS", "1.5")
    with pytest.raises(ValueError, match="STICH_BOTS_ONLY_MAX_ITERATIONS"):
        bots_only_cap()
