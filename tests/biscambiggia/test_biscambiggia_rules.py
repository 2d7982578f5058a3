"""Options (B5.1), set-up validation, errors, views and the match of Biscambiggia chiamata."""

from __future__ import annotations

import json
import random

import pytest
from biscambiggia_support import DEALER, A, B, C, D, E, game, play_auction, random_playout

import stich
from stich import IllegalActionError, MalformedActionError, OptionError, SetupError
from stich.rulesets.biscambiggia.rules import DECK, card_points, rank_values, trick_winner

DEFAULTS = {
    "ranking": "biscambiggia", "follow_suit": False, "opening_bid_compulsory": True,
    "min_opening_bid": 61, "max_bid": 120, "allow_call_own_card": True, "cappotto_double": False,
    "hands_per_match": 10, "tie_break": "shared", "piles_inspectable": False,
}


def sorted_hands():
    """A deal where seat k holds the cards 8k .. 8k+7 of the deck order (H2..HA, D2..DA, ...):
    seat 0 H2..HQ, seat 1 HK HA D2..D7, seat 2 DJ..DA C2..C5, seat 3 C6..CA S2, seat 4 S3..SA."""
    return [list(DECK.codes[8 * k: 8 * k + 8]) for k in range(5)]


def test_registry_and_options():
    g = stich.game("biscambiggia")
    assert "biscambiggia" in stich.games()
    assert g.num_players == 5 and g.variants == ("standard",)
    assert dict(g.options) == DEFAULTS
    assert [s.name for s in g.option_specs] == list(DEFAULTS)
    assert stich.game("biscambiggia", follow_suit="true").options.follow_suit is True
    assert "default rules" in g.rules_summary()
    with pytest.raises(OptionError):
        stich.game("biscambiggia", ranking="tarot")
    with pytest.raises(OptionError):
        stich.game("biscambiggia", hands_per_match=0)
    with pytest.raises(OptionError, match=r"min_opening_bid=100 and max_bid=90 contradict each other: "
                                          r"min_opening_bid must be at most max_bid \(BB-3.3\)"):
        stich.game("biscambiggia", min_opening_bid=100, max_bid=90)
    with pytest.raises(OptionError):
        stich.game("biscambiggia", variant="six_players")


def test_setup_validation():
    g = game()
    good = sorted_hands()
    g.new_state(hands=good, dealer=0)
    with pytest.raises(SetupError, match="exactly 8"):
        g.new_state(hands=[good[0][:7]] + good[1:], dealer=0)
    with pytest.raises(SetupError, match="dealt twice"):
        g.new_state(hands=[good[0], good[0]] + good[2:], dealer=0)
    with pytest.raises(SetupError, match="not a card"):
        g.new_state(hands=[["X9"] + good[0][1:]] + good[1:], dealer=0)
    with pytest.raises(SetupError, match="5 lists"):
        g.new_state(hands=good[:4], dealer=0)
    with pytest.raises(SetupError, match="no stock"):
        g.new_state(hands=good, stock=["H2"], dealer=0)
    with pytest.raises(SetupError, match="zero-sum"):
        g.new_state(hands=good, dealer=0, scores=[1, 0, 0, 0, 0])
    with pytest.raises(SetupError, match="5 whole numbers"):
        g.new_state(hands=good, dealer=0, scores=[0, 0])
    with pytest.raises(SetupError):
        g.new_state(hands=good, dealer=5)
    with pytest.raises(SetupError, match="no set-up field"):
        g.new_state(hands=good, dealer=0, trump="H")


def test_seat_convention_and_dealer_rotation():
    s = game(hands_per_match=3).new_state(seed=8, dealer=2)
    assert s.current_player == 3                       # A = dealer + 1 opens the auction
    dealers = []
    rng = random.Random(8)
    while not s.is_terminal():
        if not dealers or dealers[-1] != s.hand_summary()["dealer"]:
            dealers.append(s.hand_summary()["dealer"])
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    assert dealers == [2, 3, 4]                        # BB-2.1: the deal passes to the right
    assert s.hand_number == 3


def test_first_dealer_is_random_from_seed():
    dealers = {game().new_state(seed=k).hand_summary()["dealer"] for k in range(30)}
    assert dealers == {0, 1, 2, 3, 4}
    assert game().new_state(seed=7).hand_summary() == game().new_state(seed=7).hand_summary()


def test_malformed_and_phase_errors():
    s = game().new_state(seed=1, dealer=DEALER)
    with pytest.raises(MalformedActionError):
        s.apply("bid lots")
    with pytest.raises(MalformedActionError):
        s.apply("double")
    with pytest.raises(IllegalActionError, match="after the auction"):
        s.apply("play " + s.view(A)["hand"][0])
    with pytest.raises(IllegalActionError, match="only the winner of the auction"):
        s.apply("call HA")
    play_auction(s, ["A bid 61", "B pass", "C pass", "D pass", "E pass"])
    with pytest.raises(IllegalActionError, match="the auction is over"):
        s.apply("bid 70")
    s.apply("call HA")
    with pytest.raises(IllegalActionError, match="not in your hand"):
        other = s.view(B)["hand"][0]
        s.apply(f"play {other}")


def test_allow_call_own_card_false():
    hands = sorted_hands()                 # A (seat 0) holds H2..HJ
    s = game(allow_call_own_card=False).new_state(hands=hands, dealer=DEALER)
    play_auction(s, ["A bid 61", "B pass", "C pass", "D pass", "E pass"])
    legal = s.legal_actions()
    assert len(legal) == 32 and "call H2" not in legal
    with pytest.raises(IllegalActionError, match="you hold H2"):
        s.apply("call H2")
    s.apply("call SA")


def test_follow_suit_option():
    hands = sorted_hands()                 # seat 0 holds H2..HQ, seat 1 HK HA D2..D7
    for follow, n in ((True, 2), (False, 8)):
        s = game(follow_suit=follow).new_state(hands=hands, dealer=DEALER)
        play_auction(s, ["A bid 61", "B pass", "C pass", "D pass", "E pass", "A call SA"])
        s.apply("play H2")
        assert len(s.legal_actions()) == n
        if follow:
            with pytest.raises(IllegalActionError, match="must follow suit"):
                s.apply("play D2")
        s.apply("play HA")
        assert len(s.legal_actions()) == 8     # seat 2 has no heart: any card


def test_min_opening_and_max_bid_options():
    s = game(min_opening_bid=70, max_bid=80).new_state(seed=1, dealer=DEALER)
    assert [str(a) for a in s.legal_actions()] == [f"bid {n}" for n in range(70, 81)]
    s.apply("bid 80")
    assert s.legal_actions() == ["pass"]


def test_briscola_ranking_option():
    values, pts = rank_values("briscola"), card_points("briscola")
    cards = [DECK.parse(c) for c in ("7S", "3S", "KS", "AH", "2S")]
    assert trick_winner(cards[:3], DECK.suit_codes.index("H"), values) == 1   # 3 beats 7 and K
    assert pts[DECK.parse("3S")] == 10 and pts[DECK.parse("7S")] == 0
    biscambiggia = rank_values("biscambiggia")
    assert trick_winner(cards[:3], DECK.suit_codes.index("H"), biscambiggia) == 0


def test_cappotto_double():
    # A holds the eight best hearts and calls H3 (held by B): A leads trumps and takes all 120.
    for option, expect in ((True, [4, 2, -2, -2, -2]), (False, [2, 1, -1, -1, -1])):
        hands = [["HA", "H7", "HK", "HQ", "HJ", "H6", "H5", "H4"],
                 ["SA", "S7", "DA", "D7", "CA", "C7", "H3", "H2"],
                 ["SK", "SQ", "SJ", "S6", "S5", "S4", "S3", "S2"],
                 ["DK", "DQ", "DJ", "D6", "D5", "D4", "D3", "D2"],
                 ["CK", "CQ", "CJ", "C6", "C5", "C4", "C3", "C2"]]
        s = game(cappotto_double=option).new_state(hands=hands, dealer=DEALER)
        play_auction(s, ["A bid 61", "B pass", "C pass", "D pass", "E pass", "A call H3"])
        while s.hand_number == 1:
            hand = s.view(s.current_player)["hand"]
            s.apply("play " + max(hand, key=lambda c: (c[0] == "H", card_points("biscambiggia")[DECK.parse(c)])))
        res = s.view(None)["last_result"]
        assert res["team_points"] == 120 and res["cappotto"] is option
        assert res["marche"] == expect and sum(res["marche"]) == 0


def test_piles_inspectable():
    for flag in (False, True):
        s = game(piles_inspectable=flag).new_state(seed=2, dealer=DEALER)
        random_playout(s, random.Random(2), stop=lambda st: st.view(None)["tricks"])
        v = s.view(C)
        assert ("piles" in v) is flag
        if flag:
            w = v["tricks"][0]["winner"]
            assert sorted(v["piles"][w]) == sorted(x["card"] for x in v["tricks"][0]["cards"])


def test_match_end_returns_and_tie_break():
    seen_tie = seen_extra = False
    for seed in range(40):
        for tb in ("shared", "extra_rounds"):
            s = game(hands_per_match=1, tie_break=tb).new_state(seed=seed)
            assert s.returns() == [0.0] * 5
            random_playout(s, random.Random(seed))
            r = s.returns()
            assert sum(r) == 0 and r == [float(x) for x in s.scores]
            winners = s.view(None)["winners"]
            assert winners == [k for k in range(5) if r[k] == max(r)]
            if tb == "shared":
                seen_tie |= len(winners) > 1
                assert s.hand_number == 1
            else:
                assert len(winners) == 1 and (s.hand_number - 1) % 5 == 0
                seen_extra |= s.hand_number > 1
    assert seen_tie and seen_extra


def test_views_are_informative():
    s = game().new_state(seed=3, dealer=DEALER)
    v = s.view(A)
    assert v["phase"] == "auction" and len(v["hand"]) == 8 and v["legal_actions"][0] == "bid 61"
    assert v["scores"] == [0] * 5 and v["dealer"] == DEALER and v["hand_number"] == 1
    assert s.view(None)["hand"] == [] and "legal_actions" not in s.view(B)
    play_auction(s, ["A bid 61", "B bid 63", "C pass"])
    assert s.view(E)["auction"] == [{"seat": A, "bid": 61}, {"seat": B, "bid": 63}, {"seat": C, "pass": True}]
    summary = s.hand_summary()
    assert summary["high_bid"] == 63 and summary["high_bidder"] == B and summary["phase"] == "auction"
    assert s.current_player == D
    assert json.loads(json.dumps(s.view(D))) == s.view(D)


def test_record_replay_clone():
    s = game(hands_per_match=2).new_state(seed=12)
    random_playout(s, random.Random(5), stop=lambda st: st.hand_number == 2 and st.phase == "play")
    c = s.clone()
    r = stich.replay(s.record())
    assert r.record() == s.record() and r.view(2) == s.view(2)
    random_playout(c, random.Random(6))
    assert not s.is_terminal() and s.record() == r.record()
    hands = sorted_hands()
    t = game().new_state(hands=hands, dealer=1, scores=[1, 1, -2, 0, 0])
    random_playout(t, random.Random(1))
    again = stich.replay(json.loads(json.dumps(t.record())))
    assert again.returns() == t.returns() and again.record() == t.record()
    seat_record = t.record(seat=3)
    assert all(ev["type"] != "deal" or ev["seat"] == 3 for ev in seat_record["events"])
