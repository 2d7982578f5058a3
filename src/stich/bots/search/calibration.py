"""The search's chance to win a hand, calibrated against how often such hands are really won.

``p`` from sampled worlds is overconfident: in each world the bot sees every card (perfect
information), so the best card of a world wins more often than the same card wins in the real,
hidden deal (strategy fusion), and a handful of worlds gives 0 or 1 where the truth is in
between.  Measured in Guate Watten (``benchmarks/calibrate_bets.py``, 2026-11-26): raise decisions
with ``p`` 0.7-0.8 won 51 % of their hands, 0.9-1.0 only 74 %, and hands with ``p`` below 0.1
won 16 %.  Raising "as the favourite" on such a ``p`` raised as the underdog.

The correction is a logistic recalibration (Platt scaling) per game, variant and kind of bet
decision: ``logit(p') = slope * logit(p) + intercept``, fitted by
``benchmarks/calibrate_bets.py`` on the hands the bot really played against ``pimc-classic``
(Blind's against ``pimc`` itself: fitted against the classic raiser the bot raised more there
than the classic bots did; ``docs/bots.md``, "Raising in the other variants") (only hands
played to the end: a hand given away tells nothing of the chance to win it) and
written to ``calibration.json`` beside this module (``--write``; each entry says how many
decisions it rests on).  A game, variant or kind without a fit keeps its ``p``.

The fit has the opponents' raises in the hand as a second feature (``per_raise``), so that the
slope and intercept are those of a hand nobody raised against; the bot does not use it.
Against ``pimc-classic``, whose fixed thresholds raise on weak hands, it came out positive (a
raise of theirs made the hand *likelier* to be won), and a bot that believed it re-raised: in
``pimc`` self-play a quarter of the Euregio and Bavarian hands went to 4 raises or more and 9-11
of 30 Bavarian matches were won from below half the target in one hand.  What an opponent's raise
says depends on who raises; the bot reads it as "they think they are the favourite"
(``betting.raise_weights`` on the worlds, ``betting.THEIR_RAISE`` on ``p``), which is right
against a player who raises by the arithmetic, itself included.
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

#: the fitted entries (``benchmarks/calibrate_bets.py --write``)
PATH = Path(__file__).with_name("calibration.json")


@cache
def fitted() -> dict[tuple[str, str | None, str], tuple[float, float, float]]:
    """(game, variant or None, kind) -> (slope, intercept, per_raise); kind: "raise" (raise or
    play on: ``p`` of the card search's best card, or of playing on from the raise poll),
    "answer" (accept, fold or re-raise: ``p`` after accepting) or "go_on" (play a fixed hand
    or give)."""
    try:
        entries = json.loads(PATH.read_text(encoding="utf-8"))["fitted"]
    except FileNotFoundError:
        return {}
    return {(e["game"], e["variant"], e["kind"]): (float(e["slope"]), float(e["intercept"]), float(e["per_raise"]))
            for e in entries}


#: p is kept inside [EDGE, 1 - EDGE] before taking its log-odds (16 worlds all won is not certainty)
EDGE = 0.01


def logit(p: float) -> float:
    p = min(max(p, EDGE), 1.0 - EDGE)
    return math.log(p / (1.0 - p))


def sigmoid(x: float) -> float:
    """The logistic function, without overflow for large negative ``x`` (the fit meets them)."""
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def calibrated(p: float, view: dict, kind: str) -> float | None:
    """``p`` recalibrated for the view's game and variant and the decision's ``kind``; None
    where nothing is fitted."""
    table = fitted()
    game = view.get("game")
    fit = table.get((game, view.get("variant"), kind)) or table.get((game, None, kind))   # None: any variant
    if fit is None:
        return None
    slope, intercept, _per_raise = fit
    return sigmoid(slope * logit(p) + intercept)
