"""A dead owner's tables move within 3 s, and a restarted process takes its share back (issue #35,
"cluster joints").  Real ``stich serve --redis`` processes on one Postgres database and one
redis-server, with the default lease (``STICH_LEASE_SECONDS`` unset)."""

from __future__ import annotations

import asyncio
import time
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from stich.web.cluster.leases import lease_ttl
from tests.web.checks import check_acks_in_record, replay_ok
from tests.web.client import SeatClient, create_table, get_record, http_client, run, seat_clients, until
from tests.web.server import wait_until
from tests.web.test_botworkers import server_events

#: seconds from the owner's SIGKILL to an action on its table answered by another process: the lease
#: (2 s), one poll or renew period, the take; docs/scaling.md gives 1.55-2.04 s measured, "within 3 s".
#: The test allows the lease and 3 s of slack: a loaded machine (CI, two cores) stretches the take, the
#: restore and the answer, not the lease; a take that waited for anything else (a forwarded action's
#: 60 s give-up, presence gone stale, a second lease) still fails, and the take itself must come at once
#: when the lease ran out (TAKEN_WITHIN, from the new owner's log).
FAILOVER = lease_ttl() + 3.0
TAKEN_WITHIN = 1.5   # seconds after the lease ran out by which another process took the table (0-0.2 s seen)
ARGS = ("--bot-workers", "0")


def cluster(server_factory, redis_server, postgres, n: int = 2):
    db = postgres.new_database()
    return [server_factory(db, args=("--redis", redis_server.url, *ARGS)) for _ in range(n)]


def owned(srv) -> int:
    """``stich_tables_owned`` of one process (its single series: one node id per process)."""
    with urllib.request.urlopen(srv.base_url + "/metrics", timeout=10) as resp:
        text = resp.read().decode()
    for family in text_string_to_metric_families(text):
        if family.name == "stich_tables_owned":
            (sample,) = family.samples
            assert sample.labels["node"] not in ("", "local")
            return int(sample.value)
    raise AssertionError("no stich_tables_owned in /metrics")


@pytest.mark.timeout(120)
def test_a_killed_owners_table_answers_again_once_its_lease_ran_out(server_factory, redis_server, postgres):
    a, b = cluster(server_factory, redis_server, postgres)

    async def go():
        async with http_client(a) as http:   # a owns it; every seat plays on b
            t = await create_table(http, "watten", "euregio", ["human"] * 4, {"target": 5, "lock_at": 3},
                                   grace="never")
        clients = seat_clients(b, t, script_seed="failover")
        for c in clients:
            await c.connect()
        turn = {}

        async def held(c):   # play until the eighth action, then hold the seat that is to move
            async def think():
                if c.seq >= 8:
                    turn[c.seat] = c.state
                    await asyncio.Event().wait()
            await c.play(timeout=60, think=think)

        playing = [asyncio.ensure_future(held(c)) for c in clients]
        await until(lambda: turn, 30, "a seat to be held")
        for p in playing:
            p.cancel()
        (seat, st), = turn.items()
        mover = clients[seat]
        await asyncio.sleep(1.0)                 # a lease renewed at some moment of its period
        killed_at = time.monotonic()
        await asyncio.to_thread(a.kill9)
        aid = await mover.act(sorted(st["legal"])[0])
        answer = await mover.recv_until(lambda m: m.get("type") in ("ack", "error") and m.get("id") == aid,
                                        timeout=15)
        took = time.monotonic() - killed_at
        await asyncio.gather(*(c.play(timeout=60) for c in clients))
        async with http_client(b) as http:
            record = await get_record(http, t["table"])
        for c in clients:
            await c.close()
        return answer, took, record, clients

    answer, took, record, clients = run(go(), timeout=110)
    print(f"failover: action answered {took:.2f} s after the owner's SIGKILL")
    assert answer["type"] == "ack", answer
    assert took <= FAILOVER, f"the action was answered {took:.2f} s after the owner died"
    replay_ok(record)
    check_acks_in_record(record, clients)
    taken = server_events(b, "lease taken")
    assert taken and all(ev["expired_for"] < TAKEN_WITHIN for ev in taken), taken


@pytest.mark.timeout(150)
def test_a_restarted_process_takes_its_share_back(server_factory, redis_server, postgres):
    a, b = cluster(server_factory, redis_server, postgres)
    n = 8

    async def create():
        tables = []
        for i in range(n):   # half on each process: each owns the tables created on it
            async with http_client((a, b)[i % 2]) as http:
                tables.append(await create_table(http, "watten", "euregio", ["human", "bot:random"] * 2,
                                                 {"target": 3, "lock_at": 1}, grace="never"))
        return tables

    tables = run(create(), timeout=60)
    assert (owned(a), owned(b)) == (n // 2, n // 2)

    b.kill9()
    moved = time.monotonic()
    # (2.37-2.65 s measured: the lease and a sweep; the deadline only stops a hang on a loaded machine)
    wait_until(lambda: owned(a) == n, 30, "a to own every table")
    print(f"rebalance: a owned all {n} tables {time.monotonic() - moved:.2f} s after b's SIGKILL")

    b.start()   # a new process (a new node id) on the same database
    back = time.monotonic()
    shares = wait_until(lambda: (lambda x, y: (x, y) if x + y == n and min(x, y) >= n // 2 - 1 else None)(
        owned(a), owned(b)), 30, "b to take its share back")
    print(f"rebalance: shares {shares} {time.monotonic() - back:.2f} s after b's restart")
    assert "tables rebalanced" in a.stderr_tail(100_000)

    async def play_all():   # every table still plays, wherever it ended up, seats on either process
        clients = []
        for i, t in enumerate(tables):
            clients += [SeatClient((a, b)[(i + s["seat"]) % 2], t["table"], s["token"], seat=s["seat"],
                                   script_seed=f"share-{i}") for s in t["seats"] if s.get("token")]
        for c in clients:
            await c.connect()
        await asyncio.gather(*(c.play(timeout=90) for c in clients))
        records = []
        async with http_client(a) as http:
            for t in tables:
                records.append(await get_record(http, t["table"]))
        for c in clients:
            await c.close()
        return clients, records

    clients, records = run(play_all(), timeout=120)
    for t, record in zip(tables, records, strict=True):
        replay_ok(record)
        check_acks_in_record(record, [c for c in clients if c.table == t["table"]])
    assert owned(a) + owned(b) == 0
