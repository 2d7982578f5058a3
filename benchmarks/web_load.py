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

With ``--processes N`` (N > 1) it starts N ``stich serve --redis`` processes on one throw-away Postgres
and one redis-server (Debian's binaries; or ``--db``/``--redis`` of your own); each table is created on
a random process and its seats connect to the processes in turn, so every action crosses processes.
It then prints tables and actions/s per process, and the CPU and memory of each process.

With ``--bot-worker-commands K`` (bots mode) the servers run with ``--bot-queue redis`` and K
``stich bot-worker --processes N`` commands (``--bot-worker-processes N``) think for their bots,
through a throw-away redis-server; it prints the bot decisions/s the workers made (and those the
servers made themselves because no worker answered), and the workers' CPU.

``--soak`` samples every ``--every`` seconds for the whole ``--duration``: RSS of each process (with its
bot workers), its open sockets, the database connections, and p50/p99 of that window; memory, sockets
and connections should stay flat and p99 stable.

Run (starts its own server on a temporary SQLite file unless --url is given):
    python benchmarks/web_load.py --tables 50 --mode humans --rate 1 --duration 30
    python benchmarks/web_load.py --tables 200 --mode bots --duration 30
    python benchmarks/web_load.py --tables 200 --processes 3 --duration 30
    python benchmarks/web_load.py --tables 50 --mode bots --bot-worker-commands 2 --bot-worker-processes 2
    python benchmarks/web_load.py --tables 200 --soak --duration 600 --every 30
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import platform
import random
import re
import signal
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
STICH = str(Path(sys.executable).with_name("stich"))


def start_server(db: str, bot_workers: int | None, redis: str | None = None,
                 log: str | None = None, bot_queue: bool = False, roomy_limits: bool = True,
                 more: tuple[str, ...] = ()) -> tuple[subprocess.Popen, str]:
    """``stich serve`` on a free port: the process and its address.  ``roomy_limits=False`` keeps the
    default per-address limits (benchmarks/abuse.py measures them)."""
    cmd = [STICH, "serve", "--host", "127.0.0.1", "--port", "0", "--db", db, *more]
    if bot_workers is not None:
        cmd += ["--bot-workers", str(bot_workers)]
    if redis:
        cmd += ["--redis", redis]
    if bot_queue:
        cmd += ["--bot-queue", "redis"]
    err = open(log, "ab") if log else subprocess.DEVNULL
    # every simulated player comes from 127.0.0.1, where real ones come from many addresses: the
    # per-address limits (docs/web-protocol.md, "Limits") are raised here, unless set outside
    roomy = {"STICH_TABLES_PER_ADDRESS": "1000000/minute", "STICH_SOCKET_OPENS_PER_ADDRESS": "1000000/minute",
             "STICH_SOCKETS_PER_ADDRESS": "1000000"}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True, bufsize=1,
                            env={**(roomy if roomy_limits else {}), **os.environ})
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


def start_bot_worker(redis: str, processes: int, log: str | None = None) -> subprocess.Popen:
    """One ``stich bot-worker`` command, returned once its workers take jobs."""
    err = open(log, "ab") if log else subprocess.DEVNULL
    proc = subprocess.Popen([STICH, "bot-worker", "--redis", redis, "--processes", str(processes)],
                            stdout=subprocess.PIPE, stderr=err, text=True, bufsize=1)
    ready = threading.Event()

    def pump():
        for line in proc.stdout:
            if "stich bot-worker ready" in line:
                ready.set()
        ready.set()

    threading.Thread(target=pump, daemon=True).start()
    if not ready.wait(60) or proc.poll() is not None:
        proc.kill()
        raise SystemExit("stich bot-worker did not start")
    return proc


async def bot_decisions(https) -> dict[str, float]:
    """``stich_bot_decisions_total`` by where, summed over the servers' /metrics."""
    out = {"local": 0.0, "worker": 0.0, "fallback": 0.0}
    for http in https:
        text = (await http.get("/metrics")).text
        for by, value in re.findall(r'^stich_bot_decisions_total\{by="(\w+)"\} (\S+)$', text, re.M):
            out[by] = out.get(by, 0.0) + float(value)
    return out


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


def open_sockets(pids) -> int:
    n = 0
    for p in pids:
        try:
            for fd in os.listdir(f"/proc/{p}/fd"):
                try:
                    n += os.readlink(f"/proc/{p}/fd/{fd}").startswith("socket:")
                except OSError:
                    pass
        except OSError:
            pass
    return n


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
        self.lat_bots: list[float] = []   # our action -> our next turn: the bots' answers (bots mode)
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
        r = await self.rng.choice(self.run.https).post("/api/tables", json={
            "game": args.game, "variant": args.variant, "seats": seats, "options": {}, "bot_delay": 0})
        r.raise_for_status()
        created = r.json()
        tokens = [s["token"] for s in created["seats"] if s.get("token")]
        first = self.rng.randrange(len(self.run.ws_urls))   # seats spread over the processes in turn
        conns = [await websockets.connect(
            f"{self.run.ws_urls[(first + i) % len(self.run.ws_urls)]}/ws/tables/{created['table']}?token={t}"
            "&format=json", max_size=2**24, ping_interval=None) for i, t in enumerate(tokens)]
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
            asked = None    # when we last acted: the bots answer until our next turn
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
                    if asked is not None and stats.measuring and args.mode == "bots":
                        stats.lat_bots.append(now - asked)
                    acted_on = seq
                    await asyncio.sleep(self.rng.uniform(0.5, 1.5) / args.rate)
                    sent[seq] = asked = time.perf_counter()
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
    def __init__(self, args, base_urls: list[str]):
        self.args = args
        self.base_urls = base_urls
        self.ws_urls = ["ws" + u[len("http"):] for u in base_urls]
        self.stop = asyncio.Event()
        self.stats = Stats()
        self.https: list[httpx.AsyncClient] = []


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def db_connections(db_counter) -> int | None:
    try:
        return db_counter() if db_counter else None
    except Exception:  # noqa: BLE001 - a sample missed is not a failed run
        return None


async def main_async(args, base_urls: list[str], server_pids: list[int], db_counter=None,
                     worker_pids: tuple[int, ...] = ()) -> dict:
    run = Run(args, base_urls)
    limits = httpx.Limits(max_connections=50)
    async with contextlib.AsyncExitStack() as stack:
        run.https = [await stack.enter_async_context(httpx.AsyncClient(base_url=u, timeout=60, limits=limits))
                     for u in base_urls]
        rng = random.Random(args.seed)
        tables = [Table(run, random.Random(rng.random())) for _ in range(args.tables)]
        tasks = [asyncio.create_task(t.loop()) for t in tables]
        await asyncio.sleep(args.warmup)
        trees = [process_tree(p) for p in server_pids]
        cpu0 = [cpu_seconds(t) for t in trees]
        worker_cpu0 = cpu_seconds([p for w in worker_pids for p in process_tree(w)])
        bots0 = await bot_decisions(run.https) if worker_pids else {}
        wall0, me0 = time.perf_counter(), time.process_time()
        run.stats.measuring = True
        rss_peak = [0.0] * len(server_pids)
        end = wall0 + args.duration
        samples = []
        next_sample = wall0 + (args.every if args.soak else float("inf"))
        lat_mark = 0
        while time.perf_counter() < end:
            await asyncio.sleep(1)
            trees = [process_tree(p) for p in server_pids]
            rss_peak = [max(a, rss_mib(t)) for a, t in zip(rss_peak, trees, strict=True)]
            if time.perf_counter() >= next_sample:
                next_sample += args.every
                window = run.stats.lat_self[lat_mark:]
                lat_mark = len(run.stats.lat_self)
                conns = await asyncio.to_thread(db_connections, db_counter)   # its own event loop
                samples.append({"t": round(time.perf_counter() - wall0), "rss_mib": [round(rss_mib(t)) for t in trees],
                                "sockets": [open_sockets(t) for t in trees], "db_conns": conns,
                                "p50_ms": round(1000 * pct(window, 0.5), 1),
                                "p99_ms": round(1000 * pct(window, 0.99), 1), "samples": len(window)})
                if args.soak:
                    print("  soak", json.dumps(samples[-1]), flush=True)
        run.stats.measuring = False
        wall = time.perf_counter() - wall0
        worker_cpu = cpu_seconds([p for w in worker_pids for p in process_tree(w)]) - worker_cpu0
        bots1 = await bot_decisions(run.https) if worker_pids else {}
        cpus = [cpu_seconds(t) - c0 for t, c0 in zip(trees, cpu0, strict=True)]
        cpu = sum(cpus) if server_pids else float("nan")
        me = time.process_time() - me0
        run.stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    s = run.stats
    n = max(1, len(base_urls))
    bots = max(0.0, (s.moves - s.actions) / wall)
    return {
        "processes": len(base_urls), "tables_per_process": round(args.tables / n, 1),
        "actions_per_s_per_process": round(s.moves / wall / n, 1), "bot_decisions_per_s": round(bots, 1),
        "process_cpu_pct": [round(100 * c / wall, 1) for c in cpus],
        "process_rss_mib": [round(r, 1) for r in rss_peak], "soak": samples,
        "tables": args.tables, "mode": args.mode, "rate": args.rate, "seconds": round(wall, 1),
        "acked_actions_per_s": round(s.actions / wall, 1),
        "table_actions_per_s": round(s.moves / wall, 1),
        "p50_ms": round(1000 * pct(s.lat_self, 0.5), 1), "p99_ms": round(1000 * pct(s.lat_self, 0.99), 1),
        "p50_all_ms": round(1000 * pct(s.lat_all, 0.5), 1), "p99_all_ms": round(1000 * pct(s.lat_all, 0.99), 1),
        "server_cpu_pct": round(100 * cpu / wall, 1), "server_rss_mib": round(sum(rss_peak), 1),
        "client_cpu_pct": round(100 * me / wall, 1), "matches_finished": s.matches, "errors": s.errors,
        "samples": len(s.lat_self),
        "p50_bots_ms": round(1000 * pct(s.lat_bots, 0.5), 1), "p99_bots_ms": round(1000 * pct(s.lat_bots, 0.99), 1),
        # every CPU second of the servers (their bot pools included) and of the bot workers: what the
        # bots cost the platform per decision, the people's actions around them included
        "bot_decisions_per_cpu_s": round(bots * wall / (cpu + worker_cpu), 1) if server_pids and cpu + worker_cpu > 0
        else None,
        "bot_worker_commands": len(worker_pids),
        "worker_decisions_per_s": round((bots1.get("worker", 0) - bots0.get("worker", 0)) / wall, 1),
        "fallback_decisions_per_s": round((bots1.get("fallback", 0) - bots0.get("fallback", 0)) / wall, 1),
        "worker_cpu_pct": round(100 * worker_cpu / wall, 1),
    }


def counter_for(db: str):
    """A function counting the database connections now open (Postgres: pg_stat_activity; SQLite: the
    open file descriptors on the database file, in every process)."""
    if db.startswith("postgres"):
        def count() -> int:
            import asyncpg

            async def q():
                conn = await asyncpg.connect(db.replace("postgresql+asyncpg://", "postgresql://"))
                try:
                    return await conn.fetchval("SELECT count(*) - 1 FROM pg_stat_activity WHERE datname = "
                                               "current_database()")
                finally:
                    await conn.close()
            return asyncio.run(q())
        return count
    path = os.path.abspath(db)

    def count_sqlite() -> int:
        n = 0
        for e in os.listdir("/proc"):
            if e.isdigit():
                try:
                    for fd in os.listdir(f"/proc/{e}/fd"):
                        with contextlib.suppress(OSError):
                            n += os.readlink(f"/proc/{e}/fd/{fd}") == path
                except OSError:
                    pass
        return n
    return count_sqlite


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
    ap.add_argument("--processes", type=int, default=1, help="stich serve processes (more than 1: with Redis)")
    ap.add_argument("--redis", help="redis:// URL for --processes > 1 (default: a throw-away redis-server)")
    ap.add_argument("--bot-worker-commands", type=int, default=0, metavar="K",
                    help="start K stich bot-worker commands; the servers use --bot-queue redis (bots mode)")
    ap.add_argument("--bot-worker-processes", type=int, default=1, metavar="N",
                    help="--processes of each stich bot-worker command")
    ap.add_argument("--soak", action="store_true", help="sample memory, sockets, DB connections and latency")
    ap.add_argument("--every", type=float, default=30.0, help="seconds between soak samples")
    ap.add_argument("--logs", help="a directory for the servers' JSON logs (default: not kept)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the result as one JSON line")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    if args.bot_worker_commands and (args.mode != "bots" or args.url):
        ap.error("--bot-worker-commands needs --mode bots and a server started here (no --url)")
    queue = args.bot_worker_commands > 0
    # SIGTERM ends the run like Ctrl-C: the servers, Postgres and redis-server started here are stopped
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    procs: list[subprocess.Popen] = []
    worker_procs: list[subprocess.Popen] = []
    tmp = None
    services = []            # a throw-away Postgres and redis-server, for --processes > 1
    db_counter = None
    try:
        if args.url:
            bases = [args.url.rstrip("/")]
        else:
            tmp = tempfile.TemporaryDirectory(prefix="stich-load-")
            db, redis = args.db, args.redis
            if args.processes > 1 or queue:
                sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
                from tests.web.server import PostgresCluster, RedisServer

                if db is None and args.processes > 1:
                    services.append(PostgresCluster().start())
                    db = services[-1].new_database()
                if redis is None:
                    services.append(RedisServer().start())
                    redis = services[-1].url
            db = db or str(Path(tmp.name) / "load.sqlite3")
            db_counter = counter_for(db)
            bases = []
            for i in range(args.processes):
                log = str(Path(args.logs) / f"server-{i}.log") if args.logs else None
                proc, base = start_server(db, args.bot_workers, redis if args.processes > 1 or queue else None, log,
                                          bot_queue=queue)
                procs.append(proc)
                bases.append(base.rstrip("/"))
            for i in range(args.bot_worker_commands):
                log = str(Path(args.logs) / f"bot-worker-{i}.log") if args.logs else None
                worker_procs.append(start_bot_worker(redis, args.bot_worker_processes, log))
            if queue:
                time.sleep(2)   # the servers count the live workers every second
        # The simulated clients stand in for hundreds of browsers, not one Python process: their
        # own garbage-collection pauses (up to ~130 ms here at 800 sockets) would be counted as the
        # server's latency.  Tuned as the server tunes itself (stich.web.app).
        gc.collect()
        gc.freeze()
        gc.set_threshold(10_000, 10, 10)
        result = asyncio.run(main_async(args, bases, [p.pid for p in procs], db_counter,
                                        tuple(p.pid for p in worker_procs)))
    finally:
        for proc in worker_procs + procs:
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
        for svc in services:
            svc.stop()
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
    print(f"  per process ({result['processes']}): {result['tables_per_process']} tables, "
          f"{result['actions_per_s_per_process']} actions/s; CPU {result['process_cpu_pct']} % of one core, "
          f"RSS {result['process_rss_mib']} MiB; bot decisions/s (the pool): {result['bot_decisions_per_s']}")
    if args.mode == "bots":
        print(f"  bots' answer (our action -> our next turn): p50 {result['p50_bots_ms']} ms, "
              f"p99 {result['p99_bots_ms']} ms; bot decisions per CPU second (servers and workers): "
              f"{result['bot_decisions_per_cpu_s']}")
    if result["bot_worker_commands"]:
        print(f"  bot workers ({result['bot_worker_commands']} x stich bot-worker --processes "
              f"{args.bot_worker_processes}): {result['worker_decisions_per_s']} decisions/s by the workers, "
              f"{result['fallback_decisions_per_s']} by the servers (no worker in time); "
              f"workers' CPU {result['worker_cpu_pct']}% of one core")


if __name__ == "__main__":
    main()
