"""kill -9 during concurrent matches: the server is killed at random moments and restarted on the same
database; the clients reconnect on their own (and resend what was not acknowledged).  Every match
finishes, every acknowledged action is in its record exactly once, and every record replays."""

from __future__ import annotations

import asyncio
import random
import signal

import pytest

from tests.web.checks import check_acks_in_record, check_frames, replay_ok
from tests.web.client import create_table, get_record, http_client, run, seat_clients
from tests.web.server import descendants, pid_alive, wait_until

TABLES = [
    ("watten", "euregio", {"target": 5, "lock_at": 3}, ["human", "human", "human", "bot:random"]),
    ("watten", "bavarian_4", {"target": 5, "lock_at": 3}, ["human", "human", "human", "human"]),
    ("battn", None, {"target": 3, "x_threshold": 2}, ["human", "bot:random", "human", "human"]),
    ("biscambiggia", None, {"hands_per_match": 2}, ["human", "human", "bot:random", "human", "human"]),
]


async def _all(*coros):
    await asyncio.gather(*coros)


async def kill_storm(srv, tables, kills: int, rng: random.Random, timeout: float = 100.0):
    progress = asyncio.Event()

    def on_frame(client, msg, raw):
        if msg.get("type") == "ack":
            progress.set()

    async with http_client(srv) as http:
        created = [await create_table(http, g, v, seats, opts) for g, v, opts, seats in tables]
    clients = [c for i, t in enumerate(created)
               for c in seat_clients(srv, t, script_seed=i, on_frame=on_frame)]
    for c in clients:
        await c.connect()
    players = asyncio.ensure_future(_all(*(c.play(timeout=timeout) for c in clients)))

    def acked() -> int:
        return sum(len(c.acked) for c in clients)

    # kill when the clients together have this many acks (random moments, driven by progress)
    total_guess = 20 * len(tables)   # well below the shortest run of these matches
    marks = sorted(rng.sample(range(3, total_guess), kills))
    done_kills = 0
    for mark in marks:
        while acked() < mark and not players.done():
            progress.clear()
            waiter = asyncio.ensure_future(progress.wait())
            done, _ = await asyncio.wait({waiter, players}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            if not done:
                raise AssertionError(f"no progress after {acked()} acks:\n{_stuck(clients)}\n"
                                     f"server stderr: {srv.stderr_tail(3000)}")
        if players.done():
            break
        await asyncio.sleep(rng.random() * 0.01)   # land between, or inside, commits
        await asyncio.to_thread(kill9_running, srv)
        done_kills += 1
        await asyncio.to_thread(srv.start)
    await players
    records = []
    async with http_client(srv) as http:
        for t in created:
            records.append(await get_record(http, t["table"]))
    for c in clients:
        await c.close()
    return created, clients, records, done_kills


def kill9_running(srv) -> list[int]:
    """SIGKILL the server, which must be running and must die of that signal: ``srv.kill9()`` alone returns
    quietly for a server that had already ended, and a kill that hit nothing would count as one.  Returns
    the server's child processes at that moment."""
    assert srv.proc is not None and srv.proc.poll() is None, \
        f"the server was not running when it was to be killed (exit status {srv.proc and srv.proc.returncode})"
    children = srv.kill9()
    assert srv.proc.returncode == -signal.SIGKILL, f"the server ended with {srv.proc.returncode}, not by SIGKILL"
    return children


def bot_workers(pid: int) -> list[int]:
    """The live bot worker processes below ``pid``: the bot pool's spawned children (``spawn_main`` in their
    command line; multiprocessing's resource tracker, also a child, is not one)."""
    return [p for p in descendants(pid) if pid_alive(p) and b"spawn_main" in _cmdline(p)]


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:   # it has just exited
        return b""


def _stuck(clients) -> str:
    return "\n".join(f"{c.table} seat {c.seat}: seq {c.seq} finished {c.finished} pending {c.pending} "
                     f"connects {c.connects} errors {c.errors[-1:]} last {c.raw[-1][:300] if c.raw else None}"
                     for c in clients if not c.finished or c.pending)


def _check(created, clients, records):
    for t, record in zip(created, records, strict=True):
        replay_ok(record)
        mine = [c for c in clients if c.table == t["table"]]
        check_acks_in_record(record, mine)
        for c in mine:
            check_frames(record, c)


@pytest.mark.timeout(150)
def test_kill9_sqlite_concurrent_matches(server_factory):
    srv = server_factory("sqlite")
    rng = random.Random(9)
    created, clients, records, kills = run(kill_storm(srv, TABLES, kills=3, rng=rng), timeout=140)
    assert kills >= 2, "the matches ended before the server could be killed twice"
    assert srv.starts == kills + 1
    _check(created, clients, records)
    assert sum(c.connects for c in clients) >= len(clients) * 2   # everyone reconnected at least once


@pytest.mark.timeout(150)
def test_kill9_postgres(server_factory):
    srv = server_factory("postgres")
    rng = random.Random(19)
    created, clients, records, kills = run(kill_storm(srv, TABLES[:2], kills=2, rng=rng), timeout=140)
    assert kills >= 1
    _check(created, clients, records)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
def test_bot_workers_end_with_their_server(server_factory, how):
    """A server's bot worker processes must not outlive it: after kill -9 nothing would ever stop
    them, and every crash would leave memory behind."""
    srv = server_factory("sqlite")

    async def one_bot_match():
        async with http_client(srv) as http:
            t = await create_table(http, "watten", "euregio", ["human", "bot:heuristic", "bot:random", "bot:random"],
                                   {"target": 3, "lock_at": 1})
            (c,) = seat_clients(srv, t)
            await c.play(timeout=30)
            await c.close()

    run(one_bot_match(), timeout=40)
    children = descendants(srv.pid)
    # without a bot worker found, every check below would pass on nothing
    assert bot_workers(srv.pid), f"no bot worker process below the server after a bot match " \
        f"(its children: {children})"
    if how == "SIGKILL":
        kill9_running(srv)
    else:
        status = srv.stop()
        # stop() falls back to SIGKILL after 10 s: then SIGTERM would not have been tested
        assert status is not None and status != -signal.SIGKILL, f"the server did not end on SIGTERM ({status})"
    try:
        wait_until(lambda: not [p for p in children if pid_alive(p)], 5.0, "the bot workers to exit")
    except TimeoutError:
        alive = [p for p in children if pid_alive(p)]
        raise AssertionError(f"{len(alive)} of the server's {len(children)} child processes outlived it "
                             f"({how}) by 5 s") from None
