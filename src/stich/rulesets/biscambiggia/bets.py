"""Biscambiggia's decisions, declared for the bots (``companion(game, "bets")``).

Biscambiggia has no raising and a fixed stake (the defaults of ``stich.bots.bets.Declaration``;
a pass in the auction says something, so no verb is declared uninformative); the search bots read
here which decisions they evaluate candidate by candidate (``docs/rules/biscambiggia.md``: the
auction and the called card).
"""

from __future__ import annotations

#: the auction (a bid or a pass) and the call of the partner's card
DECIDED = frozenset({"bid", "pass", "call"})
