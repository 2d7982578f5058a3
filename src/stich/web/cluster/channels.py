"""The names a cluster's processes talk on (Redis pub/sub channels, :mod:`stich.web.cluster`)."""

from __future__ import annotations

RELEASED = "stich:released"
FORWARDED = ("act", "say", "rename", "signal", "begin")   # what a replica's clients send that the owner decides


def t_channel(table_id: str) -> str:
    return f"stich:t:{table_id}"


def o_channel(table_id: str) -> str:
    return f"stich:o:{table_id}"


def n_channel(node: str) -> str:
    return f"stich:n:{node}"
