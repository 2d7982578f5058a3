"""Redis goes away in the middle of matches: two ``stich serve --redis`` processes on one Postgres
database, and a redis-server of this test's own that is SIGKILLed and started again on the same port.

What a player must see: the clients of a table's own process play on; a client on another process
whose action cannot be forwarded gets, within seconds, an error that says to send it again with the
same id (never silence), and that resend takes effect once Redis is back; connections on the other
process catch up from the database log as soon as Redis is back, without waiting for a new action;
``/readyz`` says 503 while Redis is away; every match finishes, and the records equal those of an
undisturbed run with the same deals and the same scripted choices."""

from __future__ import annotations

import asyncio
import contextlib
import math
import time

import pytest

from tests.web.checks import check_acks_in_record, check_frames, replay_ok
from tests.web.client import SeatClient, create_table, get_record, http_client, run
from tests.web.server import RedisServer, redis_available

# Long leases: no table changes owner during the test, so whatever happens is Redis's going and coming;
# and the renew period (a third of the lease), with its "owner seq" message that also lets a replica
# catch up, never comes during the test: catching up is the reconnection's doing.
ENV = {"STICH_TEST_HOOKS": "1", "STICH_LEASE_SECONDS": "600"}
OUTAGE = 4.5        # seconds Redis is away: longer than a forwarded action's wait (REDIS_WAIT, 3 s)
TOLD_WITHIN = 10.0  # seconds by which a client whose action cannot be forwarded must hear so

# (game, variant, options, seats, deal seed): each seat's client on the owner's process or the other one
HUMAN_TABLES = [
    ("watten", "euregio", {"target": 5, "lock_at": 3}, 4, 5_118_230_771_001),
    ("battn", None, {"target": 3, "x_threshold": 2}, 4, 5_118_230_771_002),
]


class PatientClient(SeatClient):
    """A client that does what the error frame's ``retry`` asks: keeps the action pending and sends it
    again, same id, a moment later (as often as it is told)."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.told_retry: list[tuple[float, dict]] = []
        self._tasks: set[asyncio.Task] = set()

    def _receive(self, text: str) -> dict:
        pending = self.pending
        msg = super()._receive(text)
        if msg.get("type") == "error" and msg.get("retry") and pending is not None and msg.get("id") == pending[0]:
            self.pending = pending
            self.told_retry.append((time.monotonic(), msg))
            task = asyncio.get_running_loop().create_task(self._resend(pending[0]))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return msg

    async def _resend(self, aid: str) -> None:
        await asyncio.sleep(0.3)
        if self.pending is not None and self.pending[0] == aid and self.ws is not None:
            self.resends += 1
            with contextlib.suppress(Exception):   # a closed socket: connect() resends it anyway
                await self.send({"type": "act", "id": aid, "action": self.pending[1]})


class Turns:
    """How many more decisions a client may take now: at none it waits (``waiting`` set), and as only
    that seat is to move then, its table stands still."""

    def __init__(self):
        self.left: float = 0
        self.changed = asyncio.Event()
        self.waiting = asyncio.Event()

    def allow(self, n: float) -> None:
        self.left = n
        self.waiting.clear()
        self.changed.set()

    async def think(self) -> None:
        while self.left <= 0:
            self.waiting.set()
            self.changed.clear()
            await self.changed.wait()
        self.left -= 1


async def start_human_tables(servers) -> tuple[list[dict], list[PatientClient]]:
    """The human tables, created alternately on each process, every other seat's client on the other."""
    created, clients = [], []
    for t, (game, variant, options, n, seed) in enumerate(HUMAN_TABLES):
        async with http_client(servers[t % 2]) as http:
            created.append(await create_table(http, game, variant, ["human"] * n, options, test={"seed": seed}))
        for s in created[-1]["seats"]:
            clients.append(PatientClient(servers[(s["seat"] + t) % 2], created[-1]["table"], s["token"],
                                         seat=s["seat"], script_seed=f"outage-{seed}"))
    for c in clients:
        await c.connect()
    return created, clients


async def records_of(server, created) -> list[dict]:
    async with http_client(server) as http:
        return [await get_record(http, t["table"], timeout=20) for t in created]


async def readyz(server) -> tuple[int, dict]:
    async with http_client(server) as http:
        r = await http.get("/readyz")
        return r.status_code, r.json()


async def ready_again(server, timeout: float = 15.0) -> float:
    """Seconds until /readyz says 200 again."""
    start = time.monotonic()
    while (await readyz(server))[0] != 200:
        if time.monotonic() - start > timeout:
            raise AssertionError(f"/readyz of {server.base_url} not 200 within {timeout}s")
        await asyncio.sleep(0.1)
    return time.monotonic() - start


async def wait_for(predicate, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(0.02)


async def outage(a, b, redis: RedisServer) -> dict:
    servers = [a, b]
    # 1. the undisturbed run
    created, clients = await start_human_tables(servers)
    await asyncio.wait_for(asyncio.gather(*(c.play(timeout=60) for c in clients)), 70)
    calm = await records_of(a, created)
    for c in clients:
        await c.close()

    # 2. the same deals and choices, and two probes, all owned by process a
    created, clients = await start_human_tables(servers)
    async with http_client(a) as http:
        # F: its human seat's client is on b, so every action of it is forwarded
        f_table = await create_table(http, "watten", "euregio", ["human"] + ["bot:random"] * 3,
                                     {"target": 3, "lock_at": 1})
        # C: its human plays on a, a spectator watches on b (a long match: it must not end meanwhile)
        c_table = await create_table(http, "watten", "euregio", ["human"] + ["bot:random"] * 3, {"target": 11})
    f = PatientClient(b, f_table["table"], f_table["seats"][0]["token"], seat=0, script_seed="f")
    c0 = PatientClient(a, c_table["table"], c_table["seats"][0]["token"], seat=0, script_seed="c")
    spectator = SeatClient(b, c_table["table"])
    for c in (f, c0, spectator):
        await c.connect()
    turns = Turns()
    playing = [asyncio.ensure_future(c.play(timeout=120)) for c in clients]
    c_playing = asyncio.ensure_future(c0.play(timeout=120, think=turns.think))
    watching = asyncio.ensure_future(spectator.follow(timeout=120))
    f_turn = await f.recv_until(lambda m: m.get("type") == "state" and m["view"]["current_player"] == 0
                                and m["legal"], timeout=20)
    await wait_for(lambda: sum(len(c.acked) for c in clients) >= 10, 30, "the human tables under way")
    await asyncio.wait_for(turns.waiting.wait(), 20)
    ready_before = [await readyz(s) for s in servers]

    # 3. Redis away
    in_play = sum(1 for c in clients if not c.finished)
    await asyncio.to_thread(redis.proc.kill)
    await asyncio.to_thread(redis.proc.wait, 10)
    down_at = time.monotonic()
    turns.allow(4)                                               # C plays on at its owner, a
    act_at = time.monotonic()
    aid = await f.act(sorted(f_turn["legal"])[0])                # F's action needs Redis to reach a
    f_error = await f.recv_until(lambda m: m.get("type") == "error" and m.get("id") == aid, timeout=TOLD_WITHIN)
    told_after = time.monotonic() - act_at
    not_ready = [await readyz(s) for s in servers]
    await asyncio.wait_for(turns.waiting.wait(), 20)             # C stands still, at its human's turn
    c_seq, spectator_seq = c0.seq, spectator.seq
    await asyncio.sleep(max(0.0, OUTAGE - (time.monotonic() - down_at)))

    # 4. Redis back, on the same port
    await asyncio.to_thread(redis.start)
    back_at = time.monotonic()
    await wait_for(lambda: spectator.seq >= c_seq, 10, "the spectator on b to catch up with the log")
    caught_up_after = time.monotonic() - back_at
    assert c0.seq == c_seq, "C moved while its human was held: the catch-up could have come from a new action"
    turns.allow(math.inf)
    ready_after = [await ready_again(s) for s in servers]
    await asyncio.wait_for(asyncio.gather(*playing, c_playing, watching, f.play(timeout=60)), 90)
    records = await records_of(b, created)
    probes = await records_of(b, [f_table, c_table])
    for c in (*clients, f, c0, spectator):
        await c.close()
    return dict(in_play=in_play, calm=calm, records=records, created=created, clients=clients, f=f, f_error=f_error,
                told_after=told_after, c0=c0, spectator=spectator, c_seq=c_seq, spectator_seq=spectator_seq,
                caught_up_after=caught_up_after, probes=probes, ready_before=ready_before, not_ready=not_ready,
                ready_after=ready_after)


@pytest.mark.skipif(not redis_available(), reason="redis-server not installed")
def test_redis_killed_and_back(server_factory, postgres):
    redis = RedisServer().start()
    try:
        db = postgres.new_database()
        args = ("--redis", redis.url, "--bot-workers", "0")
        a, b = (server_factory(db, env=ENV, args=args) for _ in range(2))
        out = run(outage(a, b, redis), timeout=240)
    finally:
        redis.stop()
    tails = "\n".join(f"--- {name}:\n{s.stderr_tail(3000)}" for name, s in (("a", a), ("b", b)))

    # readiness follows Redis
    assert [st for st, _ in out["ready_before"]] == [200, 200]
    assert [st for st, _ in out["not_ready"]] == [503, 503], out["not_ready"]
    assert all("redis unavailable" in body["error"] for _, body in out["not_ready"])

    # the forwarded action: a clear error within seconds, then one effect once Redis is back
    f, err = out["f"], out["f_error"]
    assert err.get("retry") is True and "same id" in err["message"], err
    assert out["told_after"] < TOLD_WITHIN
    assert f.pending is None and err["id"] in f.acked_ids, "the resent action was never acknowledged"
    [f_record, c_record] = out["probes"]
    replay_ok(f_record)
    check_acks_in_record(f_record, [f])
    check_frames(f_record, f)

    # the replica's connection missed what C's owner committed meanwhile, and caught up from the log
    # as soon as Redis was back (C stood still: no new action could have told it)
    assert out["spectator_seq"] < out["c_seq"], "nothing was committed at a while Redis was away"
    replay_ok(c_record)
    check_acks_in_record(c_record, [out["c0"]])
    for c in (out["c0"], out["spectator"]):
        check_frames(c_record, c)

    # the human tables: under way when Redis went, finished, every ack once, every frame right, and the
    # same as undisturbed
    assert out["in_play"] > 0, "the human tables were over before Redis went away"
    for t, record in zip(out["created"], out["records"], strict=True):
        replay_ok(record)
        mine = [c for c in out["clients"] if c.table == t["table"]]
        check_acks_in_record(record, mine)
        for c in mine:
            check_frames(record, c)
    for before, after in zip(out["calm"], out["records"], strict=True):
        assert {k: v for k, v in after.items() if k != "web"} == {k: v for k, v in before.items() if k != "web"}
    for s in (a, b):
        log = s.stderr_tail(200_000)
        assert "redis away" in log and "redis back" in log, tails
