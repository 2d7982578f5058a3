"""Biscambiggia hands set up in the middle of play: new_state(position={...}), checked by the rules."""

from __future__ import annotations

import json
import random

import pytest

import stich
from stich import SetupError


def played(seed: int, cards: int):
    g = stich.game("biscambiggia")
    s = g.new_state(seed=seed, dealer=2)
    rng = random.Random(seed)
    while s.phase != "play":
        s.apply(rng.choice(s.legal_actions()))
    for _ in range(cards):
        s.apply(rng.choice(s.legal_actions()))
    return g, s


def position_of(s) -> dict:
    texts = [str(a) for _, a in s.history]
    plays = [[ev["seat"], ev["card"]] for _, ev in s.events if ev["type"] == "play"]
    done = len(plays) // 5 * 5
    return dict(hands=[s.view(p)["hand"] for p in range(5)], dealer=2,
                auction=[t for t in texts if t.startswith(("bid", "pass"))],
                call=next(t for t in texts if t.startswith("call")).split()[1],
                tricks=[plays[i:i + 5] for i in range(0, done, 5)], trick=plays[done:])


@pytest.mark.parametrize("seed, cards", [(4, 0), (4, 13), (7, 36)])
def test_a_position_equals_the_hand_that_reached_it(seed, cards):
    g, s = played(seed, cards)
    t = g.new_state(seed=seed, position=json.loads(json.dumps(position_of(s))))
    assert t.current_player == s.current_player and t.legal_actions() == s.legal_actions()
    for p in (None, 0, 1, 2, 3, 4):
        a, b = t.view(p), s.view(p)
        assert {k: v for k, v in a.items() if k != "actions"} == {k: v for k, v in b.items() if k != "actions"}
    rng = random.Random(1)
    while t.hand_number == 1:
        a = rng.choice(t.legal_actions())
        t.apply(a)
        s.apply(a)
    assert t.scores == s.scores
    assert stich.replay(json.loads(json.dumps(t.record()))).record() == t.record()


@pytest.mark.parametrize("change, message", [
    (lambda p: p | {"auction": p["auction"][:-1]}, "does not end with a contract"),
    (lambda p: p | {"auction": ["pass"] + p["auction"]}, r"auction #1"),
    (lambda p: p | {"call": "Z9"}, "call"),
    (lambda p: p | {"tricks": [list(reversed(p["tricks"][0]))] + p["tricks"][1:]}, "play #1: seat"),
    (lambda p: p | {"hands": [p["hands"][0][1:]] + p["hands"][1:]}, "seat 0 holds"),
    (lambda p: p | {"to_act": (p["trick"][0][0] + 4) % 5 if p["trick"] else 9}, "to_act"),
    (lambda p: p | {"bids": []}, "no field 'bids'"),
])
def test_inconsistent_positions_are_refused(change, message):
    g, s = played(4, 13)
    with pytest.raises(SetupError, match=message):
        g.new_state(seed=4, position=change(position_of(s)))


def ab1_hands():
    codes = list(stich.game("biscambiggia").deck.codes)
    hands = [codes[8 * i:8 * i + 8] for i in range(5)]
    hands[0], hands[3] = hands[3], hands[0]        # D (seat 4) holds the 7 of hearts (AB1)
    return hands


def test_a_position_in_the_auction_of_ab1():
    # AB1 after A 61, B 62, C pass, D 65, E pass, A 66: B (seat 1) speaks, 67..120 or pass (BB-3.3).
    g = stich.game("biscambiggia")
    s = g.new_state(seed=1, position=dict(hands=ab1_hands(), dealer=4, auction=[
        "bid 61", "bid 62", "pass", "bid 65", "pass", "bid 66"]))
    assert s.current_player == 1 and str(s.legal_actions()[0]) == "bid 67" and str(s.legal_actions()[-1]) == "pass"
    for action in ["bid 70", "pass", "pass"]:
        s.apply(action)
    assert s.current_player == 1 and s.position()["auction"][-1] == "pass"   # B won at 70: the call
    s.apply("call 7H")
    assert s.view(0)["trump"] == "H" and s.position()["call"] == "H7"
    hands = ab1_hands()
    card = hands[0].pop()
    with pytest.raises(SetupError, match="cards are played only after the call"):
        g.new_state(seed=1, position=dict(hands=hands, dealer=4, auction=["bid 61"], trick=[[0, card]]))


def test_the_last_hand_of_ab15s_short_match():
    # AB15: after hands (1) and (2) the marche are A 0, B 3, C -5, D 2, E 0; hand (3) ends the match.
    g = stich.game("biscambiggia", hands_per_match=3)
    s = g.new_state(seed=3, position=dict(hands=ab1_hands(), dealer=4, scores=[0, 3, -5, 2, 0], hand=3))
    assert s.hand_number == 3 and s.view(2)["scores"] == [0, 3, -5, 2, 0]
    rng = random.Random(5)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    assert s.hand_number == 3 and sum(s.scores) == 0          # the match ended with hand 3 (BB-1.3)


@pytest.mark.parametrize("fields, message", [
    ({"hand": 4}, "the match has 3 hands"),
    ({"hand": 2, "deal": 1}, "cannot be before the hand"),
    ({"hand": 0}, "position hand must be"),
    ({"hand": 4, "tie_break": 1}, "no field"),
])
def test_hand_numbers_beyond_the_match_are_refused(fields, message):
    g = stich.game("biscambiggia", hands_per_match=3)
    with pytest.raises(SetupError, match=message):
        g.new_state(seed=3, position=dict(hands=ab1_hands(), dealer=4, **fields))


def test_extra_rounds_go_on_only_while_the_top_is_tied():
    # B4-13: with tie_break = extra_rounds, hand 4 of a 3-hand match exists only if the top is tied.
    g = stich.game("biscambiggia", hands_per_match=3, tie_break="extra_rounds")
    s = g.new_state(seed=3, position=dict(hands=ab1_hands(), dealer=4, scores=[3, 3, -2, -2, -2], hand=4))
    assert s.hand_summary()["hands_per_match"] == 8            # one more round of 5 hands
    with pytest.raises(SetupError, match="only while the top score is tied"):
        g.new_state(seed=3, position=dict(hands=ab1_hands(), dealer=4, scores=[4, 3, -3, -2, -2], hand=4))
