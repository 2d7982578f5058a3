"""The heuristic's raising: the bet arithmetic of :mod:`stich.bots.bets` with a crude ``p``.

``p``, the chance to win the hand, is read from the hand strength the players already compute
(Watten: expected tricks of the side, ``stich.rulesets.watten.heuristic.expected_tricks``; Battn:
the team value, ``stich.rulesets.battn.heuristic.Ctx.team_value``) through a logistic curve fitted
to heuristic self-play (120 full-length matches per game, 2026-11-24: whether the side won the hand,
against its strength and the raises the opponents had made in the hand; Watten
``p = 1 / (1 + exp(-1.1 (est - 2.85) + 0.4 r))``, Battn ``1 / (1 + exp(-1.5 (est - 3.1) + 0.2 r))``,
``r`` = the opponents' raises so far: a raise says its side expects to win).  Each game's heuristic
declares its curve (``BET_CURVE``) and its reading of the view (``bet_reading(view) -> (strength,
mine, theirs, stake, their raises)``); the verbs come from the game's bets declaration
(``stich.bots.bets.declared``), so this module names
no game.  Then: accept a raise when ``p``
beats the break-even of the stake at this match score, raise only as the favourite, play a fixed
hand / an Orbi or X turn when it is worth more than the refusal's points.

``CLASSIC`` (a context variable) switches back to the fixed thresholds of before (raise from
3.2 expected tricks, accept from 1.8): the bots ``heuristic-classic`` and ``pimc-classic`` set it.
"""

from __future__ import annotations

import math
from contextvars import ContextVar

from stich.bots import bets
from stich.engine import companion, member

#: True: the fixed thresholds of before (``heuristic-classic``, ``pimc-classic``)
CLASSIC: ContextVar[bool] = ContextVar("stich_heuristic_classic_raising", default=False)


def _companion(game: str | None):
    """The game's heuristic module when it reads the bets (``bet_reading``, which the role declares
    together with ``BET_CURVE``), else None."""
    if not isinstance(game, str) or member(game, "heuristic", "bet_reading") is None:
        return None
    return companion(game, "heuristic")


def win_chance(game: str, strength: float, their_raises: int = 0) -> float:
    """The chance to win the hand from the hand strength, by the game's curve (``BET_CURVE`` of
    its heuristic: centre, slope, what each raise of the opponents takes off the log-odds)."""
    c, k, b = _companion(game).BET_CURVE
    return 1.0 / (1.0 + math.exp(-k * (strength - c) + b * their_raises))


def their_raises(view: dict, friends) -> int:
    """The raises the opponents made in this hand (``view["actions"]``: this hand's actions)."""
    me = view["seat"]
    verb = bets.declared(view.get("game")).raise_verb
    return sum(1 for who, text, _i in view.get("actions") or []
               if text == verb and who != me and who not in friends)


def reads_bets(game: str | None) -> bool:
    """Whether the heuristic of ``game`` estimates the chance to win a hand."""
    return _companion(game) is not None


def hand_win_chance(view: dict, count_raises: bool = False) -> float | None:
    """The heuristic's chance that the seat's side wins the hand, from its view (None: the game's
    heuristic has no such estimate).  ``count_raises``: lowered for the opponents' raises."""
    game = view.get("game")
    mod = _companion(game)
    if mod is None:
        return None
    strength, _mine, _theirs, _stake, raised = mod.bet_reading(view)
    return win_chance(game, strength, raised if count_raises else 0)


def choose(view: dict, legal: list[str]) -> tuple[str | None, list[str]]:
    """``(answer, legal)``: the answer to a bet decision, or None and the actions left for the
    game's player (a raise it does not want to make taken out)."""
    game = view.get("game")
    decl = bets.declared(game)
    kind = decl.kind_of(legal)
    mod = _companion(game)
    if kind is None or mod is None or CLASSIC.get():
        return None, legal
    strength, mine, theirs, stake, raised = mod.bet_reading(view)
    p = win_chance(game, strength, raised)
    score = bets.Score.of(mine, theirs, (view.get("options") or {}).get("target"))
    if kind == "answer":
        return decl.answers[bets.respond(score, p, stake, can_raise=decl.raise_verb in legal)], legal
    if kind == "go_on":
        verb = decl.go_on_verb(legal)
        play_for = max(stake, decl.go_on_stake)   # e.g. a held 4-Punkte hand is worth 4, an Orbi turn 3
        return (verb if bets.play_or_give(score, p, play_for, decl.go_on_gives) else decl.go_on[verb]), legal
    if bets.should_raise(score, p, stake):
        return decl.raise_verb, legal
    rest = [a for a in legal if a != decl.raise_verb]
    if decl.poll_pass in rest and not any(a.split(" ", 1)[0] == decl.card_verb for a in rest):
        return decl.poll_pass, legal
    return None, rest
