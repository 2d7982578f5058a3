"""The heuristic's raising: the bet arithmetic of :mod:`stich.bots.bets` with a crude ``p``.

``p``, the chance to win the hand, is read from the hand strength the players already compute
(Watten: expected tricks of the side, ``watten.expected_tricks``; Battn: the team value,
``battn.Ctx.team_value``) through a logistic curve fitted to heuristic self-play (120 full-length
matches per game, 2026-11-24: whether the side won the hand, against its strength and the raises
the opponents had made in the hand; Watten ``p = 1 / (1 + exp(-1.1 (est - 2.85) + 0.4 r))``,
Battn ``1 / (1 + exp(-1.5 (est - 3.1) + 0.2 r))``, ``r`` = the opponents' raises so far: a raise
says its side expects to win).  Then: accept a raise when ``p``
beats the break-even of the stake at this match score, raise only as the favourite, play a fixed
hand / an Orbi or X turn when it is worth more than the refusal's points.

``CLASSIC`` (a context variable) switches back to the fixed thresholds of before (raise from
3.2 expected tricks, accept from 1.8): the bots ``heuristic-classic`` and ``pimc-classic`` set it.
"""

from __future__ import annotations

import math
from contextvars import ContextVar

from stich.bots import bets
from stich.bots.heuristic import battn, watten

#: True: the fixed thresholds of before (``heuristic-classic``, ``pimc-classic``)
CLASSIC: ContextVar[bool] = ContextVar("stich_heuristic_classic_raising", default=False)

#: per game, the logistic curve from hand strength to the chance to win the hand: (centre, slope,
#: what each raise of the opponents in this hand takes off the log-odds)
CURVES = {"watten": (2.85, 1.1, 0.4), "battn": (3.1, 1.5, 0.2)}


def win_chance(game: str, strength: float, their_raises: int = 0) -> float:
    c, k, b = CURVES[game]
    return 1.0 / (1.0 + math.exp(-k * (strength - c) + b * their_raises))


def their_raises(view: dict, friends) -> int:
    """The raises the opponents made in this hand (``view["actions"]``: this hand's actions)."""
    me = view["seat"]
    return sum(1 for who, text, _i in view.get("actions") or []
               if text == "raise" and who != me and who not in friends)


def _watten(view: dict):
    ctx = watten.Ctx(view)
    n = ctx.n
    scores = list(view.get("scores") or [0] * (2 if n == 4 else n))
    if n == 4:
        mine, theirs = scores[ctx.side], scores[1 - ctx.side]
    else:
        mine = scores[ctx.seat]
        theirs = max([scores[s] for s in range(n) if s != ctx.seat and s not in ctx.friends] or [0])
    stake = int(view.get("stake") or 2)
    return watten.expected_tricks(ctx), mine, theirs, stake, their_raises(view, ctx.friends)


def _battn(view: dict):
    ctx = battn.Ctx(view)
    scores = list(view.get("scores") or [0, 0])
    info = view.get("info") or {}
    stake = int(info.get("stake") or info.get("base") or 2)
    return ctx.team_value(), scores[ctx.team], scores[1 - ctx.team], stake, their_raises(view, {ctx.partner})


READERS = {"watten": _watten, "battn": _battn}


def choose(view: dict, legal: list[str]) -> tuple[str | None, list[str]]:
    """``(answer, legal)``: the answer to a bet decision, or None and the actions left for the
    game's player (a raise it does not want to make taken out)."""
    game = view.get("game")
    kind = bets.kind_of(legal)
    if kind is None or game not in READERS or CLASSIC.get():
        return None, legal
    strength, mine, theirs, stake, raised = READERS[game](view)
    p = win_chance(game, strength, raised)
    score = bets.Score.of(mine, theirs, (view.get("options") or {}).get("target"))
    if kind == "answer":
        return bets.respond(score, p, stake, can_raise="raise" in legal), legal
    if kind == "go_on":
        verb = next(v for v in ("hold", "orbi_accept", "x_play") if v in legal)
        play_for = max(stake, 3)   # a held 4-Punkte hand is worth 4, gestrichen / Orbi / X turns 3
        return (verb if bets.play_or_give(score, p, play_for, 2) else bets.GO_ON[verb]), legal
    if bets.should_raise(score, p, stake):
        return "raise", legal
    rest = [a for a in legal if a != "raise"]
    if "pass" in rest and not any(a.startswith("play ") for a in rest):
        return "pass", legal
    return None, rest
