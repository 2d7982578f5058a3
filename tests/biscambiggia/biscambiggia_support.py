"""Helpers for the Biscambiggia tests: scripted deals built from the tricks they should produce.

Every worked example uses dealer = seat 4, so the rules' relative seats A, B, C, D, E are the
absolute seats 0, 1, 2, 3, 4 (BB-1.6).
"""

from __future__ import annotations

import stich
from stich.rulesets.biscambiggia.rules import DECK, rank_values, trick_winner

A, B, C, D, E = range(5)
DEALER = E


def game(**options):
    return stich.game("biscambiggia", **options)


def hands_from_tricks(tricks: list[list[str]], trump: str, leader: int = A, ranking="biscambiggia"):
    """Per seat, the 8 cards it needs to play ``tricks`` (each listed in playing order from its
    leader), the leader of each trick following from the winner of the previous one (BB-5.4/5.5).
    Returns (hands, winners)."""
    values = rank_values(ranking)
    t = DECK.suit_codes.index(trump)
    hands = [[] for _ in range(5)]
    winners = []
    for trick in tricks:
        cards = [DECK.parse(c) for c in trick]
        for i, c in enumerate(cards):
            hands[(leader + i) % 5].append(DECK.code(c))
        leader = (leader + trick_winner(cards, t, values)) % 5
        winners.append(leader)
    assert sorted(sum(hands, [])) == sorted(DECK.codes), "the tricks must use the whole deck once"
    return hands, winners


def play_auction(state, log: list[str]):
    """Apply a BB-7.2 hand log such as ["A bid 61", "B pass", ...] with relative seats A-E
    (dealer = E = seat 4, so the letter is the absolute seat), checking the seat to act."""
    for line in log:
        letter, text = line.split(" ", 1)
        assert state.current_player == "ABCDE".index(letter), (line, state.current_player)
        state.apply(text)


def play_tricks(state, tricks: list[list[str]]):
    for trick in tricks:
        for card in trick:
            state.apply(f"play {card}")


def random_playout(state, rng, stop=None):
    """Play uniformly random legal actions until the end (or until ``stop(state)`` is true)."""
    while not state.is_terminal():
        if stop is not None and stop(state):
            return state
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state
