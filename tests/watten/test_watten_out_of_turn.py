"""Decisions the rules give a Watten player who is not on turn (§0.5, R36): the Euregio Ansager's
Schönere and Schlagtausch requests and simultaneous shows, and the moment of the R14 snapshot.

Each test is written from the rules file's own wording and failed before the engine let more than
one seat act."""

from __future__ import annotations

import pytest
from tests.watten.watten_helpers import act, legal_verbs, position, seat

import stich
from stich.engine import IllegalActionError


def verbs(state, seat_1based: int) -> set[str]:
    return {a.verb for a in state.legal_actions(seat_1based - 1)}


# --- E.5: the exchange window stays open until the 4-point decision is taken -----------------------
def test_e5_exchange_while_the_four_point_decision_is_due():
    # E.11: side A (1, 3) is struck and leads by 4; forehand (seat 1) chose the Schlag: he decides
    # before the lead.  E.5: "the request may be made even after Schlag and trump have been
    # determined" - the window closes when the decision is *taken*, not when it is due.
    s = position("euregio", {}, scores=[16, 10])
    shows = [a for a in s.legal_actions() if a.verb == "show"]
    s.apply(shows[0])
    s.apply([a for a in s.legal_actions() if a.verb == "show"][0])
    assert seat(s) == 1 and legal_verbs(s) == {"hold", "concede", "ask_exchange"}
    assert verbs(s, 4) == {"ask_exchange"}          # the other Ansager, not on turn
    assert verbs(s, 2) == verbs(s, 3) == set()     # the blind players have no decision
    assert s.seats_to_act() == [0, 3]
    s.apply("4:ask_exchange")
    assert seat(s) == 1 and legal_verbs(s) == {"agree_exchange", "refuse_exchange"}
    s.apply("1:agree_exchange")
    # R8: the exchange voids the Ansage, which is repeated; the decision comes again after it.
    assert s.schlag is None and s.trump is None and s.decision is None
    assert "show" in legal_verbs(s)


def test_e5_hold_closes_the_window_for_both_ansager():
    s = position("euregio", {}, scores=[16, 10])
    for _ in range(2):
        s.apply([a for a in s.legal_actions() if a.verb == "show"][0])
    s.apply("1:hold")
    assert "ask_exchange" not in legal_verbs(s) and verbs(s, 4) == set()
    with pytest.raises(IllegalActionError, match="seat 4 is not to act; seat 1 is.*no decision"):
        s.apply("4:ask_exchange")


# --- E.6, R33: Schlagtausch for either Ansager in both Ansage orders ---------------------------------
@pytest.mark.parametrize("order, on_turn, other", [("schlag_first", 1, 4), ("trump_first", 4, 1),
                                                    ("simultaneous", 1, 4)])
def test_e6_either_ansager_may_propose_the_swap(order, on_turn, other):
    # E.6: "During the Ansage either Ansager may propose to swap roles"; R33: before either card is shown.
    s = position("euregio", {1: "H-8 L-7", 4: "L-A L-9"}, ansage_order=order)
    assert seat(s) == on_turn
    assert "ask_swap" in legal_verbs(s) and "ask_swap" in verbs(s, other)
    s.apply(f"{other}:ask_swap")
    assert seat(s) == on_turn and legal_verbs(s) == {"agree_swap", "refuse_swap"}
    s.apply(f"{on_turn}:agree_swap")
    assert (s.schlag_seat, s.trump_seat) == (3, 0)     # the dealer names the Schlag, forehand the suit
    assert "ask_swap" not in verbs(s, 1) | verbs(s, 4)  # at most one request per Ansage (R33)


def test_r33_no_swap_once_a_card_is_shown():
    # R33: "it must be proposed and agreed before either Ansager has committed his card" - also
    # in the simultaneous order, where the commitment is not yet revealed.
    s = position("euregio", {1: "H-8 L-7", 4: "L-A L-9"})
    act(s, "1:show H-8")
    assert "ask_swap" not in legal_verbs(s) and "ask_swap" not in verbs(s, 1)


# --- PR-W2 gone: the second Ansager acts whenever the rules let him -----------------------------------
def test_the_dealer_shows_first_in_the_simultaneous_ansage():
    # R2: both commit, then both cards are revealed - in either order.
    s = position("euregio", {1: "H-8 L-7", 4: "L-A L-9"})
    assert seat(s) == 1 and "show" in verbs(s, 4)
    s.apply("4:show L-9")
    view1 = s.view(0)
    assert view1["schlag"] is None and view1["trump"] is None          # nothing revealed yet
    assert seat(s) == 1 and "show" not in verbs(s, 4)
    s.apply("1:show H-8")
    assert s.view(0)["trump"] == "L" and s.view(3)["schlag"] == "8"
    assert s.view(1)["schlag"] is None                                  # the blind players never learn it
    rec = s.record()
    assert [a for _, a in rec["actions"]] == ["show L9", "show H8"]
    assert [p for p, _ in rec["actions"]] == [3, 0]
    again = stich.replay(rec)
    assert again.record() == rec


def test_the_dealer_asks_for_a_schoenere_after_a_completed_ansage():
    # E.5: "after a completed Ansage, before the first card ... the dealer's {ask_exchange}".
    s = position("euregio", {1: "H-8 L-7", 4: "L-A L-9"})
    act(s, "1:show H-8 4:show L-9")
    assert seat(s) == 1 and "ask_exchange" in legal_verbs(s) and verbs(s, 4) == {"ask_exchange"}
    s.apply("4:ask_exchange")
    assert seat(s) == 1 and legal_verbs(s) == {"agree_exchange", "refuse_exchange"}
    s.apply("1:refuse_exchange")
    assert seat(s) == 1 and "play" in legal_verbs(s) and verbs(s, 4) == set()   # R8: a refusal closes it


def test_the_dealer_asks_for_a_schoenere_before_forehand_shows():
    # E.5: "During the Ansage either Ansager ... may ask"; in schlag_first the dealer waits for
    # forehand's show but not for his own request.
    s = position("euregio", {}, ansage_order="schlag_first")
    assert seat(s) == 1 and verbs(s, 4) == {"ask_exchange", "ask_swap"}
    s.apply("4:ask_exchange")
    s.apply("1:agree_exchange")
    assert s.exchanges == 1 and seat(s) == 1


# --- R14 / T1.8: the snapshot is taken when trick 5 is led -------------------------------------------
TRICKS_1_TO_4 = ("3:cut 14 1:schlag 8 4:trump L 1:play HK 2:play S7 3:play EA 4:play H7 1:play L7 2:play S8 "
                 "3:play HA 4:play S6 2:play S9 3:play S10 4:play LU 1:play E7 4:play E9 1:play EO 2:play EU "
                 "3:play HU")


def test_r14_a_raise_by_the_trick_5_leader_lifts_the_restriction():
    # T1.8/R14: the restriction applies "when the stake was still 2 at the moment trick 5 was led".
    # Seat 1 raises before leading trick 5 and seat 2 accepts: the stake is 3 when L8 is led, so
    # seat 2 may raise with his E10 (neither of the led suit, nor trump, nor a Schlag).
    s = stich.game("watten", "tyrolean").new_state(seed=7)
    act(s, TRICKS_1_TO_4)
    assert s.trick_no == 5 and s.stake == 2
    act(s, "1:raise 2:accept 1:play L8")
    assert seat(s) == 2 and s.hands[1] == 1 << s.game.deck.parse("E10")
    assert "raise" in legal_verbs(s)
    s.apply("2:raise")
    assert s.stake == 3 and seat(s) == 3          # R34: seat 3 answers for side A


def test_r14_without_a_raise_before_the_lead_the_restriction_stands():
    s = stich.game("watten", "tyrolean").new_state(seed=7)
    act(s, TRICKS_1_TO_4 + " 1:play L8")
    assert seat(s) == 2 and "raise" not in legal_verbs(s)


# --- §0.5, R9 window (b): the accepter may raise until the next card ----------------------------------
def test_the_player_who_accepted_raises_out_of_turn_before_the_next_card():
    # §0.5: "the player who has just accepted a raise, until the next card is played: raise if §2.8
    # allows it".  F1: 4:raise 1:accept - seat 1 may now raise while seat 4 is to play.
    s = position("euregio", {1: "L-O H-A S-9 E-8 L-7", 2: "L-A E-K H-10 S-U W", 3: "H-O L-9 E-A S-K H-7",
                             4: "L-K E-O H-9 S-A E-10"}, scores=[4, 7])
    act(s, "1:show L-O 4:show L-K 1:play L-7 2:play E-K 3:play H-7 4:play E-O 4:raise 1:accept")
    assert seat(s) == 4 and verbs(s, 1) == {"raise"} and s.seats_to_act() == [0, 3]
    s.apply("1:raise")
    assert s.stake == 3 and seat(s) == 2 and legal_verbs(s) >= {"accept", "fold"}   # R34: seat 2 answers
    s.apply("2:accept")
    assert s.stake == 4 and seat(s) == 4 and verbs(s, 2) == {"raise"}
    s.apply("4:play S-A")
    assert verbs(s, 2) == set()          # the next card closed the window
