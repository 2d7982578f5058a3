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
