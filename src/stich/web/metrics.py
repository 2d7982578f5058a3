"""Prometheus metrics of the table server (``GET /metrics``, the text exposition format).

The server calls a few small hooks where it does the work (an action committed, a bot's answer, a
database commit, an error); the gauges (tables, sockets, bot queue) are read from the live servers
when Prometheus scrapes.  Labels hold only words from fixed, short lists (an action's origin, a
bot's name, an error kind), or this process's node id (``stich_tables_owned``: one series per
process): never a table id, a token, a seed or a card, so nothing secret and no unbounded series
reach the scrape.

Every metric lives in this module's own registry (:data:`REGISTRY`), not the process-wide default,
so that the exposition holds the server's metrics and nothing a library registered by chance.
"""

from __future__ import annotations

import weakref

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily

from stich.bots import fallbacks

# The ``*_created`` series (a timestamp per counter) double the scrape and tell nothing a process
# start time does not; this switch is process-wide, which suits a server process.
disable_created_metrics()

REGISTRY = CollectorRegistry(auto_describe=True)

#: Where an action came from (the ``origin`` column of the log).
ORIGINS = ("human", "bot", "takeover", "timer")
#: The kinds of errors counted (``stich_errors_total{kind}``).
ERROR_KINDS = (
    "action_refused",    # a client's action the engine (or the table) refused: answered with an error
    "bad_message",       # a socket message that is not JSON, too large, of an unknown type, ...
    "socket_refused",    # a socket refused at connect: bad format/lang, unknown table, forged token
    "bad_request",       # an HTTP request answered 400
    "bot_fault",         # a bot raised, timed out or its worker died: a random legal move instead
    "commit_failed",     # an action that could not be committed (nothing changed, the client is told)
    "write_failed",      # a database write that failed (after the group commit retried it alone)
    "table_step_failed",  # a bug in one step of a table's actor (logged with its traceback)
    "rate_limited",      # a request or socket refused by a limit (429, close 4429)
    "refusal_not_kept",  # a refused action past the seat's STICH_REFUSALS_KEPT: answered, not stored
    "timed_out",         # a request whose head or body did not arrive in time (closed)
)

# Seconds: card-table actions take milliseconds; bot decisions up to the 10 s budget limit.
_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
_BOT = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

ACTIONS = Counter("stich_actions", "Actions committed to table logs (rate() gives actions per second)",
                  ["origin"], registry=REGISTRY)
ACTION_LATENCY = Histogram(
    "stich_action_latency_seconds",
    "A client's action: from its socket message received to the new state frame written to that client's socket "
    "(validation, commit, broadcast, sending); acknowledged actions only", buckets=_FAST, registry=REGISTRY)
BOT_THINK = Histogram("stich_bot_think_seconds", "Time a bot thought about one decision (in its worker)",
                      ["bot"], buckets=_BOT, registry=REGISTRY)
BOT_WAIT = Histogram("stich_bot_wait_seconds",
                     "A bot decision from being asked to its answer on the event loop (queue + thinking)",
                     buckets=_BOT, registry=REGISTRY)
COMMIT = Histogram("stich_db_commit_seconds", "One database transaction of the group commit (statements + COMMIT)",
                   buckets=_FAST, registry=REGISTRY)
COMMIT_BATCH = Histogram("stich_db_commit_writes", "Writes (actions, answers, chat, ...) grouped into one commit",
                         buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256), registry=REGISTRY)
ERRORS = Counter("stich_errors", "Errors by kind", ["kind"], registry=REGISTRY)
GC_FULL = Histogram("stich_gc_full_collection_seconds",
                    "The server's own full garbage collection, once a minute (the event loop waits for it)",
                    buckets=_FAST, registry=REGISTRY)
#: Where a bot decision was made: ``local`` (the server's own pool, ``--bot-queue local``), ``worker``
#: (a ``stich bot-worker`` through the Redis bot queue), ``fallback`` (the server's own pool although
#: ``--bot-queue redis`` is set, because no worker answered in time: see BOT_FALLBACK_REASONS).
BOT_WHERE = ("local", "worker", "fallback")
#: Why a bot move fell back: the server decided it itself with ``--bot-queue redis`` (no live worker -
#: none started, all silent, or Redis unreachable when counting them -, a job unanswered by its
#: deadline, a failed push), or game code raised inside the bot and it went on without that piece
#: (``stich.bots.fallbacks.REASONS``: heuristic, ranking, playout, raise_weights, sampler).
BOT_FALLBACK_REASONS = ("no_workers", "timeout", "redis", *fallbacks.REASONS)
BOT_DECISIONS = Counter("stich_bot_decisions", "Bot decisions by where they were made (local, worker, fallback)",
                        ["by"], registry=REGISTRY)
BOT_FALLBACKS = Counter("stich_bot_fallbacks",
                        "Bot moves that fell back, by reason: decided by the server because the bot queue's "
                        "workers did not answer, or game code raised inside the bot",
                        ["reason"], registry=REGISTRY)

# Every series exists from the start, so rate() and increase() see the first event; the children
# are looked up once (``labels()`` costs three times an ``inc()``: callgrind, 13.3k against 4.5k
# instructions).
_ACTIONS = {origin: ACTIONS.labels(origin) for origin in ORIGINS}
_ERRORS = {kind: ERRORS.labels(kind) for kind in ERROR_KINDS}
_BOTS: dict = {}
_BOT_WHERE = {where: BOT_DECISIONS.labels(where) for where in BOT_WHERE}
_BOT_FALLBACKS = {reason: BOT_FALLBACKS.labels(reason) for reason in BOT_FALLBACK_REASONS}


# --- hooks the server calls ------------------------------------------------------------------------
def action(origin: str) -> None:
    """An action was committed to a table's log."""
    _ACTIONS.get(origin, _ACTIONS["bot"]).inc()


def action_latency(seconds: float) -> None:
    ACTION_LATENCY.observe(seconds)


def bot_thought(spec: str, seconds: float) -> None:
    """A bot (``pimc`` or ``pimc@0.5s``: the label is the name, not the budget) thought ``seconds``."""
    name = spec.partition("@")[0]
    child = _BOTS.get(name)
    if child is None:  # bot names come from the bot registry: a short, fixed list
        child = _BOTS[name] = BOT_THINK.labels(name)
    child.observe(seconds)


def bot_answered(seconds: float) -> None:
    BOT_WAIT.observe(seconds)


def bot_decided(where: str) -> None:
    """A bot decision was made by the local pool, by a queue worker or as a fallback."""
    _BOT_WHERE[where].inc()


def bot_fallback(reason: str) -> None:
    """A server decided a bot move itself although it uses the bot queue (one of BOT_FALLBACK_REASONS)."""
    _BOT_FALLBACKS[reason].inc()


def bot_fell_back(fell: dict[str, int]) -> None:
    """A bot's fallbacks around game code in one decision (``stich.bots.fallbacks``), as its worker told."""
    for reason, n in fell.items():
        _BOT_FALLBACKS[reason].inc(n)


def committed(seconds: float, writes: int) -> None:
    """One group-commit transaction of ``writes`` writes took ``seconds``."""
    COMMIT.observe(seconds)
    COMMIT_BATCH.observe(writes)


def error(kind: str) -> None:
    child = _ERRORS.get(kind)
    if child is None:  # a typo in a hook must not create a new series
        raise ValueError(f"unknown error kind {kind!r}")
    child.inc()


# --- gauges read from the live servers when scraped --------------------------------------------------
_servers: weakref.WeakSet = weakref.WeakSet()


def watch(server) -> None:
    """Report ``server``'s tables, sockets and bot queue (called once it has started)."""
    _servers.add(server)


class _Live:
    def collect(self):
        tables = GaugeMetricFamily("stich_tables", "Tables in memory, by state", labels=["state"])
        sockets = GaugeMetricFamily("stich_sockets", "Open table sockets, by role", labels=["role"])
        queue = GaugeMetricFamily("stich_bot_queue_depth",
                                  "Bot decisions asked for and not answered yet (waiting for or in a worker)")
        workers = GaugeMetricFamily("stich_bot_workers", "Bot worker processes (0: bots think in threads); with "
                                    "--bot-queue redis the stich bot-worker processes heard from")
        owned = GaugeMetricFamily("stich_tables_owned", "Unfinished tables this process owns (decides for), by "
                                  "node id (the process's id in a cluster, 'local' without --redis)",
                                  labels=["node"])
        counts = {"open": 0, "finished": 0}
        by_node: dict[str, int] = {}
        roles = {"player": 0, "spectator": 0}
        depth = n_workers = 0
        for server in list(_servers):
            cluster = getattr(server, "cluster", None)
            node = cluster.node if cluster is not None else "local"
            by_node.setdefault(node, 0)
            for actor in list(getattr(server, "tables", {}).values()):
                counts["finished" if actor.finished else "open"] += 1
                if actor.owner and not actor.finished:
                    by_node[node] += 1
                for conn in list(actor.conns):
                    roles["spectator" if conn.seat is None else "player"] += 1
            pool = getattr(server, "pool", None)
            if pool is not None:
                depth += pool.waiting
                n_workers += pool.workers
        for state, n in counts.items():
            tables.add_metric([state], n)
        for role, n in roles.items():
            sockets.add_metric([role], n)
        for node, n in by_node.items():
            owned.add_metric([node], n)
        queue.add_metric([], depth)
        workers.add_metric([], n_workers)
        return [tables, sockets, queue, workers, owned]

    def describe(self):
        return []  # read at scrape time only: nothing to describe up front


REGISTRY.register(_Live())


def exposition() -> tuple[bytes, str]:
    """The body and content type of ``GET /metrics``."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


__all__ = ["REGISTRY", "ORIGINS", "ERROR_KINDS", "action", "action_latency", "bot_thought", "bot_answered",
           "bot_decided", "bot_fallback", "bot_fell_back",
           "committed", "error", "watch", "exposition"]
