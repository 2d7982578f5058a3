"""A test game in the registry for as long as the tests that use it run, and out again after: the
registry is global, and what lists its games (the CLI's help, ``stich.games()``) must see only the
games the tests of the moment expect."""

from __future__ import annotations

from contextlib import contextmanager

import stich.engine
from stich.engine import registry


@contextmanager
def registered(name: str, target: str):
    had = name in registry._GAMES
    stich.engine.register(name, target)
    try:
        yield name
    finally:
        if not had:
            registry._GAMES.pop(name, None)
