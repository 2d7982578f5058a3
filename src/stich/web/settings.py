"""Settings read from the environment (``STICH_*``), each checked, with a one-line error."""

from __future__ import annotations

import os


def env_seconds(name: str, default: float, low: float, high: float) -> float:
    """Seconds from the environment variable ``name`` (``default`` when unset), within [low, high]."""
    try:
        value = float(os.environ.get(name, str(default)))
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds") from None
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low:g} and {high:g}")
    return value
