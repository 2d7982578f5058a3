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


def run(coro, timeout=60):
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def _decide(queue: FairQueue, table: str, seconds: float, started: list[str]) -> None:
    async with queue.turn(table):
        started.append(table)
        await asyncio.sleep(seconds)


async def _asks(queue, asks, started, gap=0.0):
    """``asks``: (table, seconds) in the order they ask (``gap`` seconds apart); all run to the end."""
    tasks = []
    for table, seconds in asks:
        tasks.append(asyncio.ensure_future(_decide(queue, table, seconds, started)))
        await asyncio.sleep(gap)
    await asyncio.gather(*tasks)


def test_a_table_that_thought_little_goes_before_every_waiting_decision_of_one_that_thought_much():
    """Table H has thought 0.2 s; then H, H2 and H3 (as heavy) wait while H thinks again, and L asks
    last: L is let through first, after the one decision in flight."""
    started: list[str] = []

    async def main():
        q = FairQueue(1)
        await _asks(q, [("H", 0.2)], started)                          # H's bots have thought 0.2 s
        await _asks(q, [("H2", 0.2), ("H3", 0.2)], started)            # and so have H2's and H3's
        started.clear()
        await _asks(q, [("H", 0.1), ("H2", 0.1), ("H3", 0.1), ("L", 0.01)], started, gap=0.001)

    run(main())
    assert started[:2] == ["H", "L"] and sorted(started[2:]) == ["H2", "H3"], started


def test_tables_that_think_alike_take_turns():
    """Two tables each asking again as soon as answered, on one slot: they alternate (round robin),
    where first come first served would also alternate only by luck of the asking order."""
    started: list[str] = []

    async def loop(q, table, n):
        for _ in range(n):
            await _decide(q, table, 0.01, started)

    async def main():
        q = FairQueue(1)
        await asyncio.gather(loop(q, "A", 6), loop(q, "B", 6))

    run(main())
    assert started[:2] in (["A", "B"], ["B", "A"])
    assert all(started[i] != started[i + 1] for i in range(len(started) - 1)), started


def test_a_flood_of_heavy_tables_delays_a_light_one_by_one_decision_per_slot_at_most():
    """Ten heavy tables keep two slots full (0.15 s a decision, each asking again when answered);
    a light table asking now and then waits for a slot to free, never for the queue of ten."""
    waits: list[float] = []

    async def heavy(q, table, stop):
        while not stop.is_set():
            async with q.turn(table):
                await asyncio.sleep(0.15)

    async def light(q):
        for _ in range(6):
            await asyncio.sleep(0.07)
            asked = time.perf_counter()
            async with q.turn("light"):
                waits.append(time.perf_counter() - asked)
                await asyncio.sleep(0.001)

    async def main():
        q = FairQueue(2)
        stop = asyncio.Event()
        heavies = [asyncio.ensure_future(heavy(q, f"h{i}", stop)) for i in range(10)]
        await asyncio.sleep(1.0)   # every heavy table has thought (5 rounds of 2 x 0.15 s); they queue up
        assert q.waiting >= 7
        await light(q)
        stop.set()
        await asyncio.gather(*heavies)
        return q

    q = run(main())
    # first come first served would have made it wait for ~8 queued decisions: 4 x 0.15 s = 0.6 s
    assert max(waits) < 0.15 + 0.1, waits
    assert q.busy == 0 and q.waiting == 0


def test_a_cancelled_decision_gives_its_slot_back():
    async def main():
        q = FairQueue(1)
        holder = asyncio.ensure_future(_decide(q, "A", 0.2, []))
        await asyncio.sleep(0.01)
        waiting = asyncio.ensure_future(_decide(q, "B", 0.01, []))   # its table leaves memory meanwhile
        await asyncio.sleep(0.01)
        waiting.cancel()
        started: list[str] = []
        await asyncio.gather(holder, _decide(q, "C", 0.01, started), return_exceptions=True)
        assert started == ["C"] and q.busy == 0 and q.waiting == 0
        # the slot of a decision cancelled while it thinks comes back too
        thinking = asyncio.ensure_future(_decide(q, "D", 5, []))
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
            await asyncio.sleep(0.1)
            assert pool.searches.busy == 2 and pool.searches.waiting == 1
            took = []
            for spec in ("random", "heuristic"):
                asked = time.perf_counter()
                action, fault = await pool.choose(spec, 7, view, legal, table="light")
                took.append(time.perf_counter() - asked)
                assert fault is None and action in legal
            assert max(took) < 0.5, took   # not behind a 1 s search (the GIL is shared with two searches)
            for action, fault in await asyncio.gather(*searches):
                assert fault is None and action in legal
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
