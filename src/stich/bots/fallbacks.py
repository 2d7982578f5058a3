"""A bot's fallbacks when game code raises: loud, never silent.

A bot at a live table must not crash the match when a game's heuristic, ranking, world sampler or
playout player raises, so the bots keep a safety net there (the heuristic plays the first legal
action, pimc decides without the broken piece).  But a net that catches quietly hides the bug: a
broken world sampler made ``pimc`` play like the heuristic, with every test still green.  So each
net calls :func:`fell_back` with its reason, which

* **under tests** (:data:`STRICT`: ``STICH_BOTS_STRICT=1``, set by ``tests/conftest.py``) raises
  the error again, so the suite fails on any fallback;
* **in production** counts it (:data:`COUNTS`, per reason), logs it with its traceback (logger
  ``stich.bots.fallbacks``) and tells every listener (:func:`on_fallback`: the web server's
  ``stich_bot_fallbacks_total{reason}``), then lets the bot go on.

Expected outcomes are no fallbacks and are caught by their own type where they happen (an action
not legal in a sampled world: ``IllegalActionError``; no world consistent with a view: ``WorldError``).
"""

from __future__ import annotations

import logging
import os
import threading
from collections import Counter
from collections.abc import Callable
from contextlib import contextmanager

#: why a bot fell back: the piece of game code that raised
REASONS = (
    "heuristic",       # the game's heuristic companion (choose, bet_reading) raised or chose no legal action
    "ranking",         # the heuristic's rank(view, legal), the candidates pimc evaluates
    "playout",         # the heuristic in a playout of a sampled world (pimc's evaluation of a decision)
    "raise_weights",   # the heuristic's hand strength in a sampled world (weighing an opponent's raise)
    "sampler",         # the game's world_spec: no world drawn, pimc falls back on the heuristic
)

#: raise instead of falling back: the tests, and development (``STICH_BOTS_STRICT=1``)
STRICT = os.environ.get("STICH_BOTS_STRICT", "") not in ("", "0")

#: the fallbacks of this process so far, per reason
COUNTS: Counter[str] = Counter()

log = logging.getLogger("stich.bots.fallbacks")
_LISTENERS: list[Callable[[str], None]] = []
_THREAD = threading.local()   # the open recorded() blocks of this thread


def on_fallback(listener: Callable[[str], None]) -> None:
    """Call ``listener(reason)`` on every fallback of this process (a metrics counter)."""
    _LISTENERS.append(listener)


def fell_back(reason: str, error: BaseException) -> None:
    """A bot falls back because ``error`` was raised by game code (call it in the ``except`` block):
    raised again under :data:`STRICT`, else counted, logged and told to the listeners."""
    if reason not in REASONS:
        raise ValueError(f"unknown fallback reason {reason!r} (reasons: {', '.join(REASONS)})")
    if STRICT:
        raise error
    COUNTS[reason] += 1
    for taken in getattr(_THREAD, "open", ()):
        taken[reason] += 1
    log.warning("bot fallback (%s): %s: %s", reason, type(error).__name__, error, exc_info=error)
    for listener in _LISTENERS:
        listener(reason)


def counts() -> dict[str, int]:
    """Every reason's fallbacks so far in this process (0 where none)."""
    return {reason: COUNTS[reason] for reason in REASONS}


@contextmanager
def recorded():
    """The fallbacks this thread makes inside the block, per reason: what a bot worker process
    sends back with its answer, so that its server counts them (a worker's own :data:`COUNTS` are
    in another process, and a thread's next to another thread's)."""
    taken: Counter[str] = Counter()
    stack = _THREAD.__dict__.setdefault("open", [])
    stack.append(taken)
    try:
        yield taken
    finally:
        stack.remove(taken)
