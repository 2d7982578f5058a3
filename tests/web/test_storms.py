"""Reconnect storms: clients drop their sockets at random (before or right after sending an action,
and while idle) and resend what was not acknowledged.  With the same deal seed (test hook) and the
same scripted choices, the final records equal those of an undisturbed run; each acknowledged action
is in the record exactly once."""

from __future__ import annotations

import asyncio
import random

import pytest

from tests.web.checks import check_acks_in_record, check_frames, replay_ok
from tests.web.client import SeatClient, create_table, get_record, http_client, run, seat_clients

# All seats human (scripted), so that every action of the record is a scripted choice.
STORM_TABLES = [
    ("watten", "euregio", {"target": 3, "lock_at": 1}, 4),
    ("battn", None, {"target": 3, "x_threshold": 2}, 4),
    ("biscambiggia", None, {"hands_per_match": 1}, 5),
]


async def _chaos(clients: list[SeatClient], rng: random.Random, stop: asyncio.Event, rate: float) -> int:
    """Cut random clients' sockets while they wait (the play loop reconnects)."""
    cuts = 0
    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), rng.expovariate(rate))
        except TimeoutError:
            victim = rng.choice(clients)
            if not victim.finished and victim.ws is not None:
                await victim.drop()
                cuts += 1
    return cuts


async def _run_tables(srv, storm: bool, seed: int):
    rng = random.Random(seed)
    async with http_client(srv) as http:
        created = []
        for i, (g, v, o, n) in enumerate(STORM_TABLES):
            created.append(await create_table(http, g, v, ["human"] * n, o, test={"seed": 5861204337190552000 + i}))
        clients = [c for i, t in enumerate(created) for c in seat_clients(srv, t, script_seed=f"storm/{i}")]
        stop = asyncio.Event()
        chaos = asyncio.create_task(_chaos(clients, random.Random(seed + 1), stop, rate=40.0)) if storm else None
        await asyncio.gather(*(c.play(timeout=80, drop_rate=0.25 if storm else 0.0,
                                      drop_rng=random.Random(rng.random()) if storm else None)
                               for c in clients))
        stop.set()
        cuts = await chaos if chaos else 0
        records = [await get_record(http, t["table"]) for t in created]
        for c in clients:
            await c.close()
    return created, clients, records, cuts


@pytest.mark.timeout(150)
def test_reconnect_storm_gives_the_records_of_an_undisturbed_run(server):
    calm = run(_run_tables(server, storm=False, seed=1), timeout=70)
    storm = run(_run_tables(server, storm=True, seed=2), timeout=70)
    _, calm_clients, calm_records, _ = calm
    created, clients, records, cuts = storm
    assert cuts > 5
    assert sum(c.resends for c in clients) > 5, "the storm never made a client resend an action"
    assert sum(c.connects for c in clients) > len(clients) + 10
    for t, record, calm_record in zip(created, records, calm_records, strict=True):
        replay_ok(record)
        mine = [c for c in clients if c.table == t["table"]]
        check_acks_in_record(record, mine)
        for c in mine:
            check_frames(record, c)
        assert record["seed"] == calm_record["seed"]
        assert record["actions"] == calm_record["actions"]
        assert record["events"] == calm_record["events"]
        assert record["returns"] == calm_record["returns"]
    assert not any(c.errors for c in clients), [c.errors for c in clients if c.errors][:3]
    # reconnecting clients sent resync and got what they missed (checked exactly by check_frames)
    resyncs = [m for c in clients for m in c.frames if m.get("type") == "state" and m.get("resync")]
    assert resyncs and any(m.get("missed", {}).get("events") for m in resyncs)


@pytest.mark.timeout(40)
def test_a_resent_action_id_takes_effect_once(server):
    """The same id sent three times (twice on one socket, once more on a new one) gets the same ack
    each time, and the action is applied once."""
    async def go():
        async with http_client(server) as http:
            t = await create_table(http, "watten", "euregio", ["human"] * 4, {"target": 3, "lock_at": 1})
            clients = seat_clients(server, t)
            for c in clients:
                await c.connect()
                await c.recv_until(lambda m: m.get("type") == "state", 10)
            mover = clients[clients[0].state["view"]["current_player"]]
            n0 = len(mover.state["view"]["actions"])
            action = sorted(mover.state["legal"])[0]
            aid = await mover.act(action)
            await mover.send({"type": "act", "id": aid, "action": action})
            answers = [await mover.recv_until(lambda m: m.get("id") == aid, 10) for _ in range(2)]
            await mover.close()
            again = SeatClient(server, t["table"], mover.token, seat=mover.seat)
            again.sent[aid] = action
            await again.connect()
            await again.send({"type": "act", "id": aid, "action": action})
            answers.append(await again.recv_until(lambda m: m.get("id") == aid, 10))
            assert [a["type"] for a in answers] == ["ack"] * 3, answers
            # exactly one change: the watcher's view is one action further than before, no more
            watch = SeatClient(server, t["table"], None)
            await watch.connect()
            now = await watch.recv_until(lambda m: m.get("type") == "state", 10)
            assert [a[1] for a in now["view"]["actions"]].count(action) == 1
            assert len(now["view"]["actions"]) == n0 + 1, now["view"]["actions"]
            for c in clients + [again, watch]:
                await c.close()

    run(go(), timeout=35)
