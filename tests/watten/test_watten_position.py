"""Watten hands set up in the middle of play: new_state(position={...}), validated."""

from __future__ import annotations

import json

import pytest

import stich
from stich.engine import SetupError

F1_MID = dict(   # the F1 hand of the rules file (§4.5) after two tricks and two cards of the third
    hands=[["HA", "E8", "LO"], ["EK", "H10", "S6"], ["LA", "SK"], ["LK", "EO"]],
    schlag="O", trump="L", trick=[[2, "H7"], [3, "H9"]], leader=2, tricks_won=[1, 1],
    stake=3, last_raiser=3, dealer=3, scores=[4, 7])


def new(variant="euregio", **changes):
    pos = dict(F1_MID) | changes
    return stich.game("watten", variant).new_state(seed=1, position=pos)


def test_a_position_is_played_on_and_replays():
    s = new()
    assert s.current_player == 0 and s.stake == 3
    assert {str(a) for a in s.legal_actions()} == {"play HA", "play E8", "play LO", "raise"}   # B raised last
    assert "raise" not in new(last_raiser=0).legal_actions()         # §2.8: the other side raises next
    v = s.view(0)
    assert v["hand"] == ["HA", "E8", "LO"] and v["trick"] == [{"seat": 2, "card": "H7"}, {"seat": 3, "card": "H9"}]
    assert v["schlag"] == "O" and v["trump"] == "L" and v["stake"] == 3 and v["tricks_won"] == [1, 1]
    assert s.view(1)["schlag"] is None and sorted(s.view(1)["hand"]) == ["EK", "H10", "S6"]   # blind player (E.4)
    assert s.view(None)["hand"] == [] and "LO" not in json.dumps(s.view(1))
    for card in ("HA", "H10"):
        s.apply(f"play {card}")
    assert s.view(None)["tricks"][-1]["winner"] == 0 and s.current_player == 0
    rec = json.loads(json.dumps(s.record()))
    assert stich.replay(rec).record() == s.record()


def test_open_variant_position_and_r14_at_trick_5():
    # Tyrolean, trick 5 led after a raise: T1.8 does not restrict the others (R14).
    pos = dict(hands=[["EK"], ["E10"], ["LO"], []], schlag="8", trump="L", leader=3, trick=[[3, "L8"]],
               tricks_won=[2, 2], stake=3, last_raiser=3, dealer=2)
    s = stich.game("watten", "tyrolean").new_state(seed=2, position=pos)
    assert s.current_player == 0 and "raise" in s.legal_actions()
    assert s.view(2)["schlag"] == "8"
    s2 = stich.game("watten", "tyrolean").new_state(seed=2, position=pos | {"stake": 2, "last_raiser": None})
    assert "raise" not in s2.legal_actions()     # stake 2 when trick 5 was led: EK may not raise


@pytest.mark.parametrize("changes, message", [
    ({"hands": [["HA", "E8"], ["EK", "H10", "S6"], ["LA", "SK"], ["LK", "EO"]]}, r"hands\[0\].*must hold 3 cards"),
    ({"hands": [["HA", "E8", "LO"], ["EK", "H10", "LO"], ["LA", "SK"], ["LK", "EO"]]}, "LO is in two places"),
    ({"trick": [[3, "H7"], [2, "H9"]]}, r"trick\[0\]: seat 2 plays"),
    ({"trick": [[2, "LK"], [3, "H9"]], "hands": [["HA", "E8", "LO"], ["EK", "H10", "S6"], ["LA", "SK"],
                                                 ["L9", "EO"]]},
     "seat 3 may not play H9 there"),                                  # E.8: the dealer must give L/Linke
    ({"stake": 3, "last_raiser": None}, "last_raiser"),
    ({"scores": [16, 7], "stake": 3, "last_raiser": 0}, "fixed-value hand"),
    ({"scores": [14, 16], "stake": 3, "last_raiser": 1}, "locked"),
    ({"tricks_won": [3, 0]}, "tricks_won"),
    ({"schlag": "Z"}, "schlag must be one of"),
    ({"colour": "red"}, "no field 'colour'"),
    ({"scores": [18, 0]}, "reaches the target"),
])
def test_inconsistent_positions_are_refused(changes, message):
    with pytest.raises(SetupError, match=message):
        new(**changes)


def test_position_alone():
    g = stich.game("watten", "euregio")
    with pytest.raises(SetupError, match="position alone"):
        g.new_state(seed=1, position=F1_MID, dealer=2)
