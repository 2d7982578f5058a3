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


def test_a_pending_raise_is_answered_by_the_first_opponent_after_the_raiser():
    # §2.8 item 5 (R34): forehand (seat 0) on turn in F1's third trick raises to 4; the answer is
    # seat 1's (the raiser's next opponent), with accept, fold or raise again (R9 window (b), PR-W3).
    s = new(raise_pending=0, stake=3, last_raiser=3)
    assert s.current_player == 1 and s.seats_to_act() == [1]
    assert [str(a) for a in s.legal_actions()] == ["accept", "fold", "raise"]
    assert s.view(2)["info"]["raise"] == {"seat": 0, "stake": 4}
    s.apply("fold")                                  # §2.8 item 2: the raiser's side scores the old stake
    assert s.scores == [7, 7] and s.hand_summary()["last_result"]["points"] == 3
    t = new(raise_pending=0)
    t.apply("accept")
    assert t.stake == 4 and t.current_player == 0          # play goes on with the player on turn
    assert [str(a) for a in t.legal_actions(1)] == ["raise"]   # window (b): the accepter, out of turn
    assert stich.replay(t.record()).record() == t.record()


def test_window_b_and_the_raise_taken_in_it_can_be_set_up():
    # Seat 1 (side B) has just accepted side A's raise: he may raise again before the next card,
    # out of turn, while forehand (seat 0) is on turn (R9 window (b)).
    s = new(stake=3, last_raiser=0, accepted_by=1)
    assert s.current_player == 0 and s.seats_to_act() == [0, 1]
    assert "raise" not in s.legal_actions() and [str(a) for a in s.legal_actions(1)] == ["raise"]
    t = new(stake=3, last_raiser=0, accepted_by=1, raise_pending=1)    # ... and he has raised
    assert t.current_player == 2 and [str(a) for a in t.legal_actions()] == ["accept", "fold", "raise"]


@pytest.mark.parametrize("changes, message", [
    ({"raise_pending": 1}, "seat 1 may not raise now"),                          # not on turn
    ({"raise_pending": 0, "last_raiser": 0}, "the other side raises next"),     # §2.8, R10
    ({"raise_pending": 0, "scores": [16, 14], "stake": 3, "last_raiser": 3}, "locked"),   # §2.9
    ({"accepted_by": 3}, "cannot have just accepted"),                           # B raised last
    ({"accepted_by": 1, "stake": 2, "last_raiser": None}, "cannot have just accepted"),
    ({"raised_before_last_trick": True}, "only for a position in trick 5"),
])
def test_inconsistent_raises_are_refused(changes, message):
    with pytest.raises(SetupError, match=message):
        new(**changes)


def test_r14_the_stake_when_trick_5_was_led_can_be_given():
    # T1.8, R14: a raise accepted after trick 5 was led leaves the restriction on.
    pos = dict(hands=[["EK"], ["E10"], ["LO"], []], schlag="8", trump="L", leader=3, trick=[[3, "L8"]],
               tricks_won=[2, 2], stake=3, last_raiser=3, dealer=2)
    g = stich.game("watten", "tyrolean")
    assert "raise" in g.new_state(seed=2, position=pos).legal_actions()
    s = g.new_state(seed=2, position=pos | {"raised_before_last_trick": False})
    assert "raise" not in s.legal_actions()       # EK is neither of the suit led, a trump nor a Schlag
    assert s.position()["raised_before_last_trick"] is False


F1_AFTER_TRICK_1 = dict(   # F1 (§4.5): trick 1 played, seat 4's raise accepted by seat 1
    hands=[["LO", "HA", "S9", "E8"], ["LA", "H10", "SU", "S6"], ["HO", "L9", "EA", "SK"], ["LK", "H9", "SA", "E10"]],
    schlag="O", trump="L", tricks=[[[0, "L7"], [1, "EK"], [2, "H7"], [3, "EO"]]],
    stake=3, last_raiser=3, accepted_by=0, dealer=3, scores=[4, 7])


def test_f1_set_up_after_its_first_trick_plays_on_as_the_rules_file():
    s = stich.game("watten", "euregio").new_state(seed=1, position=F1_AFTER_TRICK_1)
    # The Linke E-O won trick 1, so seat 4 leads; seat 1, who has just accepted, may raise at once.
    assert s.current_player == 3 and s.seats_to_act() == [0, 3]
    assert [str(a) for a in s.legal_actions(0)] == ["raise"]
    assert s.view(1)["tricks"] == [{"cards": [{"seat": 0, "card": "L7"}, {"seat": 1, "card": "EK"},
                                              {"seat": 2, "card": "H7"}, {"seat": 3, "card": "EO"}], "winner": 3}]
    for text in ["4:play SA", "1:play S9", "2:play SU", "3:play SK", "4:play H9", "1:play HA", "2:play H10",
                 "3:play HO", "3:play L9", "4:play LK", "1:play E8", "2:play LA"]:
        s.apply(text)
    assert s.scores == [4, 10] and s.hand_summary()["last_result"]["stake"] == 3   # B's three tricks, 3


@pytest.mark.parametrize("changes, message", [
    ({"tricks": [[[0, "L7"], [1, "EK"], [2, "H7"], [3, "E10"]]],
      "hands": [["LO", "HA", "S9", "E8"], ["LA", "H10", "SU", "S6"], ["HO", "L9", "EA", "SK"],
                ["LK", "H9", "SA", "EO"]]}, "seat 3 may not play E10"),     # E.8: L-K or E-O
    ({"tricks": [[[1, "EK"], [2, "H7"], [3, "EO"], [0, "L7"]]]}, "seat 0 is to play"),   # forehand leads
    ({"leader": 0}, "seat 3 leads trick 2"),
    ({"tricks_won": [0, 1]}, "either as tricks or as tricks_won"),
])
def test_inconsistent_tricks_are_refused(changes, message):
    with pytest.raises(SetupError, match=message):
        stich.game("watten", "euregio").new_state(seed=1, position=F1_AFTER_TRICK_1 | changes)
