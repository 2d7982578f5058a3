"""Battn's bets and decisions, declared for the bots (``companion(game, "bets")``).

The generic bet arithmetic (``stich.bots.bets``) and the search bots (``stich.bots.search``) name
no game and no game verb: they read here what a raise, an answer and a give-away are in Battn
(``docs/rules/battn.md``: raising BT-11 to BT-15, the raise poll between tricks, the Orbi BT-16 and
the X turn), and which decisions the search evaluates candidate by candidate.
"""

from __future__ import annotations

#: the verb that offers the opponents one point more
RAISE = "raise"
#: the answers to a raise: play on for the raised stake / give the stake away
ACCEPT = "accept"
FOLD = "fold"
#: decisions that play a turn on or give points away: an Orbi is accepted or refused (the caller
#: scores 2), an X turn played or declined
GO_ON = {"orbi_accept": "orbi_refuse", "x_play": "x_decline"}
#: the raise poll between tricks: raising or letting it pass
POLL_PASS = "pass"
#: the least an Orbi / X turn is played for, and what refusing it gives
GO_ON_STAKE = 3
GO_ON_GIVES = 2
#: the decisions the search bots decide by evaluating each candidate on sampled worlds: the
#: Schlòk and the Trumpf, and the Orbi call
DECIDED = frozenset({"schlok", "trumpf", "orbi", "orbi_pass"})
#: verbs an opponent model learns nothing from (bets are weighted by their own model, routine
#: answers are taken by nearly every hand)
UNINFORMATIVE = frozenset({"raise", "accept", "fold", "pass", "orbi_accept", "orbi_refuse", "x_play",
                           "x_decline", "scheanara_pass", "cut", "cut_done"})


def stake(view: dict) -> int:
    """The stake of the turn as the seat sees it."""
    info = view.get("info") or {}
    return int(info.get("stake") or info.get("base") or 2)


def state_stake(state) -> int:
    """The stake a world is played for."""
    return int(getattr(state, "stake", 2) or 2)
