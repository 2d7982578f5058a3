"""Floods against one table server while a victim plays at another table (issue #35).

Starts ``stich serve`` on a temporary SQLite file with the default limits, seats a victim at a table of
its own (a human seat against a random bot, from its own address), who acts once a second and
measures each action: from sending it to the state frame that shows it.  Then runs each flood for
``--seconds`` from other addresses (``X-Forwarded-For`` through the loopback, a trusted proxy by
default, stands for each flooder's address) and prints the victim's p50/p99 before and during each
flood, and how the server answered the flood (HTTP statuses, close codes).  Not a test: figures.

    python benchmarks/abuse.py --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import web_load  # this folder's: python benchmarks/abuse.py puts it first on sys.path
import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

STICH = str(Path(sys.executable).with_name("stich"))
VICTIM = {"X-Forwarded-For": "192.0.2.10"}
ATTACKER = {"X-Forwarded-For": "198.51.100.66"}
TABLE = {"game": "watten", "variant": "bavarian_2", "options": {"target": 15}, "seats": ["human", "bot:random"],
         "grace": "never"}


def start_server(db: str) -> tuple[subprocess.Popen, str]:
    """One server with the default limits: what is measured."""
    return web_load.start_server(db, bot_workers=0, roomy_limits=False, more=("--log-level", "error"))


class Victim:
    """A player acting once a second at its own table; ``latencies`` grows with every action."""

    def __init__(self, base: str, out):
        self.base, self.out = base, out      # out: a queue of (time.time(), seconds) per action

    async def run(self, stop: asyncio.Event) -> None:
        async with httpx.AsyncClient(base_url=self.base, timeout=30) as http:
            while not stop.is_set():
                t = (await http.post("/api/tables", json=TABLE, headers=VICTIM)).json()
                url = f"{self.base.replace('http', 'ws', 1)}/ws/tables/{t['table']}?token={t['seats'][0]['token']}"
                async with websockets.connect(url, additional_headers=VICTIM, max_size=2**24) as ws:
                    await self._play(ws, stop)

    async def _play(self, ws, stop: asyncio.Event) -> None:
        state, n = None, 0
        while not stop.is_set():
            while state is None or not state["legal"]:
                if state is not None and state["finished"]:
                    return
                try:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 30))
                except TimeoutError:
                    raise RuntimeError(f"the victim waited 30 s for its turn: {state}") from None
                if m["type"] == "state":
                    state = m
                    if m["finished"]:
                        return
            await asyncio.sleep(1.0)
            while True:   # the frames that came meanwhile (the bot's moves): act on the newest state
                try:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 0.02))
                except TimeoutError:
                    break
                if m["type"] == "state":
                    state = m
            if state["finished"]:
                return
            if not state["legal"]:
                continue
            n += 1
            cid, sent = f"v{n}", time.perf_counter()
            await ws.send(json.dumps({"type": "act", "id": cid, "action": state["legal"][0]}))
            seq = None
            while True:
                m = json.loads(await ws.recv())
                if m.get("id") == cid and m["type"] == "ack":
                    seq = m["seq"]
                elif m.get("id") == cid and m["type"] == "error":
                    raise RuntimeError(f"the victim's action was refused: {m}")   # a bug of this script
                if m["type"] == "state":
                    state = m
                    if seq is not None and m["seq"] >= seq:
                        break
            self.out.put((time.time(), time.perf_counter() - sent))


# --- the floods: each runs until ``stop`` and returns a Counter of how it was answered ------------------
async def _ws_until_closed(url: str, headers: dict, send=None, counts=None) -> None:
    try:
        async with websockets.connect(url, additional_headers=headers, max_size=2**24, open_timeout=10) as ws:
            if send is not None:
                await send(ws)
            async for _ in ws:
                pass
    except ConnectionClosed as exc:
        counts[f"close {exc.rcvd.code if exc.rcvd else 'none'}"] += 1
        return
    except InvalidStatus as exc:   # refused at the handshake
        counts[f"http {exc.response.status_code}"] += 1
        return
    except Exception as exc:  # noqa: BLE001 - a refused or reset connection is an answer too
        counts[type(exc).__name__] += 1
        return
    counts["closed cleanly"] += 1


async def flood_tables(base, stop):
    counts = collections.Counter()
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        async def one():
            while not stop.is_set():
                r = await http.post("/api/tables", json={**TABLE, "seats": ["bot:random", "bot:random"]},
                                    headers=ATTACKER)
                counts[f"http {r.status_code}"] += 1
        await asyncio.gather(*(one() for _ in range(8)))
    return counts


async def _attack_table(base) -> dict:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        return (await http.post("/api/tables", json={**TABLE, "seats": ["human", "human"]},
                                headers={"X-Forwarded-For": "203.0.113.200"})).json()


async def flood_sockets(base, stop, spectators_from_many: bool = False):
    counts = collections.Counter()
    t = await _attack_table(base)
    url = f"{base.replace('http', 'ws', 1)}/ws/tables/{t['table']}"
    tasks = []
    i = 0
    while not stop.is_set() and i < 1000:
        headers = {"X-Forwarded-For": f"10.1.{i // 250}.{i % 250}"} if spectators_from_many else ATTACKER
        tasks.append(asyncio.create_task(_ws_until_closed(url, headers, counts=counts)))
        i += 1
        await asyncio.sleep(0.005)
    await stop.wait()
    open_now = sum(1 for x in tasks if not x.done())
    for x in tasks:
        x.cancel()
    counts["still open at the end"] = open_now
    return counts


async def flood_spectators(base, stop):
    return await flood_sockets(base, stop, spectators_from_many=True)


async def _seat_flood(base, stop, make):
    counts = collections.Counter()
    t = await _attack_table(base)
    url = f"{base.replace('http', 'ws', 1)}/ws/tables/{t['table']}?token={t['seats'][0]['token']}"

    async def send(ws):
        n = 0
        while not stop.is_set():
            n += 1
            await ws.send(json.dumps(make(n)))
            counts["sent"] += 1
            if n % 50 == 0:
                await asyncio.sleep(0)

    while not stop.is_set():
        await _ws_until_closed(url, ATTACKER, send, counts)
    return counts


async def flood_renames(base, stop):
    return await _seat_flood(base, stop, lambda n: {"type": "name", "name": f"spam {n}"})


async def flood_chat(base, stop):
    return await _seat_flood(base, stop, lambda n: {"type": "chat", "text": f"spam {n}"})


async def flood_refused(base, stop):
    return await _seat_flood(base, stop, lambda n: {"type": "act", "id": f"x{n}", "action": "play ZZ"})


async def flood_uploads(base, stop):
    import stich

    counts = collections.Counter()
    record = stich.game("battn").new_state(seed=1).record()
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while not stop.is_set():
            r = await http.post("/api/records", json=record, headers=ATTACKER)
            counts[f"http {r.status_code}"] += 1
    return counts


async def flood_half_open(base, stop):
    counts = collections.Counter()
    host, port = base.split("//")[1].split(":")
    socks = []
    for _ in range(500):
        s = socket.socket()
        s.setblocking(False)
        try:
            await asyncio.get_running_loop().sock_connect(s, (host, int(port)))
            await asyncio.get_running_loop().sock_sendall(s, b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n")
            socks.append((s, time.monotonic()))
        except OSError:
            counts["refused at connect"] += 1
            s.close()
    closed_after = []

    async def watch(s, started):
        try:
            data = await asyncio.get_running_loop().sock_recv(s, 4096)
            counts["408" if data.startswith(b"HTTP/1.1 408") else ("closed" if not data else "other")] += 1
        except OSError:
            counts["reset"] += 1
        closed_after.append(time.monotonic() - started)
        s.close()

    watchers = [asyncio.create_task(watch(s, t0)) for s, t0 in socks]
    await stop.wait()
    counts["still open at the end"] = sum(1 for w in watchers if not w.done())
    for w in watchers:
        w.cancel()
    for s, _ in socks:
        s.close()
    if closed_after:
        counts["closed after (max s)"] = round(max(closed_after), 1)
    return counts


FLOODS = {"tables": flood_tables, "sockets": flood_sockets, "spectators": flood_spectators,
          "renames": flood_renames, "chat": flood_chat, "refused actions": flood_refused,
          "uploads": flood_uploads, "half-open requests": flood_half_open}


def p(xs: list[float], q: float) -> str:
    if not xs:
        return "-"
    xs = sorted(xs)
    return f"{1000 * xs[min(len(xs) - 1, int(q * len(xs)))]:.0f}"


def play_victim(base: str, out) -> None:
    """The victim, in a process of its own: the floods' clients must not delay its measurements."""
    asyncio.run(Victim(base, out).run(asyncio.Event()))


async def main_async(base: str, seconds: float, only: list[str]) -> None:
    import multiprocessing

    out = multiprocessing.Queue()
    victim = multiprocessing.Process(target=play_victim, args=(base, out), daemon=True)
    victim.start()
    samples: list[tuple[float, float]] = []

    def window(start: float, end: float) -> list[float]:
        while not out.empty():
            samples.append(out.get())
        return [lat for at, lat in samples if start <= at < end]

    print(f"{'flood':<20} {'victim p50/p99 ms before':>25} {'during':>14}  answered")
    for name in only:
        quiet = time.time()
        await asyncio.sleep(seconds)
        started = time.time()
        stop = asyncio.Event()
        flood = asyncio.create_task(FLOODS[name](base, stop))
        await asyncio.sleep(seconds)
        stop.set()
        counts = await asyncio.wait_for(flood, 60)
        await asyncio.sleep(1.5)      # the victim's last action of the flood is in the queue
        before, during = window(quiet, started), window(started, started + seconds)
        print(f"{name:<20} {p(before, .5) + '/' + p(before, .99):>25} {p(during, .5) + '/' + p(during, .99):>14}  "
              f"{dict(counts)}", flush=True)
        if not victim.is_alive():
            raise SystemExit("the victim stopped")
    victim.terminate()
    everything = [lat for _, lat in samples]
    print(f"victim: {len(everything)} actions, median {statistics.median(everything) * 1000:.0f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=12,
                    help="length of each flood and of the quiet before it (more than STICH_HEADER_SECONDS, 10)")
    ap.add_argument("--only", nargs="*", choices=sorted(FLOODS), help="these floods only (default: all)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(str(Path(tmp) / "abuse.sqlite3"))
        try:
            print(f"{platform.node()} {platform.machine()} Python {platform.python_version()}, "
                  f"{time.strftime('%Y-%m-%d')}, server {base}, default limits")
            asyncio.run(main_async(base, args.seconds, args.only or list(FLOODS)))
        finally:
            proc.terminate()
            proc.wait(15)


if __name__ == "__main__":
    main()
