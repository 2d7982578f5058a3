"""Barbu's decisions, declared for the bots (``companion(game, "bets")``).

Barbu has no raising and a fixed stake (the defaults of ``stich.bots.bets.Declaration``); the
search bots read here which decisions they evaluate candidate by candidate
(``docs/rules/barbu.md``: the declarer's contract and the doubling round).
"""

from __future__ import annotations

#: the contract and the doubles (an answer of the doubling round: pass, double, redouble)
DECIDED = frozenset({"contract", "double", "redouble", "pass"})
