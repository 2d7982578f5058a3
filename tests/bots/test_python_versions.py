"""Seeded bots decide the same under every Python: no float ``sum()`` in their decisions.

Python 3.12 made ``sum()`` of floats compensated (Neumaier), so a float total could differ in its
last bit from 3.11's, and where two choices were valued alike the seeded bots of a benchmark or a
researcher's run went another way under another Python (Bavarian 3 matches of the same seeds
ended differently under 3.11 and 3.12).  The decisions' sums are ``math.fsum`` (exact, the same
everywhere); here ``sum`` is replaced by each of the two ways and the answers must not move.
"""

from __future__ import annotations

import builtins
import json

import pytest

from stich.bots import bets, make_bot
from tests.scripts import load_script


def naive_sum(items, start=0):          # Python 3.11's float sum: left to right
    total = start
    for x in items:
        total = total + x
    return total


def compensated_sum(items, start=0):    # Python 3.12's: Neumaier's compensated summation
    total, c = start, 0.0
    for x in items:
        t = total + x
        if isinstance(t, float):
            c += (total - t) + x if abs(total) >= abs(x) else (x - t) + total
        total = t
    return total + c if c else total


def _answers(monkeypatch, fn, positions):
    monkeypatch.setattr(builtins, "sum", fn)
    bets.match_win.cache_clear()
    bets.race_win.cache_clear()
    grid = [bets.match_win(a, b) for a in range(1, 16) for b in range(1, 16)]
    grid += [bets.Score.race(a, [b], [c], 11).value(won=2) for a in range(0, 11, 2)
             for b in range(0, 11, 3) for c in range(0, 11, 2)]
    choices = []
    for kind in ("pimc", "pimc-classic", "heuristic"):
        bot = make_bot(kind, seed=11)
        choices += [bot.choose(json.loads(json.dumps(view)), legal) for view, legal in positions]
    monkeypatch.undo()
    return grid, choices


@pytest.mark.parametrize("game, variant", [("watten", "bavarian_3"), ("watten", "euregio"), ("battn", None),
                                           ("barbu", None)])
def test_the_same_answers_under_either_sum(monkeypatch, game, variant):
    import stich.bots.search  # noqa: F401  (registers the search bots)

    positions = load_script("benchmarks/bot_speed.py").positions(game, variant, 25, 61001)
    assert naive_sum([1e16, 1.0, -1e16]) != compensated_sum([1e16, 1.0, -1e16])   # they do differ
    assert _answers(monkeypatch, naive_sum, positions) == _answers(monkeypatch, compensated_sum, positions)
