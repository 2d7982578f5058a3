"""Options of §2.W and project rulings (docs/watten.md) exercised on explicit positions."""

from __future__ import annotations

import pytest
from watten_helpers import act, can_raise, legal_cards, legal_verbs, position, seat, winners

import stich


def test_option_table_is_complete():
    g = stich.game("watten")
    names = {s.name for s in g.option_specs}
    assert names == {
        "direction", "target", "lock_at", "deal_packets", "maschine", "three_player_trump_chooser",
        "open_schlag_must_be_held", "schlagtausch", "lead_follows_schlag_role", "ansage_order",
        "rechte_exempt", "linke_may_follow_trump", "guate_lead_is_trump_lead", "zugeben_scope",
        "guate_when_weli_schlag", "last_trick_rule", "last_trick_bluff", "raise_cap", "tyrolean_gestrichen",
        "four_points_rule", "four_points_decision", "four_points_refusal_value", "four_points_raising",
        "first_trick_display"}
    assert stich.game("watten", variant="blind").options.ansage_order == "schlag_first"
    assert stich.game("watten", variant="blind").options.last_trick_rule == "ansager"
    assert stich.game("watten", variant="bavarian_2").options.target == 11
    assert stich.game("watten", variant="bavarian_4").deck.name == "german32"


def test_schlagtausch_swaps_roles_forehand_still_leads():
    s = position("euregio", {1: "H-8 L-7 E-A", 4: "L-A L-9 E-7"})
    act(s, "1:ask_swap 4:agree_swap")
    assert seat(s) == 4 and "ask_swap" not in s.legal_actions()
    act(s, "4:show L-9 1:show H-8")     # the dealer names the Schlag (9), forehand the suit (H)
    assert s.view(0)["schlag"] == "9" and s.view(0)["trump"] == "H"
    assert seat(s) == 1                  # R7: forehand still leads


def test_schlagtausch_lead_follows_role_option():
    s = position("euregio", {1: "H-8 L-7 E-A", 4: "L-A L-9 E-7"}, lead_follows_schlag_role="true")
    act(s, "1:ask_swap 4:agree_swap 4:show L-9 1:show H-8")
    assert seat(s) == 4


def test_swap_refused_and_off():
    s = position("euregio", {1: "H-8"})
    act(s, "1:ask_swap 4:refuse_swap")
    assert seat(s) == 1 and "ask_swap" not in s.legal_actions()
    s = position("euregio", {1: "H-8"}, schlagtausch="off")
    assert "ask_swap" not in s.legal_actions()


def test_simultaneous_commit_is_private():
    s = position("euregio", {1: "H-8 L-7 E-A", 4: "L-A L-9 E-7"})
    act(s, "1:show H-8")
    assert seat(s) == 4
    assert not [e for e in s.view(3)["events"] if e["type"] == "show"]   # not yet revealed
    act(s, "4:show L-A")
    shown = {e["card"] for e in s.view(3)["events"] if e["type"] in ("show",)}
    assert shown == {"LA"} and s.view(3)["schlag"] == "8"


def test_simultaneous_reveal_lists_both_cards_for_both_ansager():
    s = position("euregio", {1: "H-8 L-7 E-A", 4: "L-A L-9 E-7"})
    act(s, "1:show H-8 4:show L-A")
    expected = [{"seat": 0, "card": "H8", "role": "schlag"}, {"seat": 3, "card": "LA", "role": "trump"}]
    for ansager in (0, 3):
        assert sorted(s.view(ansager)["shown"], key=lambda sh: sh["seat"]) == expected
    assert s.view(1)["shown"] == [] and s.view(None)["shown"] == []   # the others saw nothing


def test_an_exchange_voids_what_was_shown_and_the_roles():
    s = position("blind", {1: "H-8 L-7 E-A", 4: "L-A L-9 E-7"}, ansage_order="trump_first")
    act(s, "4:show L-A")
    assert s.view(0)["shown"] == [{"seat": 3, "card": "LA", "role": "trump"}]
    act(s, "1:ask_exchange 4:agree_exchange")
    for ansager in (0, 3):
        v = s.view(ansager)
        assert v["shown"] == [] and (v["schlag_seat"], v["trump_seat"]) == (0, 3)


@pytest.mark.parametrize("order, first", [("schlag_first", 1), ("trump_first", 4)])
def test_euregio_ansage_orders(order, first):
    s = position("euregio", {1: "H-8", 4: "L-A"}, ansage_order=order)
    assert seat(s) == first
    act(s, f"{first}:show {'H-8' if first == 1 else 'L-A'}")
    other = 4 if first == 1 else 1
    assert [e["card"] for e in s.view(other - 1)["events"] if e["type"] == "show"]


def test_three_player_dealer_names_trump():
    s = position("bavarian_3", {}, dealer=1, three_player_trump_chooser="dealer")
    act(s, "2:schlag 8")
    assert seat(s) == 1 and "trump" in legal_verbs(s)


def test_anticlockwise():
    s = position("tyrolean", {3: "H-8"}, dealer=4, direction="anticlockwise")
    assert seat(s) == 3     # forehand = the player after the dealer in playing order
    act(s, "3:schlag 8 4:trump H")
    assert seat(s) == 3
    s.apply(s.legal_actions()[0])
    assert seat(s) == 2


def test_open_schlag_must_be_held():
    s = position("tyrolean", {1: "H-8 H-9 E-9 L-9 S-9"}, open_schlag_must_be_held="true")
    assert {a.arg for a in s.legal_actions() if a.verb == "schlag"} == {"8", "9"}


def test_zugeben_first_trick_only():
    s = position("euregio", {1: "L-A L-K", 4: "S-9 L-7 L-8 H-9 E-9"}, zugeben_scope="first_trick",
                 avoid="L K")
    act(s, "1:show L-K 4:show L-7")   # Schlag K, trump L: Guate L-A, Rechte L-K
    act(s, "1:play L-A")
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    assert legal_cards(s) == {"L7", "L8"}          # first trick: bound
    act(s, "4:play L-7 1:play L-K")                 # seat 1 wins with the Guate, leads the Rechte
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])
    assert "S9" in legal_cards(s)                   # only trick 1 is bound


def test_linke_may_not_follow_when_off():
    s = position("tyrolean", {1: "H-7", 2: "H-A E-9 S-K"}, avoid="H 9", linke_may_follow_trump="false")
    act(s, "1:schlag 9 4:trump H 1:play H-7")
    assert legal_cards(s) == {"HA"}


def test_guate_lead_not_trump_lead_option():
    s = position("guate", {1: "H-O", 2: "H-A E-K"}, avoid="H U", guate_lead_is_trump_lead="false")
    act(s, "1:schlag U 4:trump H 1:play H-O")
    assert "EK" in legal_cards(s)
    s = position("guate", {1: "H-O", 2: "H-A E-K"}, avoid="H U")
    act(s, "1:schlag U 4:trump H 1:play H-O")
    assert legal_cards(s) == {"HA"}


@pytest.mark.parametrize("opt, winner", [("none", 4), ("trump7", 3)])
def test_guate_when_weli_schlag(opt, winner):
    s = position("guate", {1: "L-A", 2: "W", 3: "L-7", 4: "E-A"}, avoid="L", guate_when_weli_schlag=opt)
    act(s, "1:schlag 6 4:trump L 1:play L-A 2:play W 3:play L-7 4:play E-A")
    assert winners(s) == [2 if opt == "none" else 3]


def test_raise_cap_points_needed():
    s = position("euregio", {}, scores=[14, 3], raise_cap="points_needed")
    s.apply([a for a in s.legal_actions() if a.verb == "show"][0])
    s.apply([a for a in s.legal_actions() if a.verb == "show"][0])
    act(s, "1:raise 2:accept")     # 14 + 2 < 18: allowed; now stake 3
    s.apply(next(a for a in s.legal_actions() if a.verb == "play"))
    act(s, "2:raise 3:accept")     # stake 4
    s.apply(next(a for a in s.legal_actions() if a.verb == "play"))
    assert seat(s) == 3 and not can_raise(s)       # 14 + 4 >= 18


def test_four_points_trailing_may_raise():
    s = position("euregio", {}, scores=[16, 10], four_points_raising="trailing_may_raise")
    for _ in range(2):
        s.apply([a for a in s.legal_actions() if a.verb == "show"][0])
    act(s, "1:hold")
    assert not can_raise(s)         # the struck side stays locked
    s.apply(next(a for a in s.legal_actions() if a.verb == "play"))
    assert can_raise(s)
    act(s, "2:raise 3:accept")
    assert s.view(0)["stake"] == 5


@pytest.mark.parametrize("scores, decision", [([13, 5], True), ([13, 14], False), ([5, 5], False)])
def test_tyrolean_gestrichen(scores, decision):
    s = position("tyrolean", {}, scores=scores, tyrolean_gestrichen="on")
    act(s, "1:schlag 8 4:trump H")
    if decision:
        assert seat(s) == 1 and legal_verbs(s) == {"hold", "concede"}
        c = s.clone()
        act(c, "1:concede")
        assert c.scores == [13, 7]
        act(s, "1:hold")
        assert s.view(0)["stake"] == 3 and not can_raise(s)
    elif scores == [13, 14]:
        assert "hold" not in legal_verbs(s) and not can_raise(s)
    else:
        assert can_raise(s)


def test_deal_packets_two_three():
    g = stich.game("watten", variant="tyrolean", deal_packets="2+3")
    pack = list(g.deck.codes)
    s = g.new_state(pack=pack)
    s.apply("3:cut 4")
    new = pack[4:] + pack[:4]
    assert sorted(s.view(0)["hand"]) == sorted(new[0:2] + new[8:11])


def test_hand_summary_and_returns():
    s = position("bavarian_4", {}, scores=[9, 9])
    act(s, "1:schlag 8 4:trump L")
    summ = s.hand_summary()
    assert summ["schlag"] == "8" and summ["trump"] == "L" and summ["stake"] == 2 and summ["dealer"] == 3
    assert s.returns() == [0.0] * 4
    while not s.is_terminal():
        s.apply(next(a for a in s.legal_actions() if a.verb == "play"))
    assert sorted(s.returns()) == [-1, -1, 1, 1] and "result" in s.hand_summary()


def test_illegal_reasons():
    s = position("euregio", {1: "H-8"})
    with pytest.raises(stich.IllegalActionError, match="only show a card you hold"):
        s.apply("1:show L-A" if "LA" not in s.view(0)["hand"] else "1:show S6")


def test_four_points_decider_who_leads_after_a_swap():
    # Dealer seat 4 (B) struck and 4 ahead; after a swap the dealer names the Schlag, so B's
    # Ansager chose the Schlag: B decides before the opening lead (E.11).
    s = position("euregio", {1: "H-8 L-7", 4: "L-A L-9"}, scores=[10, 16])
    act(s, "1:ask_swap 4:agree_swap 4:show L-9 1:show H-8")
    # E.5: the exchange window stays open until the decision is taken
    assert seat(s) == 4 and legal_verbs(s) == {"hold", "concede", "ask_exchange"}
    # Forehand (A) struck, after a swap forehand chose the trump and leads: he decides at once.
    s = position("euregio", {1: "H-8 L-7", 4: "L-A L-9"}, scores=[16, 10])
    act(s, "1:ask_swap 4:agree_swap 4:show L-9 1:show H-8")
    assert seat(s) == 1 and legal_verbs(s) == {"hold", "concede", "ask_exchange"}


def test_blind_trump_first_exchange_restarts_with_the_dealer():
    s = position("blind", {1: "H-8", 4: "L-A"}, ansage_order="trump_first")
    act(s, "4:show L-A 1:ask_exchange 4:agree_exchange")
    assert seat(s) == 4 and "show" in legal_verbs(s)


def test_four_points_no_raise_before_the_decision_says_why():
    # E.11, PR-W11: the dealer's side decides just before the dealer's first card; until then the
    # trailing side, who may raise the held hand, may not raise - and the refusal says so.
    s = position("euregio", {}, scores=[16, 10], dealer=3, four_points_raising="trailing_may_raise")
    for _ in range(2):
        s.apply([a for a in s.legal_actions() if a.verb == "show"][0])
    assert seat(s) == 4 and not can_raise(s)
    with pytest.raises(Exception, match=r"nobody raises before the struck side has decided to hold \(E.11, PR-W11\)"):
        act(s, "4:raise")
