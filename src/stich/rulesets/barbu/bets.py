"""Barbu's decisions, declared for the bots (``companion(game, "bets")``).

Barbu has no raising; the search bots read here which decisions they evaluate candidate by
candidate (``docs/rules/barbu.md``: the declarer's contract and the doubling round).
"""

from __future__ import annotations

RAISE = None
ACCEPT = None
FOLD = None
GO_ON: dict[str, str] = {}
POLL_PASS = None
GO_ON_STAKE = 0
GO_ON_GIVES = 0
#: the contract and the doubles (an answer of the doubling round: pass, double, redouble)
DECIDED = frozenset({"contract", "double", "redouble", "pass"})
#: verbs an opponent model learns nothing from
UNINFORMATIVE = frozenset()


def stake(view: dict) -> int:
    return 1


def state_stake(state) -> int:
    return 1
