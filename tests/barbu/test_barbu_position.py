"""Barbu deals set up in the middle of play: new_state(position={...}), checked by the rules."""

from __future__ import annotations

import json
import random

import pytest

import stich
from stich import SetupError
from stich.rulesets.barbu.phases import TRICKS


def played_deal(seed: int, contract: str, doubling: list[str], cards: int):
    """A match played from its start: deal 1 with ``contract``, the doubling turns, then ``cards``
    random legal cards."""
    g = stich.game("barbu")
    s = g.new_state(seed=seed, first_caller=0)
    s.apply(f"contract {contract}")
    for turn in doubling:
        s.apply(turn)
    rng = random.Random(seed)
    for _ in range(cards):
        s.apply(rng.choice(s.legal_actions()))
    return g, s


def position_of(s, contract, doubling) -> dict:
    plays = [[ev["seat"], ev["card"]] for aud, ev in s.events if ev["type"] in ("play", "domino_play")]
    hands = [s.view(p)["hand"] for p in range(4)]
    if contract.startswith("DOMINO"):
        return dict(hands=hands, contract=contract, doubling=doubling, plays=plays, first_caller=0)
    done = len(plays) // 4 * 4
    return dict(hands=hands, contract=contract, doubling=doubling, first_caller=0,
                tricks=[plays[i:i + 4] for i in range(0, done, 4)], trick=plays[done:])


@pytest.mark.parametrize("contract, doubling, cards", [
    ("NO_HEARTS", ["double 1", "pass", "pass", "redouble 2"], 18),
    ("TRUMPS S", ["pass", "double 1", "pass", "redouble 3"], 30),
    ("NO_LAST_TWO", ["double 1", "pass", "pass", "pass"], 47),
])
def test_a_position_equals_the_deal_that_reached_it(contract, doubling, cards):
    g, played = played_deal(4, contract, doubling, cards)
    pos = position_of(played, contract, doubling)
    s = g.new_state(seed=4, position=json.loads(json.dumps(pos)))
    assert s.current_player == played.current_player
    assert s.legal_actions() == played.legal_actions()
    for p in (None, 0, 1, 2, 3):
        a, b = s.view(p), played.view(p)
        for key in ("hand", "trick", "tricks", "contract", "businesses", "taken", "deal_points", "scores"):
            assert a.get(key) == b.get(key), (p, key)
    rng = random.Random(9)
    while s.hand_number == 1:           # both play on alike to the end of the deal
        a = rng.choice(s.legal_actions())
        s.apply(a)
        played.apply(a)
    assert s.scores == played.scores and s.record()["events"][-3:] == played.record()["events"][-3:]
    assert stich.replay(json.loads(json.dumps(s.record()))).record() == s.record()


def test_a_domino_position():
    g = stich.game("barbu")
    s = g.new_state(seed=2, first_caller=0)
    s.apply("contract DOMINO 8")
    for _ in range(4):
        s.apply("pass")
    rng = random.Random(3)
    for _ in range(9):
        s.apply(rng.choice(s.legal_actions()))
    plays = []
    for _, ev in s.events:
        if ev["type"] == "domino_play":
            plays.append([ev["seat"], ev["card"]])
        elif ev["type"] == "domino_pass":
            plays.append([ev["seat"], "pass"])
    pos = dict(hands=[s.view(p)["hand"] for p in range(4)], contract="DOMINO 8", plays=plays, first_caller=0)
    t = g.new_state(seed=2, position=pos)
    assert t.legal_actions() == s.legal_actions() and t.view(None)["layout"] == s.view(None)["layout"]


BASE = dict(contract="NO_QUEENS", doubling=["double 1", "pass", "pass", "pass"], first_caller=0)


@pytest.mark.parametrize("changes, message", [
    ({"contract": "NO_QUEENS", "doubling": ["pass"] * 4}, "not played"),
    ({"contract": "TRUMPS X"}, "declaration"),
    ({"doubling": ["double 1", "pass", "pass"]}, "only after the four doubling turns"),
    ({"doubling": ["double 1", "redouble 2", "pass", "pass"]}, "doubling turn 2"),
    ({"colour": 1}, "no field 'colour'"),
    ({"to_act": 3}, "to_act"),
])
def test_inconsistent_positions_are_refused(changes, message):
    g, played = played_deal(4, "NO_QUEENS", BASE["doubling"], 6)
    pos = position_of(played, "NO_QUEENS", BASE["doubling"]) | changes
    with pytest.raises(SetupError, match=message):
        g.new_state(seed=4, position=pos)


def test_plays_out_of_order_and_against_the_rules_are_refused():
    g, played = played_deal(4, "NO_QUEENS", BASE["doubling"], 6)
    pos = position_of(played, "NO_QUEENS", BASE["doubling"])
    swapped = [pos["tricks"][0][1], pos["tricks"][0][0], *pos["tricks"][0][2:]]
    with pytest.raises(SetupError, match="play #1: P1 is not to play, P0 is"):
        g.new_state(seed=4, position=pos | {"tricks": [swapped]})
    first = pos["tricks"][0]
    led = first[0][1][0]
    # P1 plays another suit although he was dealt the suit led: move one of his in-hand cards.
    hands = [list(h) for h in pos["hands"]]
    other = next((c for c in hands[1] if c[0] != led), None)
    if other is not None and first[1][1][0] == led:
        hands[1].remove(other)
        hands[1].append(first[1][1])
        bad = [first[0], [1, other], *first[2:]]
        with pytest.raises(SetupError, match=r"play #2 \(P1\).*not legal"):
            g.new_state(seed=4, position=pos | {"hands": hands, "tricks": [bad], "trick": pos["trick"]})
    lost = [list(h) for h in pos["hands"]]
    lost[2] = lost[2][1:]
    with pytest.raises(SetupError, match="P2 holds"):
        g.new_state(seed=4, position=pos | {"hands": lost})


def test_positions_at_the_declaration_and_in_the_doubling_round():
    # §1.4: the caller (P0, first_caller) declares first; §3.2 rule 2: then left, opposite, right, caller.
    g = stich.game("barbu")
    hands = [s for s in (g.new_state(seed=4, first_caller=0).view(p)["hand"] for p in range(4))]
    s = g.new_state(seed=4, position=dict(hands=hands, first_caller=0))
    assert s.current_player == 0 and all(a.verb == "contract" for a in s.legal_actions())
    assert s.position() == dict(hands=[sorted(h, key=g.deck.parse) for h in hands], first_caller=0, hand_number=1,
                                used_contracts=[[], [], [], []], caller_doubles=[[0] * 4 for _ in range(4)])
    t = g.new_state(seed=4, position=dict(hands=hands, first_caller=0, contract="NO_QUEENS",
                                          doubling=["double 1", "pass"]))
    assert t.current_player == 3 and "double 1" in map(str, t.legal_actions())   # P3 may double the caller
    t.apply("pass")
    t.apply("redouble 2")                               # the caller redoubles P1 (§3.2)
    assert t.phase == TRICKS and t.position()["doubling"] == ["double 1", "pass", "pass", "redouble 2"]
    with pytest.raises(SetupError, match="declares before any doubling"):
        g.new_state(seed=4, position=dict(hands=hands, first_caller=0, doubling=["pass"]))
