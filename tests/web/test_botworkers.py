"""Bot workers as their own processes: ``stich serve --redis URL --bot-queue redis`` and
``stich bot-worker --redis URL`` (real server and worker processes, a real ``redis-server``).

A bot table is played by worker processes and not by the server's own pool; two workers share the
queue; a worker killed mid-job loses no decision; with no worker the server decides within the
bounded wait, and uses workers again once they are back; malformed jobs and replies are refused and
change nothing; and the queue carries the bot seat's view, its legal actions and the one-way bot seed,
nothing else (checked against the server's secret and a replay of the record)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

import stich
from stich.web.botqueue import VERSION
from tests.web.checks import canon, check_acks_in_record, new_state_of, replay_ok
from tests.web.client import create_table, get_record, http_client, run, seat_clients
from tests.web.server import STICH, wait_until

JOBS = "stich:bots:jobs"
WATTEN = ("watten", "euregio", {"target": 3, "lock_at": 1})
WATTEN_2 = ("watten", "bavarian_2", {"target": 3, "lock_at": 2})   # two seats: a short match
#: enough hands that worker a surely takes a pimc job after the fourth action (at 3 points a match
#: was sometimes over before it had: about one run in eight)
LONGER = ("watten", "euregio", {"target": 7, "lock_at": 5})
READY = re.compile(r"stich bot-worker ready: (\d+) processes")
ROOT = Path(__file__).resolve().parents[2]


# --- helpers -----------------------------------------------------------------------------------------
class WorkerProcess:
    """One ``stich bot-worker`` command (its own process group: the parent and its workers)."""

    def __init__(self, url: str, log_dir: Path, processes: int = 1, name: str = "worker"):
        self.cmd = [STICH, "bot-worker", "--redis", url, "--processes", str(processes), "--log-level", "debug"]
        self.log = Path(log_dir) / f"{name}.stderr"
        self.proc: subprocess.Popen | None = None

    def start(self, wait: bool = True) -> WorkerProcess:
        """Start the command; with ``wait``, return once its workers take jobs (else call ready())."""
        with open(self.log, "ab") as err:
            self.proc = subprocess.Popen(self.cmd, stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL,
                                         text=True, start_new_session=True,
                                         env=dict(os.environ, PYTHONUNBUFFERED="1"))
        lines: list[str] = []
        ready = threading.Event()

        def pump():
            for line in self.proc.stdout:
                lines.append(line)
                if READY.search(line):
                    ready.set()
            ready.set()

        threading.Thread(target=pump, daemon=True).start()
        self._ready, self._lines = ready, lines
        return self.ready() if wait else self

    def ready(self) -> WorkerProcess:
        if not self._ready.wait(60) or not any(READY.search(x) for x in self._lines):
            self.kill9()
            raise RuntimeError(f"stich bot-worker did not start: {self._lines} {self.log.read_text()[-2000:]}")
        return self

    def kill9(self) -> None:
        """SIGKILL the whole command at once, workers included (a machine gone)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(30)

    def events(self, name: str | None = None) -> list[dict]:
        out = []
        for line in self.log.read_text(errors="replace").splitlines():
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            if name is None or ev.get("event") == name:
                out.append(ev)
        return out


@pytest.fixture
def workers(tmp_path):
    made: list[WorkerProcess] = []

    def make(url: str, processes: int = 1, name: str | None = None, wait: bool = True) -> WorkerProcess:
        w = WorkerProcess(url, tmp_path, processes, name or f"worker-{len(made)}")
        made.append(w)
        return w.start(wait)

    yield make
    for w in made:
        w.kill9()


def queue_url(redis_server, db: int) -> str:
    """A Redis database of its own for one test (the session's redis-server has 16)."""
    import redis

    url = f"redis://127.0.0.1:{redis_server.port}/{db}"
    redis.Redis.from_url(url).flushdb()
    return url


def queue_server(server_factory, url: str, env: dict | None = None):
    return server_factory("sqlite", env=env, args=("--redis", url, "--bot-queue", "redis", "--bot-workers", "0",
                                                   "--log-level", "debug"))


def scrape(srv) -> dict:
    with urllib.request.urlopen(srv.base_url + "/metrics", timeout=30) as resp:
        return samples(resp.read().decode())


def samples(text: str) -> dict:
    """The samples of a /metrics text: (name, sorted labels) -> value; read with :func:`metric`."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def metric(values: dict, name: str, **labels) -> float:
    return values.get((name, tuple(sorted(labels.items()))), 0.0)


def decisions(srv) -> dict[str, float]:
    values = scrape(srv)
    out = {by: metric(values, "stich_bot_decisions_total", by=by) for by in ("local", "worker", "fallback")}
    for reason in ("no_workers", "timeout", "redis"):
        out[reason] = metric(values, "stich_bot_fallbacks_total", reason=reason)
    out["workers"] = metric(values, "stich_bot_workers")
    return out


def server_events(srv, name: str) -> list[dict]:
    out = []
    for line in srv.stderr_tail(10**7).splitlines():
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        if ev.get("event") == name:
            out.append(ev)
    return out


def await_workers(srv, n: int) -> None:
    """Until the server counts ``n`` live workers (it polls every second)."""
    wait_until(lambda: decisions(srv)["workers"] == n, 20, f"the server to see {n} bot workers", interval=0.2)


class Monitor:
    """Every command the redis-server executes (``MONITOR``, read raw), in a thread."""

    ARG = re.compile(r'"((?:[^"\\]|\\.)*)"')

    def __init__(self, port: int, db: int):
        self.db = db
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=0.5)
        self.sock.sendall(b"MONITOR\r\n")
        # watching from redis-server's "+OK" on: a command it ran before that is not shown, and a loaded
        # machine could run the server's first LPUSH before the MONITOR sent a moment earlier
        buf, end = b"", time.monotonic() + 30
        while b"\r\n" not in buf:
            assert time.monotonic() < end, "redis-server never answered MONITOR"
            try:
                buf += self.sock.recv(1 << 16)
            except TimeoutError:
                continue
        ok, _, self._buf = buf.partition(b"\r\n")
        assert ok == b"+OK", ok
        self.lines: list[str] = []
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        buf, chunk = b"", self._buf   # what came with the +OK first
        while True:
            buf += chunk
            *done, buf = buf.split(b"\r\n")
            self.lines += [x.decode("latin-1") for x in done]
            if self.stopping.is_set():
                return
            try:
                chunk = self.sock.recv(1 << 16)
            except TimeoutError:
                chunk = b""   # nothing for a while: look whether to stop
                continue
            if not chunk:
                return

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(5)
        self.sock.close()

    def commands(self) -> list[list[str]]:
        """The commands on our database, as lists of unescaped arguments."""
        out = []
        for line in self.lines:
            m = re.match(r"\+[\d.]+ \[(\d+) ", line)
            if m and int(m.group(1)) == self.db:
                out.append([a.encode("latin-1").decode("unicode_escape") for a in self.ARG.findall(line)])
        return out


def bot_seed(secret: bytes, table_id: str, seat: int, seq: int) -> int:
    """The documented one-way bot seed (docs/web-protocol.md), computed here independently."""
    digest = hmac.new(secret, f"stich-bot/{table_id}/{seat}/{seq}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


async def play_bot_table(srv, seats, *, script_seed=0, timeout=90.0, on_frame=None, started=None, game=WATTEN):
    async with http_client(srv) as http:
        created = await create_table(http, *game[:2], seats, game[2])
        (client,) = seat_clients(srv, created, script_seed=script_seed, on_frame=on_frame)
        if started is not None:
            started(created, client)
        await client.play(timeout=timeout)
        await client.close()
        record = await get_record(http, created["table"])
    return created, client, record


def bot_actions(record: dict, human: int = 0) -> int:
    return sum(1 for seat, _ in record["actions"] if seat != human)


# --- tests -------------------------------------------------------------------------------------------
@pytest.mark.timeout(120)
def test_worker_processes_play_the_bots_and_the_queue_holds_only_the_bot_seats_view(
        server_factory, redis_server, workers):
    db = 1
    url = queue_url(redis_server, db)
    srv = queue_server(server_factory, url)
    worker = workers(url, processes=2)
    await_workers(srv, 2)
    spy = Monitor(redis_server.port, db)
    try:
        created, client, record = run(play_bot_table(srv, ["human", "bot:heuristic", "bot:random", "bot:heuristic"]),
                                      timeout=100)
    finally:
        spy.stop()
    replay_ok(record)
    check_acks_in_record(record, [client])
    after = decisions(srv)
    # every bot move was thought in a worker process: the server's own pool decided nothing
    assert after["worker"] >= bot_actions(record) > 0
    assert after["local"] == after["fallback"] == after["no_workers"] == after["timeout"] == after["redis"] == 0

    # the queue: exactly the job fields; each job's seed is the one-way bot seed of a bot seat at a seq,
    # and its view and legal actions are exactly that seat's there (a replay of the record)
    commands = spy.commands()
    jobs = [json.loads(c[2]) for c in commands if c[:2] == ["LPUSH", JOBS]]
    assert len(jobs) == after["worker"]
    secret = bytes.fromhex(sqlite3.connect(srv.db).execute("SELECT value FROM meta WHERE key='secret'").fetchone()[0])
    table = created["table"]
    game, state = new_state_of(record)
    expected = {}
    for k in range(len(record["actions"]) + 1):
        for seat in (1, 2, 3):
            legal = [str(a) for a in state.legal_actions(seat)] if not state.is_terminal() else []
            if legal:
                expected[bot_seed(secret, table, seat, k)] = (canon(state.view(seat)), sorted(legal))
        if k < len(record["actions"]):
            seat, text = record["actions"][k]
            state.apply(text, seat=seat)
    for job in jobs:
        assert set(job) == {"v", "id", "spec", "seed", "view", "legal", "deadline", "reply"}
        assert job["seed"] != record["seed"]
        assert job["seed"] in expected, "a job's seed is no bot seat's one-way seed at any seq of the table"
        view, legal = expected[job["seed"]]
        assert job["view"] == view and sorted(job["legal"]) == legal
    # nothing on the bot queue's keys names the table, a token or the deal seed
    queue_traffic = " ".join(" ".join(c) for c in commands if any("stich:bots:" in a for a in c))
    for secret_text in [table, str(record["seed"])] + [s["token"] for s in created["seats"] if s.get("token")]:
        assert secret_text not in queue_traffic

    # two worker processes shared the queue, and between them answered every job
    assert worker.stop() == 0
    stopped = worker.events("bot worker stopped")
    assert len(stopped) == 2 and all(ev["jobs"] > 0 for ev in stopped), stopped
    assert sum(ev["jobs"] for ev in stopped) == len(jobs)
    assert len({ev["worker"] for ev in stopped}) == 2

    # malformed replies on the server's reply list are refused with a log line and change nothing
    import redis

    r = redis.Redis.from_url(url)
    reply_list = jobs[0]["reply"]
    bad = [b"not json", b"\xff\xfe", json.dumps({"v": VERSION, "id": "x"}).encode(),
           json.dumps({"v": VERSION, "id": "no-such-job", "action": "play EO", "error": None, "seconds": 0.1,
                       "worker": "w", "fallbacks": {}}).encode()]
    r.lpush(reply_list, *bad)
    wait_until(lambda: len(server_events(srv, "bot reply refused")) >= 3, 10, "the refusals in the server's log")
    refused = server_events(srv, "bot reply refused")
    assert len(refused) == 3 and any("JSON" in ev["error"] for ev in refused)
    wait_until(lambda: r.llen(reply_list) == 0, 10, "the server to read the replies")
    assert server_events(srv, "bot reply for no waiting decision")   # a well-formed stray: ignored
    now = decisions(srv)
    assert {k: v for k, v in now.items() if k != "workers"} == {k: v for k, v in after.items() if k != "workers"}
    assert json.load(urllib.request.urlopen(srv.base_url + "/healthz", timeout=10)) == {"ok": True}


@pytest.mark.timeout(120)
def test_a_worker_killed_mid_job_loses_no_decision_and_workers_that_come_back_are_used(
        server_factory, redis_server, workers):
    """a is SIGKILLed holding a job: b takes the job back from a's list and answers it.  Then b, the
    last worker, is killed: the server decides the rest itself.  A worker started later plays the next
    table."""
    url = queue_url(redis_server, 2)
    srv = queue_server(server_factory, url, env={"STICH_BOT_QUEUE_WAIT": "15"})   # time for b to take it back
    a = workers(url, name="a", wait=False)
    b = workers(url, name="b", wait=False)
    a.ready(), b.ready()
    await_workers(srv, 2)

    def held_job(w: WorkerProcess) -> str | None:
        """The pimc job (0.2 s of thinking: time to kill) that ``w`` has taken and not answered."""
        evs = [e for e in w.events() if e["event"] in ("bot job taken", "bot job done")]
        held = evs and evs[-1]["event"] == "bot job taken" and evs[-1]["bot"].startswith("pimc")
        return evs[-1]["job"] if held else None

    def done_by(w: WorkerProcess) -> set[str]:
        return {e["job"] for e in w.events("bot job done")}

    async def go():
        seen = {}
        playing = asyncio.ensure_future(play_bot_table(
            srv, ["human", "bot:pimc@0.2s", "bot:heuristic", "bot:heuristic"], timeout=100, game=LONGER,
            started=lambda created, client: seen.update(client=client)))
        # pimc thinks 0.2 s a move: a is killed while it holds a job it has not answered (the job is
        # read once, right before the kill: reading a's log a second time gave a the time to answer)
        job = None
        while not playing.done() and job is None:
            if seen.get("client") and seen["client"].seq >= 4:
                job = held_job(a)
            if job is None:
                await asyncio.sleep(0.01)
        a.kill9()
        for _ in range(400):
            if playing.done() or job in done_by(b):
                break
            await asyncio.sleep(0.05)
        answered_by_b = job in done_by(b)
        killed_b_at = seen["client"].seq
        b.kill9()                     # the last worker gone: the server decides itself
        return job, answered_by_b, killed_b_at, await playing

    job, answered_by_b, killed_b_at, (created, client, record) = run(go(), timeout=110)
    assert job is not None and job not in done_by(a), "a answered before it was killed"
    assert answered_by_b, b.log.read_text()[-3000:]
    assert any(ev["dead"] == a.events("bot worker ready")[0]["worker"] and ev["requeued"] == 1
               for ev in b.events("bot worker: a silent worker forgotten"))
    assert len(record["actions"]) > killed_b_at + 2, "the match ended before the last worker was killed"
    replay_ok(record)
    check_acks_in_record(record, [client])
    mid = decisions(srv)
    assert mid["worker"] >= 1 and mid["no_workers"] >= 1 and mid["local"] == 0
    assert mid["worker"] + mid["fallback"] >= bot_actions(record)
    assert server_events(srv, "bot workers gone: the server decides its bots' moves")

    # workers back: the next table's bots think in them again
    c = workers(url, name="c")
    await_workers(srv, 1)
    _, client2, record2 = run(play_bot_table(srv, ["human", "bot:heuristic"], script_seed=1, game=WATTEN_2),
                              timeout=100)
    replay_ok(record2)
    end = decisions(srv)
    assert end["worker"] - mid["worker"] >= bot_actions(record2) and end["fallback"] == mid["fallback"]
    assert c.stop() == 0


@pytest.mark.timeout(90)
def test_without_workers_moves_come_within_the_bounded_wait(server_factory, redis_server):
    """A worker that heartbeats but never answers (a stuck one) costs each move the bounded wait, no
    more; with none at all the server decides at once, and says so once in its log."""
    import redis

    url = queue_url(redis_server, 3)
    wait = 1.0
    srv = queue_server(server_factory, url, env={"STICH_BOT_QUEUE_WAIT": str(wait)})
    r = redis.Redis.from_url(url)
    r.zadd("stich:bots:workers", {"stuck": time.time() + 3600})   # alive for the server, never answers
    await_workers(srv, 1)
    stamps: list[tuple[float, int]] = []

    def on_frame(client, msg, raw):
        if msg.get("type") == "state":
            stamps.append((time.monotonic(), msg["view"].get("current_player")))
            if r.zscore("stich:bots:workers", "stuck") is not None and decisions(srv)["timeout"] >= 2:
                r.zrem("stich:bots:workers", "stuck")     # now no worker at all

    created, client, record = run(play_bot_table(srv, ["human", "bot:random", "bot:random", "bot:random"],
                                                 on_frame=on_frame, timeout=80), timeout=85)
    replay_ok(record)
    check_acks_in_record(record, [client])
    got = decisions(srv)
    assert got["timeout"] >= 2 and got["no_workers"] >= 1 and got["worker"] == got["local"] == 0
    assert got["fallback"] >= bot_actions(record)
    # no frame waited much beyond the bounded wait (the slack is for a loaded machine)
    gaps = [b[0] - a[0] for a, b in zip(stamps, stamps[1:], strict=False) if a[1] != 0]
    assert max(gaps) < wait + 4.0, max(gaps)
    assert r.llen(JOBS) >= 2   # the stuck worker's jobs are still there: a worker will skip them as expired
    told = server_events(srv, "bot decided by the server")
    assert [ev["reason"] for ev in told].count("no_workers") == 1
    assert any(ev["reason"] == "timeout" for ev in told)


@pytest.mark.timeout(60)
def test_malformed_jobs_are_refused_and_change_nothing(redis_server, workers):
    import redis

    url = queue_url(redis_server, 4)
    r = redis.Redis.from_url(url)
    worker = workers(url)
    state = stich.game("watten", "euregio").new_state(7)
    seat = state.current_player
    legal = [str(a) for a in state.legal_actions(seat)]
    good = {"v": VERSION, "id": "job-1", "spec": "random", "seed": 5, "view": canon(state.view(seat)), "legal": legal,
            "deadline": time.time() + 60, "reply": "stich:bots:replies:test"}
    bad = [b"not json", b"\xff\xfe", b"[1, 2]", json.dumps({**good, "v": VERSION + 1}),
           json.dumps({**good, "extra": 1}),
           json.dumps({k: v for k, v in good.items() if k != "legal"}), json.dumps({**good, "seed": -1}),
           json.dumps({**good, "legal": []}), json.dumps({**good, "reply": "stich:t:abc"}),
           json.dumps({**good, "spec": "pimc@3600s"}),
           json.dumps({**good, "id": "x" * 65})]
    r.lpush(JOBS, *bad)
    wait_until(lambda: len(worker.events("bot job refused")) == len(bad), 20, "every bad job refused")
    refused = worker.events("bot job refused")
    assert all(ev["error"].startswith(("a bot job", "a JSON")) for ev in refused), refused
    assert any("reply list" in ev["error"] for ev in refused)
    assert not r.exists("stich:t:abc")
    # nothing left behind: the queue and the worker's own list are empty, and the worker still works
    r.lpush(JOBS, json.dumps(good))
    _, raw = r.blpop(["stich:bots:replies:test"], timeout=20)
    reply = json.loads(raw)
    assert reply["id"] == "job-1" and reply["action"] in legal and reply["error"] is None
    # (the worker removes a job from its own list just after replying)
    wait_until(lambda: not [k for k in r.keys("stich:bots:doing:*") if r.llen(k)], 10, "the worker's list empty")
    assert r.llen(JOBS) == 0
    assert worker.stop() == 0
    (stopped,) = worker.events("bot worker stopped")
    assert stopped["jobs"] == 1 and stopped["refused"] == len(bad)
    assert r.zcard("stich:bots:workers") == 0   # a clean stop leaves the queue


def test_option_errors_are_one_line(tmp_path):
    from click.testing import CliRunner

    from stich.cli.main import cli

    def stich_cmd(*args):
        return CliRunner().invoke(cli, list(args))

    out = stich_cmd("serve", "--port", "0", "--db", str(tmp_path / "x.sqlite3"), "--bot-queue", "redis")
    assert out.exit_code == 2 and "--bot-queue redis needs --redis URL" in out.output
    out = stich_cmd("bot-worker", "--redis", "http://127.0.0.1:1")
    assert out.exit_code == 2 and "--redis takes a redis:// URL" in out.output
    out = stich_cmd("bot-worker", "--redis", "redis://127.0.0.1:1/0", "--processes", "0")
    assert out.exit_code == 2 and "--processes must be 1 or more" in out.output
    out = stich_cmd("bot-worker", "--redis", "redis://127.0.0.1:1/0")
    assert out.exit_code == 1 and "cannot reach Redis at redis://127.0.0.1:1/0" in out.output
    assert "Traceback" not in out.output and isinstance(out.exception, SystemExit)


def test_deploy_files_run_valid_bot_workers():
    """The Compose service and the systemd unit run ``stich bot-worker`` with options the real parser
    accepts, on the servers' Redis, and the servers they pair with use the queue."""
    from stich.cli.main import cli

    def params(command: str, args: list[str]) -> dict:
        return cli.commands[command].make_context(command, list(args)).params

    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    service = compose["services"]["bot-worker"]
    assert service["command"][0] == "bot-worker" and service["stop_signal"] == "SIGTERM"
    worker = params("bot-worker", service["command"][1:])
    assert worker["redis_url"] == "redis://127.0.0.1:6379/0" and worker["processes"] >= 1
    queued = [params("serve", s["command"][1:]) for name, s in compose["services"].items()
              if name.startswith("stich-") and "--bot-queue" in s["command"]]
    assert queued and all(p["bot_queue"] == "redis" and p["redis_url"] == worker["redis_url"] for p in queued)
    unit = (ROOT / "deploy" / "systemd" / "stich-bot-worker.service").read_text()
    env = dict(line.split("=", 1) for line in (ROOT / "deploy" / "systemd" / "stich.env").read_text().splitlines()
               if line.strip() and not line.startswith("#"))
    exec_start = re.search(r"^ExecStart=(.*)$", unit, re.M).group(1)
    argv = re.sub(r"\$\{(\w+)\}", lambda m: env[m.group(1)], exec_start).split()
    assert argv[0].endswith("/stich") and argv[1] == "bot-worker"
    assert params("bot-worker", argv[2:])["redis_url"].startswith("redis://")
    assert re.search(r"^KillSignal=SIGTERM$", unit, re.M)


def test_think_runs_the_same_in_a_worker_as_in_the_pool():
    """The worker and the server's pool think with the same function: same spec, seed and view,
    the same answer (what makes a job answered twice harmless)."""
    from stich.web.botpool import think

    state = stich.game("watten", "euregio").new_state(11)
    seat = state.current_player
    legal = [str(a) for a in state.legal_actions(seat)]
    view = canon(state.view(seat))   # as it crosses the queue
    answers = {think("heuristic", 99, view, legal) for _ in range(3)}
    assert len(answers) == 1 and answers <= set(legal)
    assert asyncio.run(_pool_answer("heuristic", 99, view, legal)) == answers.pop()


async def _pool_answer(spec, seed, view, legal):
    from stich.web.botpool import BotPool

    pool = BotPool(0)
    try:
        action, fault = await pool.choose(spec, seed, view, legal)
    finally:
        pool.close()
    assert fault is None
    return action


@pytest.mark.timeout(90)
def test_redis_going_away_mid_match_does_not_stop_the_bots(server_factory, workers):
    """Redis itself stops mid-match (a server of one process: nothing else needs it): the server
    decides its bots' moves itself from then on, and the match finishes."""
    from tests.web.server import RedisServer, redis_available

    if not redis_available():
        pytest.skip("redis-server not installed")
    own = RedisServer().start()
    try:
        srv = queue_server(server_factory, own.url)
        workers(own.url)
        await_workers(srv, 1)

        async def go():
            seen = {}
            playing = asyncio.ensure_future(play_bot_table(
                srv, ["human", "bot:heuristic", "bot:random", "bot:heuristic"], timeout=60,
                started=lambda created, client: seen.update(client=client)))
            while not playing.done() and not (seen.get("client") and seen["client"].seq >= 6):
                await asyncio.sleep(0.01)
            stopped_at = seen["client"].seq
            await asyncio.to_thread(own.stop)
            return stopped_at, await playing

        stopped_at, (created, client, record) = run(go(), timeout=80)
    finally:
        own.stop()
    assert len(record["actions"]) > stopped_at + 2
    replay_ok(record)
    check_acks_in_record(record, [client])
    got = decisions(srv)
    assert got["worker"] >= 1 and got["fallback"] >= 1 and got["local"] == 0
