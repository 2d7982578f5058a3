"""Chaos: three ``stich serve --redis`` processes on one Postgres database and one redis-server, all real
and started here.  Concurrent matches are played by simulated clients that connect to a random process
at every (re)connect; one process at a time is SIGKILLed at random moments and restarted.

Every match finishes, every acknowledged action is in its record exactly once, every frame a seat got is
one its seat may see, the records replay, and the records of the human tables equal those of an
undisturbed run of the same deals and the same scripted choices (played first, on the same cluster).
Bot tables are in the storm too; their bots' seeds are secret per table, so they are compared with
nothing, only checked."""

from __future__ import annotations

import asyncio
import random

from tests.web.checks import check_acks_in_record, check_frames, replay_ok
from tests.web.client import create_table, get_record, http_client, run, seat_clients

LEASE = "2"   # seconds: a killed owner's tables wait at most this long for a new owner
ENV = {"STICH_TEST_HOOKS": "1", "STICH_LEASE_SECONDS": LEASE}

HUMAN_TABLES = [
    ("watten", "euregio", {"target": 5, "lock_at": 3}, ["human"] * 4, 7_340_912_345_611),
    ("watten", "bavarian_4", {"target": 5, "lock_at": 3}, ["human"] * 4, 7_340_912_345_612),
    ("battn", None, {"target": 3, "x_threshold": 2}, ["human"] * 4, 7_340_912_345_613),
    ("biscambiggia", None, {"hands_per_match": 2}, ["human"] * 5, 7_340_912_345_614),
    ("watten", "euregio", {"target": 5, "lock_at": 3}, ["human"] * 4, 7_340_912_345_615),
]
BOT_TABLES = [
    ("watten", "euregio", {"target": 5, "lock_at": 3}, ["human", "bot:random", "human", "bot:random"],
     7_340_912_345_621),
    ("battn", None, {"target": 3, "x_threshold": 2}, ["bot:random", "human", "human", "bot:random"], 7_340_912_345_622),
]


class Anywhere:
    """What a client connects to: a random one of the running processes, chosen again at every connect
    (a load balancer without stickiness)."""

    def __init__(self, servers, rng: random.Random):
        self.servers = servers
        self.rng = rng

    @property
    def ws_url(self) -> str:
        alive = [s for s in self.servers if s.alive and s.base_url] or self.servers
        return self.rng.choice(alive).ws_url


async def play_tables(servers, tables, rng: random.Random, on_frame=None, think=None):
    """Create ``tables`` on random processes (with chosen deals), connect every human seat to a random
    process, and start playing (``think``: awaited before each action); returns (created, clients, the
    playing task)."""
    created = []
    for game, variant, options, seats, seed in tables:
        async with http_client(rng.choice(servers)) as http:
            created.append(await create_table(http, game, variant, seats, options, test={"seed": seed}))
    clients = []
    for (*_rest, seed), t in zip(tables, created, strict=True):
        for c in seat_clients(Anywhere(servers, rng), t, script_seed=f"chaos-{seed}", on_frame=on_frame):
            clients.append(c)
    for c in clients:
        await c.connect()
    task = asyncio.ensure_future(asyncio.gather(*(c.play(timeout=120, think=think) for c in clients)))
    return created, clients, task


async def records_of(servers, created) -> list[dict]:
    out = []
    for t in created:
        async with http_client(next(s for s in servers if s.alive)) as http:
            out.append(await get_record(http, t["table"], timeout=20))
    return out


async def chaos(servers, kills: int, rng: random.Random):
    # 1. the undisturbed run: the human tables, no kills
    created, clients, task = await play_tables(servers, HUMAN_TABLES, rng)
    await task
    calm = await records_of(servers, created)
    calm_acks = sum(len(c.acked) for c in clients)   # the storm's human tables take as many again
    for c in clients:
        await c.close()

    # 2. the storm: the same deals and scripted choices, and bot tables, while processes die
    progress = asyncio.Event()

    def on_frame(client, msg, raw):
        if msg.get("type") == "ack":
            progress.set()

    # Kills at acks the human tables alone reach before they finish (a guess such as 25 a table
    # overshot the scripted matches now and then, and the storm ended before its second kill).
    marks = sorted(rng.sample(range(5, calm_acks), kills))
    up = asyncio.Event()   # no process is down (one is killed at a time)
    up.set()

    async def one_kill_at_a_time():
        # The storm plays on while a killed process restarts, up to the next kill's mark, and waits
        # there: a quiet machine plays the whole storm in under 2 s, faster than a restart, and the
        # matches ended before the second kill.
        while not up.is_set() and marks and acked() >= marks[0]:
            await up.wait()

    created, clients, task = await play_tables(servers, HUMAN_TABLES + BOT_TABLES, rng, on_frame,
                                               think=one_kill_at_a_time)

    def acked() -> int:
        return sum(len(c.acked) for c in clients)

    killed = []
    while marks:
        mark = marks.pop(0)
        while acked() < mark and not task.done():
            progress.clear()
            waiter = asyncio.ensure_future(progress.wait())
            done, _ = await asyncio.wait({waiter, task}, timeout=20, return_when=asyncio.FIRST_COMPLETED)
            waiter.cancel()
            if not done:
                raise AssertionError(f"no progress after {acked()} acks:\n{stuck(clients)}\n{tails(servers)}")
        if task.done():
            break
        victim = rng.choice(servers)
        await asyncio.sleep(rng.random() * 0.05)   # between commits, or inside one
        up.clear()
        await asyncio.to_thread(victim.kill9)
        killed.append(victim)
        await asyncio.sleep(rng.random() * 1.0)    # down for a moment: its clients go elsewhere
        await asyncio.to_thread(victim.start)
        up.set()
    try:
        await asyncio.wait_for(asyncio.shield(task), 150)
    except TimeoutError:
        raise AssertionError(f"matches did not finish:\n{stuck(clients)}\n{tails(servers)}") from None
    records = await records_of(servers, created)
    for c in clients:
        await c.close()
    return calm, created, clients, records, killed


def stuck(clients) -> str:
    return "\n".join(f"{c.table} seat {c.seat}: seq {c.seq} finished {c.finished} pending {c.pending} "
                     f"connects {c.connects} errors {c.errors[-1:]}" for c in clients if not c.finished or c.pending)


def tails(servers) -> str:
    return "\n".join(f"--- server {i} (start {s.starts}):\n{s.stderr_tail(1500)}" for i, s in enumerate(servers))


def test_chaos_three_processes_one_killed_at_random(server_factory, redis_server, postgres):
    db = postgres.new_database()
    args = ("--redis", redis_server.url, "--bot-workers", "0")
    servers = [server_factory(db, env=ENV, args=args) for _ in range(3)]
    rng = random.Random(16)
    calm, created, clients, records, killed = run(chaos(servers, kills=3, rng=rng), timeout=280)
    assert len(killed) == 3, "the matches ended before three processes could be killed"
    for t, record in zip(created, records, strict=True):
        replay_ok(record)
        mine = [c for c in clients if c.table == t["table"]]
        check_acks_in_record(record, mine)
        for c in mine:
            try:
                check_frames(record, c)
            except AssertionError as exc:
                raise AssertionError(f"{exc}\nconnections (frames before, server): {c.connected_to}\n"
                                     f"seqs: {[(i, f.get('seq')) for i, f in enumerate(c.frames) if 'seq' in f]}\n"
                                     f"{tails(servers)}") from None
    for before, after in zip(calm, records[:len(HUMAN_TABLES)], strict=True):
        assert {k: v for k, v in after.items() if k != "web"} == {k: v for k, v in before.items() if k != "web"}
    # the clients did meet dead processes and carried on elsewhere
    assert sum(c.connects for c in clients) > len(clients)
