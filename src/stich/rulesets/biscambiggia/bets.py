"""Biscambiggia's decisions, declared for the bots (``companion(game, "bets")``).

Biscambiggia has no raising; the search bots read here which decisions they evaluate candidate
by candidate (``docs/rules/biscambiggia.md``: the auction and the called card).
"""

from __future__ import annotations

RAISE = None
ACCEPT = None
FOLD = None
GO_ON: dict[str, str] = {}
POLL_PASS = None
GO_ON_STAKE = 0
GO_ON_GIVES = 0
#: the auction (a bid or a pass) and the call of the partner's card
DECIDED = frozenset({"bid", "pass", "call"})
#: verbs an opponent model learns nothing from (a pass in the auction does say something)
UNINFORMATIVE = frozenset()


def stake(view: dict) -> int:
    return 1


def state_stake(state) -> int:
    return 1
