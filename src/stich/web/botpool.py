"""Bots at web tables: one-way seeds and a pool of worker processes, so the event loop never waits.

A bot is rebuilt for every decision from its spec (``pimc`` or ``pimc@0.5s``), a seed and the seat's
view: nothing of a bot lives between moves, so a restarted server asks the same bot the same
question and gets the same answer.  The seed is an HMAC of the server's secret (kept in the
database) with the table id, seat and seq: nobody who knows the table id can predict the bots.

With ``stich serve --bot-queue redis`` the server uses :class:`stich.web.botqueue.RemoteBotPool`
instead (same ``choose()``): ``stich bot-worker`` processes think with the same :func:`think`, fed
through Redis, and a :class:`BotPool` of this module is only its fallback."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import multiprocessing
import os
import random
import signal
import sys
import time
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor

from stich.web import metrics
from stich.web.botfair import FairQueue

log = logging.getLogger("stich.web")


def bot_seed(secret: bytes, table_id: str, seat: int, seq: int) -> int:
    """A 63-bit seed for the bot deciding at ``seq`` in ``seat`` of ``table_id`` (HMAC-SHA256)."""
    digest = hmac.new(secret, f"stich-bot/{table_id}/{seat}/{seq}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def think(spec: str, seed: int, view: dict, legal: list[str]) -> str:
    """In a worker process: the action the bot ``spec`` chooses from ``view`` (an exception on a fault)."""
    from stich.bots import make_bot

    name, _, budget = spec.partition("@")
    bot = make_bot(name, seed=seed, budget=budget or None)
    try:
        answer = bot.choose(view, list(legal))
    finally:
        bot.close()
    if not isinstance(answer, str) or answer not in legal:
        raise ValueError(f"the {spec} bot chose {answer!r}, which is not legal")
    return answer


def think_timed(spec: str, seed: int, view: dict, legal: list[str]) -> tuple[str, float, dict[str, int]]:
    """:func:`think`, the seconds it took, measured in the worker (the queue before it is not thinking),
    and the fallbacks the bot made around game code, per reason (``stich.bots.fallbacks``), for the
    server's ``stich_bot_fallbacks_total``."""
    from stich.bots import fallbacks

    started = time.perf_counter()
    with fallbacks.recorded() as fell:
        answer = think(spec, seed, view, legal)
    return answer, time.perf_counter() - started, dict(fell)


def _warm() -> None:
    import stich.bots

    stich.bots.bot_names()  # import every bot module once per worker


def die_with_parent(parent_pid: int) -> None:
    """This process gets SIGKILL when its parent dies, even after ``kill -9`` of the parent (Linux:
    PR_SET_PDEATHSIG); it exits now if the parent is already gone."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:  # the parent died before prctl took effect
        os._exit(0)


def _init_worker(server_pid: int) -> None:
    """A worker dies with its server, even after ``kill -9`` of the server."""
    die_with_parent(server_pid)
    _warm()


def instant(spec: str) -> bool:
    """Whether the bot of ``spec`` decides in about a millisecond (``random``, ``heuristic`` and the
    levels built on it: ``Bot.instant``); an unknown name is not (its fault is answered as usual)."""
    from stich.bots import bot_class

    try:
        return bot_class(spec.partition("@")[0]).instant
    except ValueError:
        return False


class CountedPool:
    """What every pool does around its ``_choose``: the table's turn for a slot (``lane``, fair per
    table: :mod:`stich.web.botfair`), the queue depth (``waiting``) and the time from asking to
    answer, and (with ``decided_by``) the decision counted under that label."""

    waiting = 0
    decided_by: str | None = None

    def lane(self, spec: str) -> FairQueue:
        raise NotImplementedError

    async def choose(self, spec: str, seed: int, view: dict, legal: list[str], table: object = None,
                     people: bool = True) -> tuple[str, str | None]:
        """``(action, fault)``: the bot's legal answer, or a seeded random legal action and why.
        ``table`` (its id) is whose queue the decision waits in (None: a one-off of its own);
        ``people``: whether a person sits there (its decisions go before those of all-bot tables)."""
        self.waiting += 1
        started = time.perf_counter()
        try:
            async with self.lane(spec).turn(object() if table is None else table, spec, people):
                return await self._choose(spec, seed, view, legal)
        finally:
            self.waiting -= 1
            metrics.bot_answered(time.perf_counter() - started)
            if self.decided_by:
                metrics.bot_decided(self.decided_by)

    async def _choose(self, spec: str, seed: int, view: dict, legal: list[str]) -> tuple[str, str | None]:
        raise NotImplementedError


class BotPool(CountedPool):
    """Worker processes for bot thinking (``workers=0``: threads, for tiny set-ups), in two lanes:
    searches in the processes, one decision per process at a time, given out fairly per table; the
    instant bots (:func:`instant`) in a thread of their own, so that they never wait behind a search
    (about a millisecond of the server's CPU each, and fair per table too)."""

    decided_by = "local"

    def __init__(self, workers: int | None = None):
        if workers is None:
            workers = max(1, min(4, (os.cpu_count() or 2)))
        self.workers = workers
        self.waiting = 0  # decisions asked for and not answered yet (the bot queue depth metric)
        self.executor: Executor = self._make()
        self.searches = FairQueue(workers or 2)
        self.instants = FairQueue(1)
        self.instant_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stich-bot-instant")

    def lane(self, spec: str) -> FairQueue:
        return self.instants if instant(spec) else self.searches

    def _make(self) -> Executor:
        if self.workers == 0:
            return ThreadPoolExecutor(max_workers=2, thread_name_prefix="stich-bot")
        ctx = multiprocessing.get_context("spawn")  # no fork of a process with threads and sockets
        return ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx, initializer=_init_worker,
                                   initargs=(os.getpid(),))

    def warm(self) -> None:
        """Start the workers now, so that the first bot move does not wait for them."""
        for _ in range(max(1, self.workers)):
            self.executor.submit(_warm)

    async def _choose(self, spec: str, seed: int, view: dict, legal: list[str]) -> tuple[str, str | None]:
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            executor = self.instant_executor if instant(spec) else self.executor
            try:
                answer, seconds, fell = await loop.run_in_executor(executor, think_timed, spec, seed, view, legal)
                metrics.bot_thought(spec, seconds)
                metrics.bot_fell_back(fell)
                return answer, None
            except asyncio.CancelledError:
                raise
            except BrokenExecutor as exc:  # a worker died (killed, out of memory): a new pool, one retry
                log.error("bot pool broken; restarting it", extra={"fields": {"error": repr(exc)}})
                if attempt == 1:
                    self.executor.shutdown(wait=False, cancel_futures=True)
                    self.executor = self._make()
                    continue
                error = exc
            except Exception as exc:  # noqa: BLE001 - a bot fault never stops a table
                error = exc
            break
        fallback = random.Random(seed).choice(legal)
        return fallback, f"{type(error).__name__}: {error}"

    async def run(self, key: object, fn, *args):
        """``fn(*args)`` in a worker process, when the search lane gives ``key`` a slot as it gives an
        all-bot table's decision one (after every table where a person waits): work for the bot
        workers that is not a bot's move, such as one step of a match's analysis (stich.web.analyses).
        A broken pool is replaced and the error raised: the caller decides whether to ask again."""
        async with self.searches.turn(key, "analysis", people=False):
            try:
                return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)
            except BrokenExecutor:
                self.executor.shutdown(wait=False, cancel_futures=True)
                self.executor = self._make()
                raise

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.instant_executor.shutdown(wait=False, cancel_futures=True)
