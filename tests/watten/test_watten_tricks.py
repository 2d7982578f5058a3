"""§4.1 worked examples T1-T13: trick winners, played from explicit positions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from watten_helpers import act, legal_cards, position, winners

import stich


def test_t1_bavarian_first_blinde_wins():
    # Schlag 8, trump L.  Trick 1 (seat 1 leads) is won by seat 2, who leads trick 2.
    s = position("bavarian_4", {1: "H-9 H-8", 2: "H-A E-A", 3: "H-10 S-8", 4: "H-U L-A"}, avoid="L 8")
    act(s, "1:schlag 8 4:trump L")
    act(s, "1:play H-9 2:play H-A 3:play H-10 4:play H-U")
    act(s, "2:play E-A 3:play S-8 4:play L-A 1:play H-8")
    assert winners(s) == [2, 3]   # the first Blinde beats the trump Ace and the later Blinde


@pytest.mark.parametrize("last, winner", [("H-K", 4), ("L-A", 3)])
def test_t2_bavarian_kritische(last, winner):
    s = position("bavarian_4", {1: "H-A E-A L-8", 2: "H-7 E-9 E-7", 3: "H-9 E-10 S-7",
                                4: "H-10 E-U " + last}, avoid="L 8")
    act(s, "1:schlag 8 4:trump L")
    act(s, "1:play H-A 2:play H-7 3:play H-9 4:play H-10")
    act(s, "1:play E-A 2:play E-9 3:play E-10 4:play E-U")
    act(s, f"1:play L-8 2:play E-7 3:play S-7 4:play {last}")
    assert winners(s) == [1, 1, winner]   # Max > Belli > Spitz > Hauptschlag


def test_t3_bavarian_plain_suit():
    s = position("bavarian_4", {1: "S-A E-10", 2: "S-8 E-U", 3: "S-10 L-A", 4: "S-U E-8"}, avoid="H")
    act(s, "1:schlag 9 4:trump H")
    act(s, "1:play S-A 2:play S-8 3:play S-10 4:play S-U")
    act(s, "1:play E-10 2:play E-U 3:play L-A 4:play E-8")
    assert winners(s) == [1, 2]   # L-A is off-suit and cannot win


def test_t4_bavarian_no_hauptschlag_when_it_is_a_kritische():
    s = position("bavarian_4", {1: "H-K", 2: "E-K", 3: "S-7", 4: "H-A"}, avoid="H K")
    act(s, "1:schlag K 4:trump H 1:play H-K 2:play E-K 3:play S-7 4:play H-A")
    assert winners(s) == [1]
    # Leading H-K (Max, not a Hauptschlag) creates no obligation.
    s = position("bavarian_4", {1: "H-K", 2: "H-A L-9"}, avoid="H K")
    act(s, "1:schlag K 4:trump H 1:play H-K")
    assert {"HA", "L9"} <= legal_cards(s) and len(legal_cards(s)) == 5


def test_t4_trump_order_without_max():
    # Ordinary trumps H-A > H-O > ... (no H-K); the Blinde E-K beats them all.
    s = position("bavarian_4", {1: "H-O", 2: "H-A", 3: "H-U", 4: "E-K"}, avoid="H K")
    act(s, "1:schlag K 4:trump H 1:play H-O 2:play H-A 3:play H-U 4:play E-K")
    assert winners(s) == [4]


def test_t5_bavarian_schlag_seven():
    # Trump S: S-7 Belli, E-7 Spitz -> no Hauptschlag; Blinde H-7 and L-7 only.
    s = position("bavarian_4", {1: "H-8 E-K", 2: "H-A L-7", 3: "H-9 H-7", 4: "H-10 S-A"}, avoid="S 7")
    act(s, "1:schlag 7 4:trump S 1:play H-8 2:play H-A 3:play H-9 4:play H-10")
    act(s, "2:play L-7 3:play H-7 4:play S-A 1:play E-K")
    assert winners(s) == [2, 2]


def test_t5_trump_herz_hauptschlag_and_spitz():
    s = position("bavarian_4", {1: "L-7", 2: "H-7", 3: "H-A", 4: "E-K"}, avoid="H 7")
    act(s, "1:schlag 7 4:trump H 1:play L-7 2:play H-7 3:play H-A 4:play E-K")
    assert winners(s) == [2]   # Hauptschlag H-7 beats the (only) Blinde L-7
    s = position("bavarian_4", {1: "L-7", 2: "H-7", 3: "H-A", 4: "E-7"}, avoid="H 7")
    act(s, "1:schlag 7 4:trump H 1:play L-7 2:play H-7 3:play H-A 4:play E-7")
    assert winners(s) == [4]   # E-7 is Spitz, not a Blinde


@pytest.mark.parametrize("answer, winner", [("H-A", 2), ("E-A", 1), ("S-7", 2), ("L-O", 2)])
def test_t6_bavarian_two_players(answer, winner):
    s = position("bavarian_2", {1: "H-9", 2: answer}, dealer=2, avoid="S O H")
    act(s, f"1:schlag O 2:trump S 1:play H-9 2:play {answer}")
    assert winners(s) == [winner]


def test_t7_tyrolean_linke_and_weli():
    # (a) dealer seat 2 so that seat 3 leads: L-O, H-O, E-A, W.
    s = position("tyrolean", {3: "L-O", 4: "H-O", 1: "E-A", 2: "W"}, dealer=2, avoid="E O")
    act(s, "3:schlag O 2:trump E 3:play L-O 4:play H-O 1:play E-A 2:play W")
    assert winners(s) == [3]
    # (b) L-A, W, L-K, E-7: E-7 beats the Weli (both trumps).
    s = position("tyrolean", {1: "L-A", 2: "W", 3: "L-K", 4: "E-7"}, avoid="E O")
    act(s, "1:schlag O 4:trump E 1:play L-A 2:play W 3:play L-K 4:play E-7")
    assert winners(s) == [4]


def test_t8_tyrolean_schlag_six():
    s = position("tyrolean", {1: "L-A", 2: "W", 3: "E-A", 4: "L-K"}, avoid="L")
    act(s, "1:schlag 6 4:trump L 1:play L-A 2:play W 3:play E-A 4:play L-K")
    assert winners(s) == [2]


@pytest.mark.parametrize("variant", ["guate", "euregio"])
@pytest.mark.parametrize("third, winner", [("S-7", 3), ("W", 4)])
def test_t9_guate_schlag_ace(variant, third, winner):
    s = position(variant, {1: "H-A", 2: "S-K", 3: third, 4: "S-A"}, avoid="S A")
    if variant == "guate":
        act(s, "1:schlag A 4:trump S")
    else:
        act(s, "1:show H-A 4:show S-A")
    act(s, f"1:play H-A 2:play S-K 3:play {third} 4:play S-A")
    assert winners(s) == [winner]   # Guate S-7 > Rechte S-A > Linke H-A; W the lowest trump


@pytest.mark.parametrize("variant, winner", [("guate", 3), ("blind", 3), ("euregio", 3), ("tyrolean", 2)])
def test_t10_weli_plain_or_trump(variant, winner):
    # Dealer seat 1, so seat 2 leads.  Seat 2 holds an 8 and seat 1 an Eichel to show.
    dealer_cards = "L-K E-9" if variant in ("blind", "euregio") else "L-K"
    s = position(variant, {2: "W H-8", 3: "S-7 H-9", 4: "H-A", 1: dealer_cards}, dealer=1, avoid="E 8")
    if variant in ("blind", "euregio"):
        act(s, "2:show H-8 1:show E-9")
    else:
        act(s, "2:schlag 8 1:trump E")
    act(s, "2:play W")
    if variant == "tyrolean":
        assert len(legal_cards(s)) == 5   # a trump lead, but seat 3 holds no trump: free
    act(s, "3:play S-7 4:play H-A 1:play L-K")
    assert winners(s) == [winner]


def test_t11_euregio_linke_beats_trump():
    s = position("euregio", {1: "S-A L-U", 2: "S-K", 3: "E-U", 4: "H-7"}, avoid="H U")
    act(s, "1:show L-U 4:show H-7 1:play S-A 2:play S-K 3:play E-U 4:play H-7")
    assert winners(s) == [3]


@pytest.mark.parametrize("lead, second", [("H-K", "H-A"), ("H-A", "H-U")])
def test_t12_euregio_descending_trumps_and_guate(lead, second):
    s = position("euregio", {1: lead + " L-10", 2: second, 3: "S-8", 4: "H-7"}, avoid="H 10")
    act(s, f"1:show L-10 4:show H-7 1:play {lead} 2:play {second} 3:play S-8 4:play H-7")
    assert winners(s) == [2]


def test_t13_euregio_schlag_seven_schellen_trump():
    g = stich.game("watten", variant="euregio")
    d = g.deck
    rk = g.ranking(d.rank(d.parse("S7")), d.suit(d.parse("S7")))
    key = {d.code(c): rk.key[c] for c in range(len(d))}
    order = ["S8", "S7", "H7", "SA", "SK", "SO", "SU", "S10", "S9", "S6"]
    assert key["S8"] > key["S7"] > key["H7"] == key["E7"] == key["L7"] > key["SA"]
    assert [key[c] for c in order[3:]] == sorted((key[c] for c in order[3:]), reverse=True)
    assert key["S6"] > 0 and key["HA"] == 0   # W the lowest trump; other suits are plain


@given(st.data())
@settings(max_examples=300, deadline=None)
def test_first_winning_is_the_first_card_that_would_take_the_trick(data):
    """``ranking.first_winning`` (the playout policy's cheapest winning card) names the first of the
    cards that :func:`trick_winner` would make the winner if it were played next, in every family
    and with every Schlag and trump; None when none would."""
    from stich.rulesets.watten.ranking import build_ranking, first_winning, trick_winner

    variant = data.draw(st.sampled_from(["bavarian_4", "tyrolean", "guate"]))
    g = stich.game("watten", variant=variant)
    deck = g.deck
    family = {"bavarian_4": "bavarian", "tyrolean": "tyrolean", "guate": "guate"}[variant]
    ranks = sorted({deck.rank(c) for c in range(len(deck))})
    rk = build_ranking(deck, family, data.draw(st.sampled_from(ranks)), data.draw(st.sampled_from(range(4))))
    suit = tuple(deck.suit(c) for c in range(len(deck)))
    rank = tuple(deck.rank(c) for c in range(len(deck)))
    cards = data.draw(st.permutations(range(len(deck))))
    played = data.draw(st.integers(1, 3))
    trick, hand = list(cards[:played]), list(cards[played:played + data.draw(st.integers(1, 5))])
    expected = next((c for c in hand if trick_winner(rk, suit, rank, [*trick, c]) == len(trick)), None)
    assert first_winning(rk, suit, rank, trick, hand) == expected
