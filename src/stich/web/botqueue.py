"""Bot decisions through Redis: the wire format of the bot queue and the server's side of it.

With ``stich serve --redis URL --bot-queue redis`` a server does not think for its bots itself: it
pushes each decision as a *job* on one Redis list, and ``stich bot-worker`` processes (any number, on
any machine, see :mod:`stich.web.botworker`) take jobs, think with :func:`stich.web.botpool.think`
and push the answer on the asking server's own reply list.  The patterns are Redis's plain ones:

- ``stich:bots:jobs`` (list): servers ``LPUSH`` jobs; a worker ``BLMOVE``\\ s the oldest into its
  own ``stich:bots:doing:WORKER`` list while it thinks, and removes it from there once answered
  (the "reliable queue" pattern of the Redis documentation).
- ``stich:bots:workers`` (sorted set): each worker's id, scored with the time of its last heartbeat
  (every second).  A worker silent for :data:`WORKER_TTL` seconds is dead: any live worker moves
  the jobs of its ``doing`` list back onto the queue, so a worker killed mid-job (``SIGKILL``)
  loses no decision.
- ``stich:bots:replies:NODE`` (list): the answers for one server process; it ``BLPOP``\\ s them.

A job holds what the seat's bot may know and nothing more: the bot spec, the one-way bot seed (an
HMAC of the server's secret, never the deal seed), the seat's view, its legal actions, a deadline and
the reply list.  No table id, token or other seat's card.  Bot decisions are deterministic given
spec, seed and view, so a job answered twice (a slow worker thought dead, a requeued job) is
harmless: the server takes the first valid answer and ignores the rest.

A table never waits on the queue beyond a bounded time: with no live worker (none started, all
dead, Redis unreachable) the server decides at once in its own pool; a job unanswered by its
deadline (:data:`QUEUE_WAIT` seconds plus the bot's time budget) is decided there too.  Each such
decision is logged and counted (``stich_bot_fallbacks_total{reason}``); once workers heartbeat
again the queue is used again."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import re
import secrets
import time
from dataclasses import dataclass

from stich.bots.fallbacks import REASONS as FALLBACK_REASONS
from stich.web import metrics
from stich.web.botfair import FairQueue
from stich.web.botpool import BotPool, CountedPool
from stich.web.logs import event
from stich.web.settings import redis_prefix

log = logging.getLogger("stich.web")

# under the cluster's prefix (STICH_REDIS_PREFIX, default "stich"): clusters sharing a Redis keep apart
JOBS = f"{redis_prefix()}:bots:jobs"
WORKERS = f"{redis_prefix()}:bots:workers"
DOING_PREFIX = f"{redis_prefix()}:bots:doing:"
REPLY_PREFIX = f"{redis_prefix()}:bots:replies:"

HEARTBEAT = 1.0        # seconds between a worker's heartbeats
WORKER_TTL = 4.0       # a worker not heard from for this long is dead (its jobs go back on the queue)
# seconds a job may wait for a worker, beyond the bot's own time budget: long enough for the job of a
# worker killed mid-job to be taken back (WORKER_TTL, plus up to two heartbeats until a reaper looks)
# and answered by another worker
QUEUE_WAIT = 8.0
# seconds beyond its time budget after which a job waiting for its answer no longer holds one of the
# server's slots on the queue (a worker answers within milliseconds of its budget, or is stuck)
OVERDUE = 2.0
REPLY_TTL = 60         # a reply list nobody reads (its server died) expires after this many seconds
MAX_JOB_BYTES = 1024 * 1024
VERSION = 2   # 2: a reply carries the bot's fallbacks around game code
_ID = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
JOB_KEYS = frozenset({"v", "id", "spec", "seed", "view", "legal", "deadline", "reply"})
REPLY_KEYS = frozenset({"v", "id", "action", "error", "seconds", "worker", "fallbacks"})


def doing_key(worker: str) -> str:
    return DOING_PREFIX + worker


def reply_key(node: str) -> str:
    return REPLY_PREFIX + node


def queue_wait() -> float:
    """:data:`QUEUE_WAIT`, or ``STICH_BOT_QUEUE_WAIT`` seconds when set."""
    raw = os.environ.get("STICH_BOT_QUEUE_WAIT")
    if raw is None:
        return QUEUE_WAIT
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"STICH_BOT_QUEUE_WAIT is seconds, not {raw!r}") from None
    if not value > 0:
        raise ValueError(f"STICH_BOT_QUEUE_WAIT must be more than 0, not {raw!r}")
    return value


def budget_seconds(spec: str) -> float:
    """The time budget of ``pimc@0.5s`` (0.5); 0 for an iteration budget or none."""
    from stich.bots import Budget

    try:
        return Budget.parse(spec.partition("@")[2] or None).seconds or 0.0
    except ValueError:
        return 0.0


class BadMessage(ValueError):
    """A job or reply on the queue that is not one (the message says what is wrong)."""


@dataclass(frozen=True)
class Job:
    id: str
    spec: str
    seed: int
    view: dict
    legal: list
    deadline: float
    reply: str


@dataclass(frozen=True)
class Reply:
    id: str
    action: str | None
    error: str | None
    seconds: float
    worker: str
    fallbacks: dict   # reason -> how often the bot fell back around game code (stich.bots.fallbacks)


def encode_job(job: Job) -> str:
    return json.dumps({"v": VERSION, "id": job.id, "spec": job.spec, "seed": job.seed, "view": job.view,
                       "legal": job.legal, "deadline": job.deadline, "reply": job.reply}, separators=(",", ":"))


def encode_reply(reply: Reply) -> str:
    return json.dumps({"v": VERSION, "id": reply.id, "action": reply.action, "error": reply.error,
                       "seconds": reply.seconds, "worker": reply.worker, "fallbacks": reply.fallbacks},
                      separators=(",", ":"))


def _object(raw, what: str, keys: frozenset) -> dict:
    if isinstance(raw, (bytes, bytearray)):
        if len(raw) > MAX_JOB_BYTES:
            raise BadMessage(f"a {what} has at most {MAX_JOB_BYTES} bytes, this one {len(raw)}")
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadMessage(f"a {what} is UTF-8 JSON text") from None
    try:
        msg = json.loads(raw)
    except ValueError as exc:
        raise BadMessage(f"a {what} is a JSON object: {exc}") from None
    if not isinstance(msg, dict):
        raise BadMessage(f"a {what} is a JSON object, not {type(msg).__name__}")
    if msg.get("v") != VERSION:
        raise BadMessage(f"a {what} has \"v\": {VERSION}, not {msg.get('v')!r}")
    if set(msg) != keys:
        missing, extra = sorted(keys - set(msg)), sorted(set(msg) - keys)
        raise BadMessage(f"a {what} has the keys {sorted(keys)}" + (f"; missing {missing}" if missing else "")
                         + (f"; unknown {extra}" if extra else ""))
    if not isinstance(msg["id"], str) or not _ID.fullmatch(msg["id"]):
        raise BadMessage(f"a {what}'s id is 1 to 64 letters, digits or _.:-, not {msg['id']!r:.80}")
    return msg


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value  # not NaN


def parse_job(raw) -> Job:
    """A job taken from the queue, checked; :class:`BadMessage` says what is wrong with it."""
    msg = _object(raw, "bot job", JOB_KEYS)
    spec, seed, view, legal = msg["spec"], msg["seed"], msg["view"], msg["legal"]
    if not isinstance(spec, str) or not 0 < len(spec) <= 64:
        raise BadMessage(f"a bot job's spec is a bot name like 'pimc@0.5s', not {spec!r:.80}")
    _check_budget(spec)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise BadMessage("a bot job's seed is a whole number from 0 to 2**63-1")
    if not isinstance(view, dict):
        raise BadMessage("a bot job's view is a JSON object")
    if (not isinstance(legal, list) or not legal
            or not all(isinstance(a, str) and 0 < len(a) <= 200 for a in legal)):
        raise BadMessage("a bot job's legal actions are a non-empty list of action texts")
    if not _number(msg["deadline"]):
        raise BadMessage("a bot job's deadline is a Unix time in seconds")
    reply = msg["reply"]
    if not isinstance(reply, str) or not reply.startswith(REPLY_PREFIX) \
            or not _ID.fullmatch(reply[len(REPLY_PREFIX):]):
        # a worker writes only to reply lists: a job cannot make it push into any other key
        raise BadMessage(f"a bot job's reply list is {REPLY_PREFIX}NODE, not {reply!r:.80}")
    return Job(msg["id"], spec, seed, view, legal, float(msg["deadline"]), reply)


def _check_budget(spec: str) -> None:
    """A job asks for no more thinking than a table may (a worker must not be held for hours)."""
    from stich.bots import Budget
    from stich.web.spec import MAX_BOT_ITERATIONS, MAX_BOT_SECONDS

    try:
        budget = Budget.parse(spec.partition("@")[2] or None)
    except ValueError as exc:
        raise BadMessage(f"a bot job's spec {spec!r}: {exc}") from None
    if (budget.seconds or 0) > MAX_BOT_SECONDS or (budget.iterations or 0) > MAX_BOT_ITERATIONS:
        raise BadMessage(f"a bot job's bot may think at most {MAX_BOT_SECONDS:g}s or {MAX_BOT_ITERATIONS} "
                         f"iterations, not {spec!r}")


def parse_reply(raw) -> Reply:
    """A reply read from a server's reply list, checked."""
    msg = _object(raw, "bot reply", REPLY_KEYS)
    action, error, seconds, worker = msg["action"], msg["error"], msg["seconds"], msg["worker"]
    if (action is None) == (error is None):
        raise BadMessage("a bot reply has either an action or an error")
    if action is not None and not isinstance(action, str):
        raise BadMessage("a bot reply's action is an action text")
    if error is not None and not isinstance(error, str):
        raise BadMessage("a bot reply's error is text")
    if not _number(seconds) or seconds < 0:
        raise BadMessage("a bot reply's seconds is a number of 0 or more")
    if not isinstance(worker, str) or len(worker) > 128:
        raise BadMessage("a bot reply's worker is its id")
    fell = msg["fallbacks"]
    if not isinstance(fell, dict) or any(r not in FALLBACK_REASONS or type(n) is not int or n < 1
                                         for r, n in fell.items()):
        raise BadMessage(f"a bot reply's fallbacks count reasons ({', '.join(FALLBACK_REASONS)}) with whole numbers")
    return Reply(msg["id"], action, error, float(seconds), worker, fell)


class NoWorkers(Exception):
    """Every worker went silent while a job waited: decide locally now rather than at its deadline."""


class RemoteBotPool(CountedPool):
    """``BotPool.choose()`` through the Redis bot queue, with the server's own pool as the fallback.

    ``local_workers`` sizes that fallback pool (``--bot-workers``; default 1 process, started only
    when first needed).  ``workers`` (the ``stich_bot_workers`` gauge) is the number of live queue
    workers; ``waiting`` (``stich_bot_queue_depth``) the decisions this process waits for.

    This process has at most one job per live worker on the queue at a time, given out fairly per
    table (:mod:`stich.web.botfair`); the others wait here, where the fair order holds, not on the
    queue's list, which is first come first served."""

    def __init__(self, url: str, local_workers: int | None = None):
        self.url = url
        self.local = BotPool(1 if local_workers is None else local_workers)
        self.node = f"{os.getpid()}-{secrets.token_hex(6)}"
        self.replies = reply_key(self.node)
        self.wait = queue_wait()
        self.waiting = 0
        self.live = 0
        # a job whose answer is overdue (a worker stuck or killed mid-job) stops holding its slot,
        # so that a stuck worker cannot make every table wait its turn behind a QUEUE_WAIT each
        self.overdue_at: dict[str, float] = {}   # job id -> when it no longer holds its slot
        self.jobs = FairQueue(lambda: self.live + self.overdue())
        self.pending: dict[str, tuple[asyncio.Future, list[str]]] = {}
        self.client = None
        self._tasks: list[asyncio.Task] = []
        self._polled = False
        self._outage_noted = False

    @property
    def workers(self) -> int:
        return self.live

    def warm(self) -> None:
        """Connect and start listening (called on the event loop by ``Server.start``).  The fallback
        pool starts no process until it is first needed."""
        import redis.asyncio as aioredis

        # socket_timeout above the 1 s blocking reads; a Redis that stops answering fails calls
        # within seconds instead of hanging them (the bounded wait needs that)
        self.client = aioredis.from_url(self.url, socket_timeout=5, socket_connect_timeout=2)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._read_replies()), loop.create_task(self._watch_workers())]

    # --- deciding ----------------------------------------------------------------------------------
    def lane(self, spec: str) -> FairQueue:
        return self.jobs

    def overdue(self) -> int:
        """Jobs on the queue whose answer is overdue (they wait for it, or their deadline, without a slot)."""
        now = time.monotonic()
        return sum(1 for at in self.overdue_at.values() if at < now)

    async def _choose(self, spec: str, seed: int, view: dict, legal: list[str]) -> tuple[str, str | None]:
        if not self._polled:
            await self._poll()
        if self.live <= 0:
            return await self._fallback("no_workers", spec, seed, view, legal)
        wait = self.wait + budget_seconds(spec)
        job = Job(secrets.token_hex(8), spec, seed, view, list(legal), time.time() + wait, self.replies)
        future = asyncio.get_running_loop().create_future()
        self.pending[job.id] = (future, job.legal)
        self.overdue_at[job.id] = time.monotonic() + budget_seconds(spec) + OVERDUE
        try:
            try:
                payload = encode_job(job)
                await asyncio.wait_for(self.client.lpush(JOBS, payload), min(wait, 3.0))
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - Redis away or slow: the table must not wait
                return await self._fallback("redis", spec, seed, view, legal, f"{type(exc).__name__}: {exc}")
            try:
                reply: Reply = await asyncio.wait_for(future, wait)
            except TimeoutError:
                return await self._fallback("timeout", spec, seed, view, legal, f"no answer within {wait:g}s")
            except NoWorkers:
                return await self._fallback("no_workers", spec, seed, view, legal)
        finally:
            self.pending.pop(job.id, None)
            self.overdue_at.pop(job.id, None)
        metrics.bot_decided("worker")
        if reply.error is not None:  # the bot itself failed: as in the local pool, a seeded random move
            return random.Random(seed).choice(legal), f"{reply.error} (in worker {reply.worker})"
        metrics.bot_thought(spec, reply.seconds)
        metrics.bot_fell_back(reply.fallbacks)
        return reply.action, None

    async def _fallback(self, reason: str, spec, seed, view, legal, detail: str = "") -> tuple[str, str | None]:
        metrics.bot_fallback(reason)
        if reason != "no_workers" or not self._outage_noted:   # an outage is told once, not every move
            self._outage_noted = reason == "no_workers"
            event(log, "bot decided by the server", logging.WARNING, reason=reason, bot=spec, detail=detail,
                  workers=self.live)
        answer = await self.local._choose(spec, seed, view, legal)
        metrics.bot_decided("fallback")
        return answer

    # --- listening ---------------------------------------------------------------------------------
    async def _read_replies(self) -> None:
        failing = False
        while True:
            try:
                item = await self.client.blpop([self.replies], timeout=1)
                failing = False
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - Redis away: keep trying; the watcher falls back
                if not failing:
                    event(log, "bot replies unreadable", logging.WARNING, error=f"{type(exc).__name__}: {exc}")
                failing = True
                await asyncio.sleep(0.5)
                continue
            if item is not None:
                self.on_reply(item[1])

    def on_reply(self, raw) -> None:
        """One reply from the queue: the first valid answer to a waiting job settles it."""
        try:
            reply = parse_reply(raw)
        except BadMessage as exc:
            event(log, "bot reply refused", logging.WARNING, error=str(exc), bytes=len(raw))
            return
        waiting = self.pending.get(reply.id)
        if waiting is None or waiting[0].done():
            # answered already (a job thought lost and done twice) or decided here at its deadline
            event(log, "bot reply for no waiting decision", logging.DEBUG, job=reply.id, worker=reply.worker)
            return
        future, legal = waiting
        if reply.action is not None and reply.action not in legal:
            event(log, "bot reply refused", logging.WARNING, job=reply.id, worker=reply.worker,
                  error=f"{reply.action!r:.80} is not a legal action of that decision")
            return
        future.set_result(reply)

    async def _poll(self) -> None:
        """How many workers heartbeat now (0 when Redis does not answer)."""
        before = self.live
        try:
            self.live = int(await asyncio.wait_for(
                self.client.zcount(WORKERS, time.time() - WORKER_TTL, "+inf"), 3.0))
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - counted as no workers: decide here until it answers again
            self.live = 0
        self._polled = True
        if self.live and not before:
            self._outage_noted = False
            event(log, "bot workers available", workers=self.live)
        elif before and not self.live:
            event(log, "bot workers gone: the server decides its bots' moves", logging.WARNING)
            for future, _ in self.pending.values():   # no one will answer them: decide now
                if not future.done():
                    future.set_exception(NoWorkers())

    async def _watch_workers(self) -> None:
        while True:
            await self._poll()
            self.jobs.poke()   # jobs gone overdue meanwhile free their slots
            await asyncio.sleep(HEARTBEAT)

    # --- closing -----------------------------------------------------------------------------------
    async def run(self, key: object, fn, *args):
        """Work that is not a bot's move (a match's analysis) runs in this server's own pool: the
        queue's jobs are bot decisions only (see :meth:`BotPool.run`)."""
        return await self.local.run(key, fn, *args)

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        self.local.close()

    async def aclose(self) -> None:
        self.close()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.client is not None:
            await self.client.aclose()
