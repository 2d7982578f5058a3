"""Load on the table server: T tables of simulated clients on loopback, through the public protocol.

Modes:
  humans  four human seats per table, one client each; each table acts at --rate actions/s
          (the seat to act waits about 1/rate s, jittered, then plays a random legal action)
  bots    one human seat (paced the same way) and bots in the other seats (--bot, no bot delay)

Prints the actions per second the server carried, the action-to-update latency (from sending an
action to receiving the state frame that shows it: the mover's own frame, and in humans mode the
last of the table's four frames), the server's CPU (its process and its bot workers, as % of one
core) and resident memory, and this client's own CPU (on a small machine the simulated clients
compete with the server: read the figures with that in mind).  A finished match is replaced by a
new table, so T tables stay busy for the whole run.

Run (starts its own server on a temporary SQLite file unless --url is given):
    python benchmarks/web_load.py --tables 50 --mode humans --rate 1 --duration 30
    python benchmarks/web_load.py --tables 200 --mode bots --duration 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import websockets
from websockets.exceptions import ConnectionClosed

CLK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


# --- the server and its processes -------------------------------------------------------------------
def start_server(db: str, bot_workers: int | None) -> tuple[subprocess.Popen, str]:
    stich = str(Path(sys.executable).with_name("stich"))
    cmd = [stich, "serve", "--host", "127.0.0.1", "--port", "0", "--db", db]
    if bot_workers is not None:
        cmd += ["--bot-workers", str(bot_workers)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
    found: list[str] = []
    ready = threading.Event()

    def pump():
        for line in proc.stdout:
            m = re.search(r"stich serving on (http://\S+)", line)
            if m and not found:
                found.append(m.group(1))
                ready.set()
        ready.set()

    threading.Thread(target=pump, daemon=True).start()
    if not ready.wait(60) or not found:
        proc.kill()
        raise SystemExit("stich serve did not start")
    return proc, found[0]


def process_tree(pid: int) -> list[int]:
    parent = {}
    for e in os.listdir("/proc"):
        if e.isdigit():
            try:
                parent[int(e)] = int(open(f"/proc/{e}/stat").read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError):
                pass
    out, todo = [pid], [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        out += kids
        todo += kids
    return out


def cpu_seconds(pids) -> float:
    total = 0
    for p in pids:
        try:
            f = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
            total += int(f[11]) + int(f[12])   # utime, stime
        except (OSError, IndexError):
            pass
    return total / CLK


def rss_mib(pids) -> float:
    total = 0
    for p in pids:
        try:
            total += int(open(f"/proc/{p}/statm").read().split()[1]) * PAGE
        except (OSError, IndexError):
            pass
    return total / 2**20


# --- the simulated tables --------------------------------------------------------------------------------
class Stats:
    def __init__(self):
        self.measuring = False
        self.actions = 0          # actions acknowledged to our clients while measuring
        self.moves = 0            # all actions (ours and bots') seen by the table's first client
        self.lat_self: list[float] = []
        self.lat_all: list[float] = []
        self.errors = 0
        self.matches = 0


class Table:
    """One table: its clients, paced by ``rate`` actions per second."""

    def __init__(self, run: Run, rng: random.Random):
        self.run = run
        self.rng = rng

    async def loop(self) -> None:
        while not self.run.stop.is_set():
            try:
                await self.one_match()
            except (ConnectionClosed, OSError, TimeoutError, httpx.HTTPError) as exc:
                self.run.stats.errors += 1
                if self.run.args.verbose:
                    print("table error:", repr(exc), file=sys.stderr)
                await asyncio.sleep(1)

    async def one_match(self) -> None:
        args, stats = self.run.args, self.run.stats
        seats = ["human"] * 4 if args.mode == "humans" else ["human"] + [f"bot:{args.bot}"] * 3
        r = await self.run.http.post("/api/tables", json={
            "game": args.game, "variant": args.variant, "seats": seats, "options": {}, "bot_delay": 0})
        r.raise_for_status()
        created = r.json()
        tokens = [s["token"] for s in created["seats"] if s.get("token")]
        ws_base = self.run.ws_url
        conns = [await websockets.connect(f"{ws_base}/ws/tables/{created['table']}?token={t}&format=json",
                                          max_size=2**24, ping_interval=None) for t in tokens]
        sent: dict[int, float] = {}         # seq acted on -> time sent (by the table's mover)
        arrived: dict[int, int] = {}        # seq -> how many of our clients have it
        done = asyncio.Event()

        async def seat(ws, first: bool):
            try:
                await play_seat(ws, first)
            except ConnectionClosed:
                if not (done.is_set() or self.run.stop.is_set()):
                    raise

        async def play_seat(ws, first: bool):
            last_seq = -1
            acted_on = -1
            waiting = None
            while not self.run.stop.is_set():
                raw = await asyncio.wait_for(ws.recv(), 60)
                msg = json.loads(raw)
                t = msg.get("type")
                now = time.perf_counter()
                if t == "error":
                    stats.errors += 1
                    continue
                if t == "ack":
                    if stats.measuring:
                        stats.actions += 1
                    continue
                if t != "state" or msg["seq"] <= last_seq:
                    continue
                seq = msg["seq"]
                if first and stats.measuring:
                    stats.moves += seq - max(last_seq, 0) if last_seq >= 0 else 0
                last_seq = seq
                for s0, t0 in list(sent.items()):
                    if seq > s0:
                        arrived[s0] = arrived.get(s0, 0) + 1
                        if waiting == s0:
                            if stats.measuring:
                                stats.lat_self.append(now - t0)
                            waiting = None
                        if arrived[s0] == len(conns):
                            if stats.measuring and len(conns) > 1:
                                stats.lat_all.append(now - t0)
                            del sent[s0], arrived[s0]
                if msg.get("finished") or msg["view"].get("terminal"):
                    done.set()
                    return
                # the simulated player acts on its turn only: out-of-turn decisions (a Euregio request,
                # a re-raise) would race the seat on turn and measure refusals, not play
                on_turn = msg["view"].get("current_player") == msg.get("seat")
                legal = (msg.get("legal") or []) if on_turn else []
                if legal and seq > acted_on:
                    acted_on = seq
                    await asyncio.sleep(self.rng.uniform(0.5, 1.5) / args.rate)
                    sent[seq] = time.perf_counter()
                    waiting = seq
                    await ws.send(json.dumps({"type": "act", "id": f"{id(ws)}-{seq}",
                                              "action": self.rng.choice(legal)}))

        tasks = [asyncio.create_task(seat(ws, i == 0)) for i, ws in enumerate(conns)]
        waiters = [asyncio.create_task(done.wait()), asyncio.create_task(self.run.stop.wait())]
        try:
            finished, _ = await asyncio.wait(tasks + waiters, return_when=asyncio.FIRST_COMPLETED)
            for t in finished:
                if t in tasks and t.exception() is not None:
                    raise t.exception()
            stats.matches += done.is_set()
        finally:
            for t in tasks + waiters:
                t.cancel()
            for ws in conns:
                await ws.close()


class Run:
    def __init__(self, args, base_url: str):
        self.args = args
        self.base_url = base_url
        self.ws_url = "ws" + base_url[len("http"):]
        self.stop = asyncio.Event()
        self.stats = Stats()
        self.http: httpx.AsyncClient | None = None


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


async def main_async(args, base_url: str, server_pid: int | None) -> dict:
    run = Run(args, base_url)
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=base_url, timeout=60, limits=limits) as http:
        run.http = http
        rng = random.Random(args.seed)
        tables = [Table(run, random.Random(rng.random())) for _ in range(args.tables)]
        tasks = [asyncio.create_task(t.loop()) for t in tables]
        await asyncio.sleep(args.warmup)
        pids = process_tree(server_pid) if server_pid else []
        cpu0, wall0, me0 = cpu_seconds(pids), time.perf_counter(), time.process_time()
        run.stats.measuring = True
        rss_peak = 0.0
        end = wall0 + args.duration
        while time.perf_counter() < end:
            await asyncio.sleep(1)
            if server_pid:
                pids = process_tree(server_pid)
                rss_peak = max(rss_peak, rss_mib(pids))
        run.stats.measuring = False
        wall = time.perf_counter() - wall0
        cpu = cpu_seconds(pids) - cpu0 if server_pid else float("nan")
        me = time.process_time() - me0
        run.stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    s = run.stats
    return {
        "tables": args.tables, "mode": args.mode, "rate": args.rate, "seconds": round(wall, 1),
        "acked_actions_per_s": round(s.actions / wall, 1),
        "table_actions_per_s": round(s.moves / wall, 1),
        "p50_ms": round(1000 * pct(s.lat_self, 0.5), 1), "p99_ms": round(1000 * pct(s.lat_self, 0.99), 1),
        "p50_all_ms": round(1000 * pct(s.lat_all, 0.5), 1), "p99_all_ms": round(1000 * pct(s.lat_all, 0.99), 1),
        "server_cpu_pct": round(100 * cpu / wall, 1), "server_rss_mib": round(rss_peak, 1),
        "client_cpu_pct": round(100 * me / wall, 1), "matches_finished": s.matches, "errors": s.errors,
        "samples": len(s.lat_self),
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--mode", choices=["humans", "bots"], default="humans")
    ap.add_argument("--rate", type=float, default=1.0, help="actions per second per table by the humans")
    ap.add_argument("--duration", type=float, default=30.0, help="seconds measured (after the warm-up)")
    ap.add_argument("--warmup", type=float, default=5.0)
    ap.add_argument("--game", default="watten")
    ap.add_argument("--variant", default="euregio")
    ap.add_argument("--bot", default="heuristic", help="bot of the bot seats in --mode bots")
    ap.add_argument("--url", help="an already running server (its CPU and memory are then not measured)")
    ap.add_argument("--db", help="database for the server started here (default: a temporary SQLite file)")
    ap.add_argument("--bot-workers", type=int, help="passed to stich serve")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the result as one JSON line")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    proc = None
    tmp = None
    if args.url:
        base = args.url.rstrip("/")
    else:
        tmp = tempfile.TemporaryDirectory(prefix="stich-load-")
        proc, base = start_server(args.db or str(Path(tmp.name) / "load.sqlite3"), args.bot_workers)
    try:
        result = asyncio.run(main_async(args, base, proc.pid if proc else None))
    finally:
        if proc is not None:
            children = process_tree(proc.pid)[1:]
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
            for p in children:     # bot workers that outlived the server
                try:
                    os.kill(p, 9)
                except ProcessLookupError:
                    pass
        if tmp is not None:
            tmp.cleanup()
    result["machine"] = f"{platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
    result["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['tables']} tables, {args.mode}, {args.game} {args.variant}, "
          f"{args.rate:g} human action/s per table, {result['seconds']} s measured ({result['date']}; "
          f"{result['machine']})")
    print(f"  actions/s: {result['table_actions_per_s']} at the tables "
          f"({result['acked_actions_per_s']} by simulated humans, "
          f"{round(result['table_actions_per_s'] - result['acked_actions_per_s'], 1)} by bots)")
    print(f"  action->update latency: p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms"
          + (f"; to all four seats p50 {result['p50_all_ms']} ms, p99 {result['p99_all_ms']} ms"
             if args.mode == "humans" else ""))
    print(f"  server: CPU {result['server_cpu_pct']}% of one core, RSS {result['server_rss_mib']} MiB "
          f"(with bot workers); this client: CPU {result['client_cpu_pct']}%")
    print(f"  matches finished: {result['matches_finished']}, errors: {result['errors']}, "
          f"latency samples: {result['samples']}")


if __name__ == "__main__":
    main()
