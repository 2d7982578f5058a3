"""Settings read from the environment (``STICH_*``), each checked, with a one-line error."""

from __future__ import annotations

import functools
import os
import re


def env_seconds(name: str, default: float, low: float, high: float) -> float:
    """Seconds from the environment variable ``name`` (``default`` when unset), within [low, high]."""
    try:
        value = float(os.environ.get(name, str(default)))
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds") from None
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low:g} and {high:g}")
    return value


_PREFIX = re.compile(r"[A-Za-z0-9_-]{1,32}")


@functools.cache
def redis_prefix() -> str:
    """The first part of every Redis channel and key of this cluster (``STICH_REDIS_PREFIX``, default
    ``stich``): clusters with different prefixes share one Redis without hearing each other.  Letters,
    digits, ``_`` and ``-`` only (no ``:``, no glob characters: channel patterns are built from it).
    Read once per process: every process of a cluster (servers and bot workers) must use the same."""
    value = os.environ.get("STICH_REDIS_PREFIX", "stich")
    if not _PREFIX.fullmatch(value):
        raise ValueError(f"STICH_REDIS_PREFIX must be 1 to 32 letters, digits, '_' or '-', not {value!r}")
    return value
