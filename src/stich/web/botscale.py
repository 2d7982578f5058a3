"""The bots' levels on the players' rating scale: each key's levels as measured by
``benchmarks/bot_ratings.py`` (rated-like arena matches between the levels, rated with the same
model as people: docs/ratings.md, "The bots on the scale"), read from ``bot_ratings.json`` beside this
module.  Fixed numbers: no match a person plays moves them."""

from __future__ import annotations

import functools
import json
from pathlib import Path

DATA = Path(__file__).with_name("bot_ratings.json")


@functools.cache
def _table() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8")) if DATA.exists() else {}


def for_key(key: str) -> dict:
    """``{"bots": [{"bot", "rating", "deviation", "matches"}] best first, "variant", "measured"}`` for a
    key, or ``{"bots": []}`` when it was not measured."""
    entry = _table().get(key)
    if entry is None:
        return {"bots": []}
    bots = [{"bot": name, **values} for name, values in entry["levels"].items()]
    bots.sort(key=lambda b: -b["rating"])
    return {"bots": bots, "variant": entry["variant"], "measured": entry["measured"]}
