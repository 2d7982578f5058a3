"""The names a cluster's processes talk on (Redis pub/sub channels, :mod:`stich.web.cluster`), each
under the cluster's prefix (``STICH_REDIS_PREFIX``, default ``stich``), so that two clusters with
different prefixes can share one Redis."""

from __future__ import annotations

from stich.web.settings import redis_prefix

FORWARDED = ("act", "say", "rename", "signal", "begin")   # what a replica's clients send that the owner decides


def released() -> str:
    """A process that shuts down (or hands tables to a newcomer) names the tables it gave up here."""
    return f"{redis_prefix()}:released"


def t_channel(table_id: str) -> str:
    return f"{redis_prefix()}:t:{table_id}"


def o_channel(table_id: str) -> str:
    return f"{redis_prefix()}:o:{table_id}"


def n_channel(node: str) -> str:
    return f"{redis_prefix()}:n:{node}"


def kind_of(channel: str) -> tuple[str, str]:
    """``("t" | "o" | "n" | "released", the rest)`` of one of this cluster's channels."""
    rest = channel[len(redis_prefix()) + 1:]
    if rest == "released":
        return "released", ""
    kind, _, name = rest.partition(":")
    return kind, name
