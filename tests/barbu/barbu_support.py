"""Helpers for the Barbu tests: explicit deals, scripted tricks and positions (rules/barbu.md §6).

Seats are P0..P3 (0-based, as in the rules file); unless a test says otherwise P0 is the caller,
which ``new_state(first_caller=0)`` arranges.
"""

from __future__ import annotations

import stich
from stich.rulesets.barbu import rules as R

DECK = R.DECK


def game(**options):
    return stich.game("barbu", **options)


def codes(cards) -> list[str]:
    """Canonical codes of the rules file's spellings: ``["QS", "TH"]`` -> ``["SQ", "H10"]``."""
    return [DECK.code(DECK.parse(c)) for c in cards]


def plays(state) -> set[str]:
    """The cards of the legal ``play`` actions."""
    return {a.arg for a in state.legal_actions() if a.verb == "play"}


def fill_hands(fixed: dict[int, list[str]], allowed: dict | None = None) -> list[list[str]]:
    """Four 13-card hands: each seat gets its ``fixed`` cards, then fillers from the rest of the pack.

    ``allowed[seat]`` (a predicate on a card code) restricts a seat's fillers so that they cannot
    change what the example is about; constrained seats are filled first, in the given order.
    """
    allowed = allowed or {}
    hands = {p: codes(fixed.get(p, [])) for p in range(4)}
    pool = [c for c in DECK.codes if all(c not in h for h in hands.values())]
    order = list(allowed) + [p for p in range(4) if p not in allowed]
    for p in order:
        ok = allowed.get(p, lambda c: True)
        take = [c for c in pool if ok(c)][:13 - len(hands[p])]
        assert len(take) == 13 - len(hands[p]), f"cannot fill P{p}"
        hands[p] += take
        pool = [c for c in pool if c not in take]
    assert not pool
    return [hands[p] for p in range(4)]


def suits(*letters):
    """A filler predicate: cards of these suits only."""
    return lambda c: c[0] in letters


def start(contract: str, hands, caller: int = 0, doubling=None, **options):
    """A new match whose first deal has these hands and ``caller``; declares ``contract`` and plays
    the doubling round (default: the caller's left doubles the caller, the others pass, so every
    contract is played)."""
    state = game(**options).new_state(seed=1, hands=hands, first_caller=caller)
    state.apply(f"contract {contract}")
    if doubling is None:
        doubling = [f"double {caller + 1}", "pass", "pass", "pass"]
    for text in doubling:
        state.apply(text)
    return state


def play(state, cards):
    for c in cards:
        state.apply(f"play {c}")


# --- scripted deals: 13 tricks with chosen winners ------------------------------------------------
_GROUPS = ((3, 4, 5, 6), (7, 8, 9, 10), (11, 12, 13, 14))


def scripted_tricks(winners: list[int], caller: int = 0, trump_spades: bool = False):
    """13 tricks (cards in play order) whose winners are ``winners``, and the hands that play them.

    Every trick but one is four cards of one suit; the designated winner plays the group's top
    card.  Order: the three spade tricks, then a trick of the four 2s (S2 led, H2 D2 C2 discarded:
    its leader wins, so ``winners[3] == winners[2]``), then diamonds, clubs, hearts.  All plays are
    legal in every contract: hearts are led only when only hearts are left (NO_HEARTS, BARBU), and
    with spades as trumps (TRUMPS S) the trump tricks run from the highest group down, the cards
    before the winner rising, so nobody ever fails to overtrump.
    """
    assert len(winners) == 13 and winners[3] == winners[2]
    plan = [("S", g) for g in (_GROUPS[::-1] if trump_spades else _GROUPS)]
    plan += [("2", None)] + [("D", g) for g in _GROUPS] + [("C", g) for g in _GROUPS]
    plan += [("H", g) for g in _GROUPS]
    hands = [[] for _ in range(4)]
    tricks = []
    leader = caller
    for (suit, group), w in zip(plan, winners, strict=True):
        order = [(leader + i) % 4 for i in range(4)]
        if suit == "2":
            assert w == leader, "the trick of the 2s is won by its leader"
            cards = ["S2", "H2", "D2", "C2"]
        else:
            pos = order.index(w)
            ranks = sorted(group)
            mine = ranks[:pos] + [ranks[3]] + ranks[pos:3]
            cards = [f"{suit}{R.RANK_CODE[r]}" for r in mine]
        for seat, c in zip(order, cards, strict=True):
            hands[seat].append(c)
        tricks.append(cards)
        leader = w
    return tricks, hands


def play_scripted(state, tricks):
    """Play scripted tricks until the deal ends (early ends stop it)."""
    hand = state.hand_number
    for trick in tricks:
        for c in trick:
            if state.hand_number != hand:
                return
            state.apply(f"play {c}")


def deal_result(state, hand: int = 1) -> dict:
    """The ``deal_result`` event of a deal."""
    found = [ev for _a, ev in state.events if ev["type"] == "deal_result" and ev["hand"] == hand]
    assert len(found) == 1
    return found[0]


def random_playout(state, rng, stop=None):
    while not state.is_terminal():
        if stop is not None and stop(state):
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state
