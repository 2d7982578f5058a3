"""§4.2 worked examples L1-L6: legal moves."""

from __future__ import annotations

import pytest
from watten_helpers import act, legal_cards, position, winners

L1_SEAT2 = "H-A S-9 E-8 L-10 H-K"
L1_SEAT3 = "E-A H-9 S-K L-U H-O"
L1_SEAT4 = "S-A L-O H-8 S-U L-9"


def l1_state():
    s = position("bavarian_4", {1: "E-10", 2: L1_SEAT2, 3: L1_SEAT3, 4: L1_SEAT4}, avoid="E 10")
    act(s, "1:schlag 10 4:trump E 1:play E-10")
    return s


def test_l1_hauptschlag_lead_forces_trump():
    s = l1_state()
    assert legal_cards(s) == {"E8", "L10", "HK"}
    with pytest.raises(Exception, match="Hauptschlag"):
        s.apply("2:play H-A")


def test_l1a_kritische_releases_the_others():
    s = l1_state()
    act(s, "2:play H-K")
    assert legal_cards(s) == {"EA", "H9", "SK", "LU", "HO"}
    act(s, "3:play H-9 4:play S-A")
    assert winners(s) == [2]


def test_l1b_trump_forces_next_holder():
    s = l1_state()
    act(s, "2:play E-8")
    assert legal_cards(s) == {"EA"}
    act(s, "3:play E-A")
    assert legal_cards(s) == {"SA", "LO", "H8", "SU", "L9"}   # no trump: free
    act(s, "4:play S-A")
    assert winners(s) == [1]


def test_l1_only_first_trick():
    # Seat 1 wins trick 1 and leads the Hauptschlag to trick 2: everybody is free.
    s = position("bavarian_4", {1: "H-A E-10", 2: "H-7 E-8 L-10 S-9", 3: "H-8 E-A", 4: "H-9 S-A"},
                 avoid="E 10")
    act(s, "1:schlag 10 4:trump E 1:play H-A 2:play H-7 3:play H-8 4:play H-9 1:play E-10")
    assert legal_cards(s) == {"E8", "L10", "S9", "SU"}   # all four cards


@pytest.mark.parametrize("exempt", ["true", "false"])
def test_l2_tyrolean_trump_lead(exempt):
    s = position("tyrolean", {1: "E-8 S-A H-7", 2: "E-K S-10 S-9 E-A L-K", 3: "S-8 L-10 W E-9 L-8",
                              4: "S-7 E-7 H-9 S-K L-7"}, avoid="H 9", rechte_exempt=exempt)
    act(s, "1:schlag 9 4:trump H")
    act(s, "1:play E-8 2:play E-K 3:play S-8 4:play S-7")     # seat 2 wins
    act(s, "2:play S-10 3:play L-10 4:play E-7 1:play S-A")    # seat 1 wins, leads trick 3
    act(s, "1:play H-7")
    assert legal_cards(s) == {"S9", "EA", "LK"}     # a Linke is not a trump: free
    act(s, "2:play E-A")
    assert legal_cards(s) == {"S6", "E9"}           # trump or Linke
    act(s, "3:play E-9")
    if exempt == "true":
        assert legal_cards(s) == {"H9", "SK", "L7"}  # the Rechte is never forced
        act(s, "4:play S-K")
        assert winners(s) == [2, 1, 3]
    else:
        assert legal_cards(s) == {"H9"}


def test_l3_tyrolean_schlag_six_exemption_and_partner_view():
    s = position("tyrolean", {1: "E-A S-7 H-K L-A", 2: "E-7 S-A H-7 W H-A", 3: "E-8 S-8 H-8",
                              4: "E-9 S-9 H-9"}, avoid="L")
    act(s, "1:schlag 6 4:trump L")
    # R24: partners see each other's hands after the Ansage.
    assert sorted(s.view(1)["known_hands"][3]) == sorted(s.view(3)["hand"])
    assert s.view(1)["known_hands"][2] is None
    act(s, "1:play E-A 2:play E-7 3:play E-8 4:play E-9")       # seat 1
    act(s, "1:play S-7 2:play S-A 3:play S-8 4:play S-9")       # seat 2
    act(s, "2:play H-7 3:play H-8 4:play H-9 1:play H-K")       # seat 1
    act(s, "1:play L-A")
    assert legal_cards(s) == {"S6", "HA"}


def test_l4_euregio_only_ansager_bound():
    s = position("euregio", {1: "H-8 L-9 H-7 E-O S-8", 2: "H-10 L-10 L-7", 3: "H-K L-K",
                             4: "E-7 L-8 H-A S-9 E-U"}, avoid="L 9")
    act(s, "1:show L-9 4:show L-8")
    act(s, "1:play H-8 2:play H-10 3:play H-K 4:play E-7")     # seat 3 wins
    act(s, "3:play L-K")
    assert legal_cards(s) == {"L8", "S9"}
    act(s, "4:play S-9")
    assert legal_cards(s) == {"L9", "H7", "EO", "S8"}         # only trump is the Rechte
    act(s, "1:play H-7")
    assert "L7" in legal_cards(s) and len(legal_cards(s)) == 4  # blind player: free
    act(s, "2:play L-10")
    assert winners(s) == [3, 2]                                # the Guate


def test_l5_euregio_weli_schlag():
    s = position("euregio", {1: "W", 2: "E-A", 3: "E-K", 4: "E-9 H-A S-K L-8 S-10"}, avoid="E")
    act(s, "1:show W 4:show E-9 1:play W")
    assert len(legal_cards(s)) == 5     # seat 2 is blind: free although holding E-A
    act(s, "2:play E-A")
    assert len(legal_cards(s)) == 5
    act(s, "3:play E-K")
    assert legal_cards(s) == {"E9"}
    act(s, "4:play E-9")
    assert winners(s) == [1]


@pytest.mark.parametrize("display", ["whole_hand", "until_trick_2"])
def test_l6_blind_watten(display):
    s = position("blind", {1: "H-8 L-7 E-A", 2: "L-K E-K", 3: "L-O E-O", 4: "L-A L-9 E-7"},
                 avoid="L 8", first_trick_display=display)
    act(s, "1:show H-8 4:show L-A")
    for blind_seat in (1, 2):
        v = s.view(blind_seat)
        assert v["schlag"] is None and v["trump"] is None
        assert not [e for e in v["events"] if e["type"] in ("schlag", "trump", "show", "reveal")]
    assert s.view(0)["schlag"] == "8" and s.view(3)["trump"] == "L"
    assert "schlag" not in s.hand_summary()
    act(s, "1:play L-7")
    assert len(legal_cards(s)) == 5             # seat 2 holds L-K but is not an Ansager
    act(s, "2:play E-K 3:play E-O")
    assert legal_cards(s) == {"LA", "L9"}       # the dealer is bound
    act(s, "4:play L-A")
    assert s.view(2)["face_up_trick"][0]["card"] == "L7"
    act(s, "4:play E-7 1:play E-A 2:play L-K 3:play L-O")
    face = s.view(2)["face_up_trick"]
    if display == "whole_hand":
        assert [x["card"] for x in face] == ["L7", "EK", "EO", "LA"]
    else:
        assert face is None
