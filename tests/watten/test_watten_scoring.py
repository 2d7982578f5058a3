"""§4.4 worked examples S1-S10 (raising, locks, 4 Punkte, 3 players, Maschine, the 4-point hand at the
last trick) and §4.5 F1."""

from __future__ import annotations

import pytest
from watten_helpers import act, can_raise, legal_cards, legal_verbs, position, seat, winners


def play_first(state):
    state.apply(next(a for a in state.legal_actions() if a.verb == "play"))


def finish_hand(state, plan: dict | None = None):
    """Play out the hand: planned cards {seat: [cards]} in order, else the first legal card."""
    plan = {k: list(v.split()) for k, v in (plan or {}).items()}
    hand = state.hand_number
    while state.hand_number == hand and not state.is_terminal():
        todo = plan.get(seat(state))
        if todo:
            act(state, f"{seat(state)}:play {todo.pop(0)}")
        else:
            play_first(state)


def open_bavarian(scores, **kw):
    s = position("bavarian_4", {}, scores=scores, avoid="L 8", **kw)
    act(s, "1:schlag 8 4:trump L")
    return s


def test_s1_raise_accept_then_fold():
    s = open_bavarian([5, 5])
    act(s, "1:raise 2:accept")
    assert s.view(0)["stake"] == 3 and seat(s) == 1 and not can_raise(s)   # only B raises next
    while not (s.trick_no == 3 and seat(s) == 2):
        assert not (seat(s) in (1, 3) and can_raise(s))
        play_first(s)
    alt = s.clone()
    act(s, "2:raise 3:fold")
    assert s.hand_summary()["scores"] == [5, 8]
    act(alt, "2:raise 3:accept")
    assert alt.view(None)["stake"] == 4
    play_first(alt)                          # seat 2 plays; seat 3 (A) may raise now
    assert seat(alt) == 3 and can_raise(alt)


def test_window_b_the_responder_may_accept_and_raise_again():
    """R9 window (b), PR-W3: ``raise`` as the answer accepts and offers the next raise at once."""
    s = open_bavarian([5, 5])
    act(s, "1:raise")
    assert seat(s) == 2 and set(legal_verbs(s)) == {"accept", "fold", "raise"}
    act(s, "2:raise")                         # accept 3, offer 4
    v = s.view(None)
    assert v["stake"] == 3 and seat(s) == 3    # the raiser's first opponent after seat 2 answers (R34)
    assert [e["type"] for e in v["events"]][-2:] == ["accept", "raise"]
    act(s, "3:accept")
    assert s.view(0)["stake"] == 4 and seat(s) == 1 and can_raise(s)   # A accepted: A may raise next
    play_first(s)
    assert seat(s) == 2 and not can_raise(s)  # B's raise was the last one accepted


def test_window_b_respects_locks_and_caps():
    s = open_bavarian([5, 9])                 # B is locked at 9 (lock_at = target - 2 = 9)
    act(s, "1:raise")
    assert seat(s) == 2 and "raise" not in legal_verbs(s)
    with pytest.raises(Exception, match=r"raising again is not allowed now: a score of 9 or more is locked"):
        act(s, "2:raise")
    assert s.view(None)["stake"] == 2 and seat(s) == 2      # the refusal changed nothing


def test_s2_bavarian_lock():
    s = open_bavarian([9, 4])
    assert seat(s) == 1 and not can_raise(s)
    play_first(s)
    assert seat(s) == 2 and can_raise(s)
    act(s, "2:raise 3:accept")
    while s.hand_number == 1:
        assert not can_raise(s)
        play_first(s)
    assert s.hand_summary()["scores"][1] in (4, 7) and max(s.scores) <= 9 + 3


EUREGIO_A_WINS = {1: "H-O H-U E-U S-U L-U", 4: "H-7"}
EUREGIO_B_WINS = {1: "L-U", 2: "H-O H-U E-U S-U H-A", 4: "H-7"}


def four_points_state(hands, scores, dealer=4):
    s = position("euregio", hands, scores=scores, dealer=dealer, avoid="H U")
    return s


def test_s3a_four_points_concede():
    s = four_points_state(EUREGIO_A_WINS, [16, 10])
    act(s, "1:show E-U 4:show H-7")
    # E.11 forbids playing and raising while the decision is due; E.5's window stays open
    assert seat(s) == 1 and legal_verbs(s) == {"hold", "concede", "ask_exchange"}
    assert s.view(2)["stake"] == 4 and s.view(2)["fixed"] is True
    act(s, "1:concede")
    assert s.scores == [16, 12] and s.hand_number == 2 and s.view(None)["dealer"] == 0


def test_s3a_s9_four_points_hold_and_win_the_game():
    s = four_points_state(EUREGIO_A_WINS, [16, 10])
    act(s, "1:show E-U 4:show H-7 1:hold")
    assert not can_raise(s)
    finish_hand(s, {1: "H-O H-U E-U"})
    assert s.scores == [20, 10] and s.is_terminal() and s.returns() == [1, -1, 1, -1]


def test_s3a_four_points_hold_and_lose():
    s = four_points_state(EUREGIO_B_WINS, [16, 10])
    act(s, "1:show L-U 4:show H-7 1:hold")
    finish_hand(s, {2: "H-O H-U E-U"})
    assert s.scores == [16, 14]


def test_s3b_literal_decision_before_the_dealers_card():
    s = position("euregio", {}, scores=[16, 10], dealer=3)
    shows = [a for a in s.legal_actions() if a.verb == "show"]
    s.apply(shows[0])
    s.apply([a for a in s.legal_actions() if a.verb == "show"][0])
    assert seat(s) == 4 and "play" in legal_verbs(s) and not can_raise(s)
    play_first(s)
    play_first(s)
    play_first(s)
    assert seat(s) == 3 and legal_verbs(s) == {"hold", "concede"}   # the first card closed the Schönere window
    act(s, "3:hold")
    assert seat(s) == 3 and "play" in legal_verbs(s)


def test_s3b_option_before_lead():
    s = position("euregio", {}, scores=[16, 10], dealer=3, four_points_decision="before_lead")
    for _ in range(2):
        s.apply([a for a in s.legal_actions() if a.verb == "show"][0])
    assert seat(s) == 3 and legal_verbs(s) == {"hold", "concede", "ask_exchange"}


def shows(s):
    for _ in range(2):
        s.apply([a for a in s.legal_actions() if a.verb == "show"][0])


@pytest.mark.parametrize("answer", ["fold", "accept"])
def test_s3c_struck_but_lead_below_four(answer):
    s = position("euregio", {}, scores=[16, 13])
    shows(s)
    assert seat(s) == 1 and "play" in legal_verbs(s) and not can_raise(s)
    play_first(s)
    assert can_raise(s)
    act(s, f"2:raise 3:{answer}")
    if answer == "fold":
        assert s.scores == [16, 15]
    else:
        while s.hand_number == 1:
            assert not can_raise(s)
            play_first(s)


def test_s3d_both_struck():
    s = position("euregio", {}, scores=[17, 16])
    shows(s)
    assert "hold" not in legal_verbs(s)
    while s.hand_number == 1 and not s.is_terminal():
        assert not can_raise(s)
        play_first(s)


def test_s3e_lead_of_four():
    s = position("euregio", {}, scores=[17, 13])
    shows(s)
    assert legal_verbs(s) == {"hold", "concede", "ask_exchange"} and s.view(0)["stake"] == 4


def test_s3_refusal_value_three():
    s = position("euregio", {}, scores=[16, 10], four_points_refusal_value=3)
    shows(s)
    act(s, "1:concede")
    assert s.scores == [16, 13]


@pytest.mark.parametrize("answer", ["fold", "accept"])
def test_s4_euregio_first_raise(answer):
    s = position("euregio", {}, scores=[6, 6])
    shows(s)
    play_first(s)
    act(s, f"2:raise 3:{answer}")
    if answer == "fold":
        assert s.scores == [6, 8]
        return
    assert s.view(1)["stake"] == 3
    play_first(s)                      # seat 2 plays
    assert seat(s) == 3 and can_raise(s)
    act(s, "3:raise 4:fold")
    assert s.scores == [9, 6]


def test_s5_tyrolean_lock():
    s = position("tyrolean", {}, scores=[13, 7], avoid="H U")
    act(s, "1:schlag U 4:trump H")
    assert not can_raise(s)
    play_first(s)
    assert can_raise(s)


S6 = {1: "S-7 L-9 E-A S-K E-9", 2: "S-A L-7 E-10 S-10", 3: "S-8 L-8 E-O L-10 L-O", 4: "S-9 L-A E-8 E-K H-A"}


def s6_state(variant, last, **kw):
    hands = dict(S6)
    hands[2] = S6[2] + " " + last
    s = position(variant, hands, scores=[6, 6], **kw)
    act(s, "1:schlag U 4:trump H")
    act(s, "1:play S-7 2:play S-A 3:play S-8 4:play S-9")      # seat 2
    act(s, "2:play L-7 3:play L-8 4:play L-A 1:play L-9")      # seat 4
    act(s, "4:play E-8 1:play E-A 2:play E-10 3:play E-O")     # seat 1
    act(s, "1:play S-K 2:play S-10 3:play L-10 4:play E-K")    # seat 1
    assert winners(s) == [2, 4, 1, 1]
    return s


@pytest.mark.parametrize("last, allowed", [("L-K", False), ("E-7", True), ("H-7", True), ("W", True),
                                           ("L-U", True)])
def test_s6_tyrolean_last_trick(last, allowed):
    s = s6_state("tyrolean", last)
    assert seat(s) == 1 and can_raise(s)     # before the lead: free
    act(s, "1:play E-9")
    assert can_raise(s) is allowed


def test_s6_guate_weli_is_not_a_trump():
    s = s6_state("guate", "W")
    act(s, "1:play E-9")
    assert not can_raise(s)


def test_s6_bluff_and_challenge():
    s = s6_state("tyrolean", "L-K", last_trick_bluff="on")
    act(s, "1:play E-9")
    assert can_raise(s)
    act(s, "2:raise")
    assert "challenge" in legal_verbs(s)
    act(s, "3:challenge")
    assert s.scores == [8, 6]   # the raiser's card did not qualify: the challengers score 2


def test_s6_rule_off():
    s = s6_state("tyrolean", "L-K", last_trick_rule="off")
    act(s, "1:play E-9")
    assert can_raise(s)


def three_players(hands, scores=(6, 8, 9)):
    s = position("bavarian_3", hands, dealer=1, scores=list(scores), avoid="L 8")
    act(s, "2:schlag 8 2:trump L")
    return s


def test_s7_three_players_locks_and_duo_win():
    s = three_players({1: "H-K S-7 E-7"})
    assert seat(s) == 2 and can_raise(s)
    play_first(s)
    assert seat(s) == 3 and not can_raise(s)   # P3 has 9
    play_first(s)
    assert seat(s) == 1 and can_raise(s)
    finish_hand(s, {1: "H-K S-7 E-7"})
    assert s.scores == [8, 8, 11] and s.is_terminal()
    assert s.returns() == [-0.5, -0.5, 1.0]


def test_s7_solo_wins():
    s = three_players({2: "H-K S-7 E-7"})
    finish_hand(s, {2: "H-K S-7 E-7"})
    assert s.scores == [6, 10, 9]


def test_s7_solo_raise_duo_folds():
    s = three_players({})
    act(s, "2:raise 3:fold")
    assert s.scores == [6, 10, 9]


@pytest.mark.parametrize("maschine", ["on", "off"])
def test_s8_maschine(maschine):
    s = position("bavarian_4", {2: "H-K S-7 E-7"}, maschine=maschine)
    if maschine == "on":
        assert s.scores == [0, 2] and s.hand_number == 2 and all(a.verb == "cut" for a in s.legal_actions())
    else:
        assert s.hand_number == 1 and seat(s) == 1 and "schlag" in legal_verbs(s)


F1_HANDS = {1: "L-O H-A S-9 E-8 L-7", 2: "L-A E-K H-10 S-U W", 3: "H-O L-9 E-A S-K H-7",
            4: "L-K E-O H-9 S-A E-10"}


def test_f1_full_euregio_hand():
    s = position("euregio", F1_HANDS, scores=[4, 7])
    act(s, "1:show L-O   4:show L-K")
    assert s.view(0)["schlag"] == "O" and s.view(3)["trump"] == "L" and s.view(1)["schlag"] is None
    act(s, "1:play L-7   2:play E-K   3:play H-7")
    assert legal_cards(s) == {"LK", "EO"}
    act(s, "4:play E-O")
    assert not can_raise(s) or seat(s) == 4
    act(s, "4:raise      1:accept")
    assert seat(s) == 4 and not can_raise(s)
    act(s, "4:play S-A")
    assert seat(s) == 1 and can_raise(s)      # only side A may raise next
    act(s, "1:play S-9   2:play S-U   3:play S-K")
    act(s, "4:play H-9   1:play H-A   2:play H-10  3:play H-O")
    act(s, "3:play L-9")
    assert legal_cards(s) == {"LK"}
    act(s, "4:play L-K")
    assert legal_cards(s) == {"LO", "E8"}     # the Rechte is seat 1's only trump: free
    act(s, "1:play E-8   2:play L-A")
    assert winners(s) == [4, 4, 3, 4]
    assert s.scores == [4, 10] and s.hand_number == 2 and s.view(None)["dealer"] == 0


@pytest.mark.parametrize("variant, allowed", [("blind", True), ("euregio", True),
                                              ("tyrolean", False), ("guate", False)])
def test_s6_only_ansager_restricted_in_blind_none_in_euregio(variant, allowed):
    hands = {1: "S-7 L-U E-A S-K E-9", 2: "S-A L-7 E-10 S-10 L-K", 3: "S-8 L-8 E-O L-10 L-O",
             4: "S-U L-A E-8 E-K H-A"}
    s = position(variant, hands, scores=[6, 6])
    act(s, "1:show E-9 4:show H-A" if variant in ("blind", "euregio") else "1:schlag 9 4:trump H")
    act(s, "1:play S-7 2:play S-A 3:play S-8 4:play S-U")
    act(s, "2:play L-7 3:play L-8 4:play L-A 1:play L-U")
    act(s, "4:play E-8 1:play E-A 2:play E-10 3:play E-O")
    act(s, "1:play S-K 2:play S-10 3:play L-10 4:play E-K")
    assert winners(s) == [2, 4, 1, 1]
    act(s, "1:play E-9")
    assert can_raise(s) is allowed     # seat 2 (L-K) is no Ansager in Blind Watten


# --- S10: the 4-point hand at the last trick (T1.8, R14, E.11) ---------------------------------------
S10_HANDS = {1: "H-U S-9 L-K L-7 S-8", 2: "E-7 L-8 E-9 S-7 H-9", 3: "S-O H-7 W H-K E-U", 4: "E-8 H-8 S-U S-A E-10"}
S10_TRICKS_1_TO_4 = ("3:play E-U 4:play H-8 1:play S-9 2:play E-7  3:play S-O 4:play E-10 1:play S-8 2:play L-8 "
                     "3:play H-7 4:play E-8 1:play L-7 2:play E-9  2:play S-7 3:play H-K 4:play S-U 1:play H-U")


def s10_state(scores, **options):
    s = position("euregio", S10_HANDS, dealer=2, scores=scores, four_points_raising="trailing_may_raise",
                 **options)
    act(s, "3:show S-O 2:show E-9")
    if s.view(None)["fixed"]:
        act(s, "3:hold")
    act(s, S10_TRICKS_1_TO_4)
    assert winners(s) == [3, 3, 2, 4] and seat(s) == 4
    act(s, "4:play S-A 1:play L-K")
    return s


@pytest.mark.parametrize("rule", ["all", "ansager"])
@pytest.mark.parametrize("bluff", ["off", "on"])
def test_s10_a_four_point_hand_is_not_tested_at_the_last_trick(rule, bluff):
    # T1.8/R14: the test applies "as long as the stake was still 2" when trick 5 was led; the fixed
    # 4 of E.11 is above 2 from the start, so B's raise with H-9 (not spades, not trump, not a
    # Schlag) stands, and there is nothing to challenge.
    s = s10_state([16, 0], last_trick_rule=rule, last_trick_bluff=bluff)
    assert s.view(None)["stake"] == 4 and seat(s) == 2 and can_raise(s)
    act(s, "2:raise")
    assert seat(s) == 3 and legal_verbs(s) == {"accept", "fold"}
    folded = s.clone()
    act(folded, "3:fold")
    assert folded.scores == [16, 4]           # the value before the raise
    act(s, "3:accept 2:play H-9 3:play W")
    assert winners(s) == [3, 3, 2, 4, 4] and s.scores == [16, 5]


def test_s10_the_same_cards_at_stake_2_are_tested():
    s = s10_state([0, 0], last_trick_rule="all")
    assert s.view(None)["stake"] == 2 and seat(s) == 2 and not can_raise(s)
    with pytest.raises(Exception, match=r"in the last trick you may raise only with a card of the led suit"):
        act(s, "2:raise")


def test_s10_as_a_position_keeps_the_raise():
    # The position API (docs/engine.md) sets the same moment up: the fixed 4 when trick 5 was led.
    s = s10_state([16, 0], last_trick_rule="all")
    pos = s.position()
    assert pos["raised_before_last_trick"] is False
    counted = {k: v for k, v in pos.items() if k != "tricks"} | {
        "tricks_won": [2, 2], "played": [c for trick in pos["tricks"] for _seat, c in trick]}
    for p in (pos, counted):      # the tricks played again, or only counted
        again = s.game.new_state(seed=3, position=p)
        assert seat(again) == 2 and can_raise(again)
        act(again, "2:raise")
        assert legal_verbs(again) == {"accept", "fold"}
