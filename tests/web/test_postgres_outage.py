"""Postgres goes away for a long while under a cluster (issue #35, "cluster joints"): two ``stich serve
--redis`` processes on a Postgres cluster of this test's own, stopped with ``pg_ctl stop -m immediate``
for OUTAGE seconds and started again on the same port.

While it is away the tables keep answering: an action gets ``error`` with ``retry: true`` within
seconds (never silence), and its resend takes effect once Postgres is back; creating a table gets
``503`` JSON with ``Retry-After``; a socket that needs the database (a replica's, or a table not in
memory) is refused with an error frame and close code 1013; /readyz says 503.  Afterwards each
process counts exactly the sockets that are open (none of those that came and went during the
outage), the finished table leaves memory, and the match plays on."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import urllib.request

import pytest
import websockets
from prometheus_client.parser import text_string_to_metric_families

from tests.web.client import SeatClient, create_table, http_client, run
from tests.web.server import PG_BIN, PostgresCluster, postgres_available, redis_available
from tests.web.test_redis_outage import PatientClient

OUTAGE = 20.0       # seconds Postgres is away: ten lease times (2 s), far past any retry's wait
TOLD_WITHIN = 5.0   # seconds by which an action must be answered while the database is away
FINISHED = 5.0      # STICH_FINISHED_TABLE_SECONDS here: a finished table nobody watches leaves memory after it
EVICTED = FINISHED + 10.0   # seconds after its last socket closed by which a finished table must leave memory


NEW_TABLE = {"game": "watten", "variant": "euregio", "seats": ["human", "bot", "bot", "bot"]}


class StoppablePostgres(PostgresCluster):
    # This Postgres is crashed (stop -m immediate), so its commits must be durable as a real one's are:
    # with synchronous_commit=off a commit is answered before its WAL leaves Postgres's memory, the
    # crash lost the last acknowledged action now and then, and the server's next action left a gap
    # ("the log is broken at seq 8"). fsync may stay off: the machine itself does not crash.
    DURABILITY = "-c fsync=off -c synchronous_commit=on"

    def pause(self) -> None:
        self._pg("pg_ctl", "-D", str(self.dir / "data"), "-m", "immediate", "-w", "stop")

    def resume(self) -> None:
        self._pg("pg_ctl", "-D", str(self.dir / "data"), "-o", self.options(),
                 "-l", str(self.dir / "log"), "-w", "-t", "60", "start")


def gauges(srv) -> dict:
    with urllib.request.urlopen(srv.base_url + "/metrics", timeout=10) as resp:
        text = resp.read().decode()
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def sockets(srv) -> int:
    g = gauges(srv)
    return int(g[("stich_sockets", (("role", "player"),))] + g[("stich_sockets", (("role", "spectator"),))])


def finished_tables(srv) -> int:
    return int(gauges(srv)[("stich_tables", (("state", "finished"),))])


async def refused_or_served(url: str) -> tuple[str, object]:
    """Open a socket during the outage: ("served", first frame) or ("refused", (close code, error frame))."""
    async with websockets.connect(url, open_timeout=10) as ws:
        first = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if first.get("type") == "error":
            with contextlib.suppress(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 10)
            return "refused", (ws.close_code, first)
        return "served", first


async def scenario(a, b, pg: StoppablePostgres) -> dict:
    out: dict = {}
    async with http_client(a) as http:
        # H: four people, seats 0 and 1 on a, 2 and 3 on b
        h = await create_table(http, "watten", "euregio", ["human"] * 4, {"target": 11}, grace="never")
        # F: a short match, over before the outage, still watched from both processes
        f = await create_table(http, "watten", "euregio", ["human", "bot:random", "bot:random", "bot:random"],
                               {"target": 3, "lock_at": 1}, grace="never")
    players = [PatientClient((a, a, b, b)[s["seat"]], h["table"], s["token"], seat=s["seat"], script_seed="pg")
               for s in h["seats"]]
    f_player = SeatClient(a, f["table"], f["seats"][0]["token"], seat=0, script_seed="f")
    f_watchers = [SeatClient(srv, f["table"]) for srv in (a, b)]
    for c in (*players, f_player, *f_watchers):
        await c.connect()
    await f_player.play(timeout=60)
    for w in f_watchers:
        await w.recv_until(lambda m: m.get("type") == "state" and m["finished"], timeout=20)

    held = asyncio.Event()

    async def hold():   # everyone plays until seq 6, then the one to move waits
        if min(c.seq for c in players) >= 6 or held.is_set():
            held.set()
            await asyncio.Event().wait()

    playing = [asyncio.ensure_future(c.play(timeout=300, think=hold)) for c in players]
    await asyncio.wait_for(held.wait(), 30)
    await asyncio.sleep(0.3)
    for p in playing:   # stopped before anything else: a play loop left running would reconnect
        p.cancel()
    await asyncio.gather(*playing, return_exceptions=True)
    seq_before = max(c.seq for c in players)
    mover = next(c for c in players if c.state["legal"] and c.state["view"]["current_player"] == c.seat)
    out["sockets_before"] = (sockets(a), sockets(b))

    # --- Postgres away ---
    await asyncio.to_thread(pg.pause)
    down_at = time.monotonic()
    for c in (f_player, *f_watchers):   # F's sockets close during the outage
        await c.close()
    act_at = time.monotonic()
    aid = await mover.act(sorted(mover.state["legal"])[0])
    told = await mover.recv_until(lambda m: m.get("type") == "error" and m.get("id") == aid, timeout=TOLD_WITHIN)
    out["told_after"] = time.monotonic() - act_at
    out["told"] = told
    async with http_client(a) as http:
        created = await http.post("/api/tables", json=NEW_TABLE)
        out["create"] = (created.status_code, created.headers.get("retry-after"), created.json())
        out["readyz"] = (await http.get("/readyz")).status_code
    async with http_client(b) as http:
        created = await http.post("/api/tables", json=NEW_TABLE)
        out["create_b"] = (created.status_code, created.headers.get("retry-after"), created.json())
    # sockets that come and go while the database is away: to H on its owner (served from memory) and
    # on b (its replica must read the log first: refused), to a table no process has in memory, and a
    # connection cut without a close
    seat = h["seats"][mover.seat]["token"]
    out["during"] = []
    for srv in (a, b):
        for _ in range(3):
            out["during"].append(await refused_or_served(
                f"{srv.ws_url}/ws/tables/{h['table']}?token={seat}"))
        # and a spectator of the finished F (a connection counted for ever would keep it in memory)
        out["during"].append(await refused_or_served(f"{srv.ws_url}/ws/tables/{f['table']}"))
    dropped = SeatClient(b, h["table"])
    with contextlib.suppress(Exception):
        await dropped.connect(deadline=5)
        await dropped.drop()
    out["unknown"] = await refused_or_served(f"{b.ws_url}/ws/tables/nosuchtable00")
    await asyncio.sleep(max(0.0, OUTAGE - (time.monotonic() - down_at)))

    # --- Postgres back ---
    await asyncio.to_thread(pg.resume)
    back_at = time.monotonic()
    await mover.recv_until(lambda m: m.get("type") == "ack" and m.get("id") == aid, timeout=20)
    out["acked_after"] = time.monotonic() - back_at
    out["resends"] = mover.resends
    # the match plays on: ten more actions, across both processes
    target = seq_before + 10

    async def stop_at_target():   # the match must not end here: H stays a table in play
        if min(c.seq for c in players) >= target:
            await asyncio.Event().wait()

    playing = [asyncio.ensure_future(c.play(timeout=60, think=stop_at_target)) for c in players]
    while min(c.seq for c in players) < target:
        await asyncio.sleep(0.05)
    for p in playing:   # stopped before anything else: a play loop left running would reconnect
        p.cancel()
    await asyncio.gather(*playing, return_exceptions=True)
    out["seq_after"] = min(c.seq for c in players)
    await asyncio.sleep(1.0)
    out["sockets_after"] = (sockets(a), sockets(b))   # H's four players are all that is open
    closed_at = time.monotonic()
    for c in players:
        await c.close()
    end = closed_at + EVICTED
    while finished_tables(a) + finished_tables(b) and time.monotonic() < end:
        await asyncio.sleep(1.0)
    out["finished_left"] = (finished_tables(a), finished_tables(b))
    out["sockets_end"] = (sockets(a), sockets(b))
    out["closed_wait"] = time.monotonic() - closed_at
    return out


@pytest.mark.timeout(240)
@pytest.mark.skipif(not (postgres_available() and redis_available()), reason="needs Postgres and redis-server")
def test_a_long_postgres_outage(server_factory, redis_server):
    assert (PG_BIN / "pg_ctl").exists()
    pg = StoppablePostgres().start()
    try:
        db = pg.new_database()
        args = ("--redis", redis_server.url, "--bot-workers", "0")
        env = {"STICH_FINISHED_TABLE_SECONDS": str(FINISHED)}
        a, b = (server_factory(db, args=args, env=env) for _ in range(2))
        out = run(scenario(a, b, pg), timeout=220)
    finally:
        pg.stop()
    print({k: v for k, v in out.items() if k not in ("during",)})
    tails = f"--- a:\n{a.stderr_tail(3000)}\n--- b:\n{b.stderr_tail(3000)}"

    # while it was away: every action answered (retry), creation 503 with Retry-After, sockets refused
    # with 1013 where the database was needed
    assert out["told"].get("retry") is True and "same id" in out["told"]["message"], out["told"]
    assert out["told_after"] < TOLD_WITHIN
    for status, retry_after, body in (out["create"], out["create_b"]):
        assert status == 503 and retry_after and int(retry_after) > 0 and "database" in body["error"], tails
    assert out["readyz"] == 503
    # H's and F's owner serves them from memory (whichever process owns each by now: the cluster
    # balances its two tables); the other process's replica would have to read the log first
    served = [first for how, first in out["during"] if how == "served"]
    refused = [first for how, first in out["during"] if how == "refused"]
    assert len(served) == 4 and all(f["type"] == "seats" for f in served), out["during"]
    assert len(refused) == 4 and all(code == 1013 and "database" in frame["message"] for code, frame in refused)
    assert out["unknown"][0] == "refused" and out["unknown"][1][0] == 1013

    # afterwards: the resend took effect once, play went on, and the counts are the real ones
    assert out["resends"] >= 1 and out["acked_after"] < 10
    assert out["seq_after"] >= 16
    assert sum(out["sockets_after"]) == 4, (out["sockets_before"], out["sockets_after"], tails)
    assert out["sockets_end"] == (0, 0), "\n".join(
        f"--- {name}:\n" + "\n".join(line for line in s.stderr_tail(200_000).splitlines()
                                      if "connected" in line or "lease" in line or "rebalanced" in line)
        for name, s in (("a", a), ("b", b)))
    assert out["finished_left"] == (0, 0), tails
