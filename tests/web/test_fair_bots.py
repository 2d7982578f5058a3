"""Fair bots on a real server (issue #35): a stranger's all-bot tables at the largest budget they may
ask for keep the server's two search workers busy, and the bots of a table with a person still
answer within about one decision in flight.

Before: one first-come queue for every table; at a 10 s budget a ``random`` bot elsewhere waited 8 to
40 s.  Here the budget of an all-bot table is capped (1 s; 10 s is refused with a 400) and six such
tables queue ~6 decisions for 2 workers: first come first served would make every other bot wait
about 3 s; a table with a person goes first, at the next free worker (at most 1 s), and the
``random`` bot, in its own lane, waits for no search at all.  The same with ``--bot-queue redis`` and
a ``stich bot-worker`` of two processes: the server keeps one job per live worker on the queue, in
the same order, so the Redis list's first come first served never holds the flood."""

from __future__ import annotations

import asyncio
import statistics
import time

import pytest

from tests.web.client import SeatClient, create_table, http_client, run
from tests.web.test_botworkers import await_workers, metric, queue_url, samples, workers  # noqa: F401 - a fixture

HEAVY = 6
FLOOD = ("watten", "euregio", {"target": 15, "lock_at": 13})         # a long match: bots all along
VICTIM = ("watten", "bavarian_2", {"target": 3, "lock_at": 2})


async def _bot_waits(srv, created: dict, stop_after: float) -> list[float]:
    """Seconds from each frame that puts a bot on turn to the frame with its move (the human seat 0
    plays at random at once): a bot's decision as the table sees it, queue and thinking."""
    waits: list[float] = []
    asked: dict = {}

    def on_frame(client, msg, raw):
        if msg.get("type") != "state" or msg.get("finished"):
            return
        if "at" in asked and msg["seq"] > asked["seq"]:
            waits.append(time.perf_counter() - asked.pop("at"))
        if msg["view"].get("current_player") != 0 and "at" not in asked:
            asked.update(at=time.perf_counter(), seq=msg["seq"])

    seat = next(s for s in created["seats"] if s.get("token"))
    client = SeatClient(srv, created["table"], seat["token"], seat=0, on_frame=on_frame)
    try:
        await asyncio.wait_for(client.play(timeout=stop_after + 30), stop_after)
    except TimeoutError:
        pass   # enough decisions measured; the match may go on
    finally:
        await client.close()
    return waits


@pytest.mark.timeout(150)
@pytest.mark.parametrize("queue", ["local", "redis"])
def test_all_bot_tables_at_the_largest_budget_do_not_delay_another_tables_bots(server_factory, request, queue):
    if queue == "local":
        srv = server_factory("sqlite", args=("--bot-workers", "2"))
    else:
        url = queue_url(request.getfixturevalue("redis_server"), 12)
        srv = server_factory("sqlite", args=("--redis", url, "--bot-queue", "redis", "--bot-workers", "0"))
        request.getfixturevalue("workers")(url, processes=2)
        await_workers(srv, 2)

    async def main():
        async with http_client(srv) as http:
            # a stranger's all-bot table may not ask for a table-with-people budget: 400, nothing made
            game, variant, options = FLOOD
            r = await http.post("/api/tables", json={"game": game, "variant": variant, "options": options,
                                                     "seats": ["bot:pimc@10s"] * 4})
            assert r.status_code == 400 and "without a human seat" in r.json()["error"], r.text
            heavy = [await create_table(http, game, variant, ["bot:pimc@1s"] * 4, options)
                     for _ in range(HEAVY)]
            await asyncio.sleep(2.5)   # the heavy tables' decisions queue up behind the 2 workers
            g, v, o = VICTIM
            random_table = await create_table(http, g, v, ["human", "bot:random"], o)
            strong_table = await create_table(http, g, v, ["human", "bot:strong"], o)
            random_waits, strong_waits = await asyncio.gather(_bot_waits(srv, random_table, 12),
                                                              _bot_waits(srv, strong_table, 12))
            seqs = [(await http.get(f"/api/tables/{t['table']}")).json()["seq"] for t in heavy]
            metrics = (await http.get("/metrics")).text
        return random_waits, strong_waits, seqs, metrics

    random_waits, strong_waits, seqs, metrics = run(main(), timeout=120)
    # the flood was real: every heavy table moved, 1 s a decision, the two workers thinking all along
    assert all(seq > 0 for seq in seqs), seqs
    assert sum(seqs) >= 12, seqs
    values = samples(metrics)
    thought = {bot: (metric(values, "stich_bot_think_seconds_sum", bot=bot),
                     metric(values, "stich_bot_think_seconds_count", bot=bot)) for bot in ("pimc", "strong")}
    # (a search stops early on a near-forced choice: 9 to 20 s of thinking seen, by the load)
    assert thought["pimc"][0] > 5, thought
    assert len(random_waits) >= 3 and len(strong_waits) >= 3, (random_waits, strong_waits)
    # The bounds are in the flood's own decisions, as long as they really took in this run (``heavy``: a
    # 1 s search, less when it stops early), and the victim bots' own thinking as measured (``strong``:
    # ~0.05 s alone, 0.3 s on two loaded cores, more on a machine running other tests too): fixed seconds
    # failed a loaded run whose order was right.  8-40 s before; first come first served made a bot wait
    # for the decisions queued ahead of it, about three heavy ones (1.8-3.3 s measured, through Redis
    # 2.3-3.0 s); here a table with a person waits for one decision in flight at most, then thinks.
    heavy = thought["pimc"][0] / thought["pimc"][1]
    strong = thought["strong"][0] / thought["strong"][1]
    waits = (f"heavy {heavy:.2f} s, strong {strong:.2f} s a decision; "
             f"waits {sorted(random_waits)}, {sorted(strong_waits)}")
    if queue == "local":   # the random bot waits for no search at all: its own lane
        assert statistics.median(random_waits) < heavy / 4 and max(random_waits) < heavy, waits
    else:                  # through Redis, a job like the others: one decision in flight
        assert statistics.median(random_waits) < 2 * heavy and max(random_waits) < 3 * heavy, waits
    # the median tells the order apart from first come first served (three decisions and its own
    # thinking), the maximum allows for a loaded machine's stragglers
    assert statistics.median(strong_waits) < 2 * heavy + strong, waits
    assert max(strong_waits) < 3 * heavy + 2 * strong, waits
