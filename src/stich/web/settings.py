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


def env_int(name: str, default: int, low: int, high: int) -> int:
    """A whole number from the environment variable ``name`` (``default`` when unset), within [low, high]."""
    raw = os.environ.get(name, str(default))
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {raw!r}") from None
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}")
    return value


def env_rates(name: str, default: str) -> list:
    """Rates such as ``20/minute;120/hour`` from the environment variable ``name`` (the ``limits``
    package's notation: ``N/second|minute|hour|day``, several joined by ``;``), parsed."""
    from limits import parse_many

    raw = os.environ.get(name, default)
    try:
        rates = parse_many(raw)
    except ValueError:
        raise ValueError(f"{name} must be rates such as '20/minute;120/hour', not {raw!r}") from None
    if not rates:
        raise ValueError(f"{name} must name at least one rate, such as '20/minute'")
    return rates
