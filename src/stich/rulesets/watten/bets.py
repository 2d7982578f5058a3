"""Watten's bets and decisions, declared for the bots (``companion(game, "bets")``).

The generic bet arithmetic (``stich.bots.bets``) and the search bots (``stich.bots.search``) name
no game and no game verb: they read here what a raise, an answer and a give-away are in Watten
(``docs/rules/watten.md``: the raise and its answers R9-R11, the 4-Punkte / gestrichen hand that
is held or conceded), and which decisions the search evaluates candidate by candidate.
"""

from __future__ import annotations

#: the verb that offers the opponents one point more
RAISE = "raise"
#: the answers to a raise: play on for the raised stake / give the stake away
ACCEPT = "accept"
FOLD = "fold"
#: decisions that play a hand on or give points away: the verb that plays on -> the one that gives
#: (a 4-Punkte / gestrichen hand is held or conceded)
GO_ON = {"hold": "concede"}
#: the verb that lets a raise poll pass without raising (Watten raises during the card play: none)
POLL_PASS = None
#: the least a held hand is played for, and what conceding it gives (the heuristic's bet arithmetic)
GO_ON_STAKE = 3
GO_ON_GIVES = 2
#: the decisions the search bots decide by evaluating each candidate on sampled worlds: the Ansage
#: (Schlag and trump, or the shown card of the blind and Euregio variants)
DECIDED = frozenset({"schlag", "trump", "show"})
#: verbs an opponent model learns nothing from (bets are weighted by their own model, routine
#: answers are taken by nearly every hand)
UNINFORMATIVE = frozenset({"raise", "accept", "fold", "hold", "concede", "cut", "cut_done"})
#: the worlds a search decision draws by default where the bot's own 16 were not enough: against
#: the ``pimc`` of the day issue #17 was filed, at 16 worlds the new one was not shown ahead in
#: these variants and at 40-48 it was, still thinking less than that bot (``docs/search.md``, "At
#: the old bot's think time"); why these three and not the others is not established
SEARCH_WORLDS = {"guate": 48, "tyrolean": 48, "bavarian_2": 40}


def stake(view: dict) -> int:
    """The stake of the hand as the seat sees it."""
    return int(view.get("stake") or 2)


def state_stake(state) -> int:
    """The stake a world is played for."""
    return int(getattr(state, "stake", 2) or 2)
