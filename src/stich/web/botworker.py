"""``stich bot-worker``: processes that think for the bots of every ``stich serve --bot-queue redis``.

The command starts N worker processes (``--processes``) and watches them: one that dies is started
again; ``SIGTERM`` or ``SIGINT`` ends them all cleanly (each finishes the job in hand).  Each worker
takes jobs from the Redis bot queue (see :mod:`stich.web.botqueue` for the keys and the wire format),
thinks with :func:`stich.web.botpool.think`, pushes the answer on the asking server's reply list, and
heartbeats; every few seconds it also moves the jobs of dead workers back onto the queue.  A worker
holds no state between jobs, so any number of them on any number of machines share one queue."""

from __future__ import annotations

import logging
import multiprocessing
import os
import secrets
import signal
import socket
import sys
import threading
import time

from stich.web.botpool import die_with_parent, think_timed
from stich.web.botqueue import (
    HEARTBEAT,
    JOBS,
    REPLY_TTL,
    WORKER_TTL,
    WORKERS,
    BadMessage,
    Reply,
    doing_key,
    encode_reply,
    parse_job,
)
from stich.web.logs import event

log = logging.getLogger("stich.web")

START_TIMEOUT = 60.0   # seconds a worker process may take to import the bots and register


class Worker:
    """One worker process's loop (synchronous: a worker thinks one job at a time)."""

    def __init__(self, url: str):
        import redis

        self.redis_errors = (redis.RedisError, OSError)
        self.id = f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(3)}"
        self.doing = doing_key(self.id)
        # socket_timeout above the 1 s blocking take: a Redis that stops answering fails the call
        self.r = redis.Redis.from_url(url, socket_timeout=10, socket_connect_timeout=5)
        self.stopping = threading.Event()
        self.jobs = 0          # jobs answered
        self.refused = 0       # jobs refused as malformed
        self.expired = 0       # jobs skipped because their server had given up on them
        self.requeued = 0      # jobs of dead workers moved back onto the queue
        self._next_reap = 0.0
        self._redis_down = False

    # --- Redis, tolerantly ---------------------------------------------------------------------
    def _failed(self, what: str, exc: Exception) -> None:
        if not self._redis_down:
            event(log, "bot worker: Redis unreachable", logging.WARNING, worker=self.id, doing=what,
                  error=f"{type(exc).__name__}: {exc}")
        self._redis_down = True

    def _ok(self) -> None:
        if self._redis_down:
            event(log, "bot worker: Redis reachable again", worker=self.id)
        self._redis_down = False

    def beat(self) -> None:
        self.r.zadd(WORKERS, {self.id: time.time()})

    def _heartbeats(self) -> None:
        while not self.stopping.wait(HEARTBEAT):
            try:
                self.beat()
            except self.redis_errors as exc:
                self._failed("heartbeat", exc)

    def reap(self) -> int:
        """Move the jobs of workers silent for WORKER_TTL seconds back onto the queue (each job is
        moved by one atomic LMOVE, so two workers reaping at once move it once)."""
        total = 0
        for dead in self.r.zrangebyscore(WORKERS, "-inf", time.time() - WORKER_TTL):
            dead = dead.decode() if isinstance(dead, bytes) else dead
            moved = 0
            while self.r.lmove(doing_key(dead), JOBS, "RIGHT", "RIGHT") is not None:
                moved += 1
            self.r.zrem(WORKERS, dead)
            event(log, "bot worker: a silent worker forgotten", worker=self.id, dead=dead, requeued=moved)
            total += moved
        self.requeued += total
        return total

    # --- the loop ------------------------------------------------------------------------------
    def run(self, ready=None) -> None:
        self.beat()
        threading.Thread(target=self._heartbeats, name="stich-heartbeat", daemon=True).start()
        event(log, "bot worker ready", worker=self.id)
        if ready is not None:
            ready.set()
        while not self.stopping.is_set():
            try:
                if time.monotonic() >= self._next_reap:
                    self._next_reap = time.monotonic() + 2 * HEARTBEAT
                    self.reap()
                raw = self.r.blmove(JOBS, self.doing, 1, "RIGHT", "LEFT")
                self._ok()
            except self.redis_errors as exc:
                self._failed("take", exc)
                self.stopping.wait(1.0)
                continue
            if raw is None:
                continue
            try:
                self.handle(raw)
            finally:
                try:
                    self.r.lrem(self.doing, 1, raw)
                except self.redis_errors as exc:   # answered anyway; a reaper may requeue a duplicate
                    self._failed("done", exc)
        self._leave()

    def handle(self, raw: bytes) -> None:
        try:
            job = parse_job(raw)
        except BadMessage as exc:
            self.refused += 1
            event(log, "bot job refused", logging.WARNING, worker=self.id, error=str(exc), bytes=len(raw))
            return
        event(log, "bot job taken", logging.DEBUG, worker=self.id, job=job.id, bot=job.spec)
        if job.deadline < time.time():   # its server has decided without us
            self.expired += 1
            event(log, "bot job expired", logging.DEBUG, worker=self.id, job=job.id)
            return
        try:
            action, seconds, fell = think_timed(job.spec, job.seed, job.view, job.legal)
            error = None
        except Exception as exc:  # noqa: BLE001 - the server answers a bot fault as its own pool would
            action, seconds, fell, error = None, 0.0, {}, f"{type(exc).__name__}: {exc}"[:500]
        reply = encode_reply(Reply(job.id, action, error, seconds, self.id, fell))
        pipe = self.r.pipeline(transaction=False)
        pipe.lpush(job.reply, reply)
        pipe.expire(job.reply, REPLY_TTL)
        try:
            pipe.execute()
        except self.redis_errors as exc:   # the server decides it itself at the deadline
            self._failed("reply", exc)
            return
        self.jobs += 1
        event(log, "bot job done", logging.DEBUG, worker=self.id, job=job.id, bot=job.spec,
              seconds=round(seconds, 4), fault=error)

    def _leave(self) -> None:
        """A clean stop: the jobs in hand (none, normally) back on the queue, the heartbeat removed."""
        try:
            while self.r.lmove(self.doing, JOBS, "RIGHT", "RIGHT") is not None:
                pass
            self.r.zrem(WORKERS, self.id)
        except self.redis_errors as exc:
            self._failed("leave", exc)
        event(log, "bot worker stopped", worker=self.id, jobs=self.jobs, refused=self.refused,
              expired=self.expired, requeued=self.requeued)


def _worker_main(url: str, log_level: str, parent_pid: int, ready) -> None:
    """The body of one worker process (spawned: nothing of the parent but its arguments)."""
    die_with_parent(parent_pid)
    from stich.web import logs

    logs.setup(log_level)
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C reaches the whole group: the parent decides
    import stich.bots

    stich.bots.bot_names()   # import every bot before the first job
    worker = Worker(url)
    signal.signal(signal.SIGTERM, lambda *_: worker.stopping.set())
    worker.run(ready)


class WorkerError(RuntimeError):
    """The workers cannot start (the message says why, in one line)."""


def check_redis(url: str) -> None:
    import redis

    try:
        client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, OSError) as exc:
        raise WorkerError(f"cannot reach Redis at {url}: {type(exc).__name__}: {exc}") from None


def run(url: str, processes: int, log_level: str = "info") -> int:
    """Start ``processes`` workers on the queue at ``url`` and keep them running until SIGTERM/SIGINT."""
    from stich.web import logs

    check_redis(url)
    logs.setup(log_level)
    ctx = multiprocessing.get_context("spawn")   # a fresh interpreter per worker, nothing inherited
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())

    def start():
        ready = ctx.Event()
        proc = ctx.Process(target=_worker_main, args=(url, log_level, os.getpid(), ready), daemon=False,
                           name="stich-bot-worker")
        proc.start()
        return proc, ready

    procs = [start() for _ in range(processes)]
    end = time.monotonic() + START_TIMEOUT
    for proc, ready in procs:
        while not ready.wait(0.1):
            if stop.is_set() or not proc.is_alive() or time.monotonic() > end:
                _stop_all([p for p, _ in procs])
                if stop.is_set():
                    return 0
                raise WorkerError(f"a bot worker process did not start (exit status {proc.exitcode})")
    print(f"stich bot-worker ready: {processes} processes", flush=True)
    event(log, "bot workers started", processes=processes)
    while not stop.wait(0.5):
        for i, (proc, _) in enumerate(procs):
            if not proc.is_alive():
                event(log, "bot worker process died; starting another", logging.ERROR, pid=proc.pid,
                      status=proc.exitcode)
                procs[i] = start()
    _stop_all([p for p, _ in procs])
    event(log, "bot workers stopped")
    sys.stdout.flush()
    return 0


def _stop_all(procs) -> None:
    for proc in procs:
        if proc.is_alive():
            proc.terminate()   # SIGTERM: finish the job in hand, leave the queue, exit
    end = time.monotonic() + 15
    for proc in procs:
        proc.join(max(0.1, end - time.monotonic()))
        if proc.is_alive():
            proc.kill()
            proc.join(5)
