"""The worked examples of rules/biscambiggia.md §B5 (AB1-AB18), through the public API."""

from __future__ import annotations

import pytest
from biscambiggia_support import (
    DEALER,
    A,
    B,
    C,
    D,
    E,
    game,
    hands_from_tricks,
    play_auction,
    play_tricks,
)

from stich import IllegalActionError
from stich.rulesets.biscambiggia.rules import DECK, card_points, deal_positions, marche, rank_values, trick_winner

# --------------------------------------------------------------------------- the AB12 deal
# Caller B (contract 70 from AB1) calls 7H, held by D.  B's pile: AH 7H KS QD JC (trick 1) and
# 5C 3D 2S AC 7D (trick 2) = 51; D's pile: KH QH AS 6D 4C (trick 3) = 18; E trumps the rest.
AB12_TRICKS = [
    ["SK", "HA", "DQ", "H7", "CJ"],   # A leads; B's HA is the highest trump; D plays the called H7
    ["CA", "C5", "D3", "S2", "D7"],   # B leads clubs, nobody trumps: CA
    ["SA", "HQ", "HK", "D6", "C4"],   # B leads; C's HQ and D's HK are trumps: HK (D)
    ["C7", "HJ", "S3", "DA", "S4"],   # D leads; E trumps
    ["H6", "S5", "DK", "S6", "CQ"],   # E leads trumps from here on
    ["H5", "S7", "DJ", "SJ", "CK"],
    ["H4", "SQ", "D5", "D2", "C6"],
    ["H3", "H2", "D4", "C2", "C3"],
]
AB1_LOG = ["A bid 61", "B bid 62", "C pass", "D bid 65", "E pass", "A bid 66", "B bid 70", "D pass", "A pass"]


def ab12_state(tricks=AB12_TRICKS, **options):
    hands, winners = hands_from_tricks(tricks, "H")
    assert winners == [B, B, D, E, E, E, E, E]
    return game(**options).new_state(hands=hands, dealer=DEALER), hands


def test_ab1_source_auction_example():
    s, _ = ab12_state()
    seats = []
    for line in AB1_LOG:
        seats.append(s.current_player)
        play_auction(s, [line])
    # C is skipped after passing (B4-5): after B's 70 comes D, then (E skipped) A.
    assert seats == [A, B, C, D, E, A, B, D, A]
    assert s.current_player == B
    assert s.legal_actions()[0] == "call H2" and len(s.legal_actions()) == 40
    v = s.view(C)
    assert v["contract"] == {"caller": B, "bid": 70}
    assert v["high_bid"] == 70 and v["high_bidder"] == B
    s.apply("call 7H")                      # the rules' rank+suit spelling is accepted
    v = s.view(A)
    assert v["called_card"] == "H7" and v["trump"] == "H"
    assert v["traitor_public"] == "unknown"
    assert s.view(D)["role"] == "traitor" and s.view(D)["partner"] == B
    assert s.view(B)["role"] == "caller" and "partner" not in s.view(B)
    assert s.current_player == A           # BB-5.1: A leads, whoever the caller is


def test_ab2_compulsory_opening_bid_stands():
    s = game().new_state(seed=3, dealer=DEALER)
    play_auction(s, ["A bid 61", "B pass", "C pass", "D pass", "E pass"])
    assert s.view(None)["contract"] == {"caller": A, "bid": 61}
    assert s.current_player == A and s.legal_actions()[0].verb == "call"


def test_ab3_optional_opening_and_throw_in():
    g = game(opening_bid_compulsory=False)
    s = g.new_state(seed=5, dealer=DEALER)
    assert "pass" in s.legal_actions()
    play_auction(s, ["A pass", "B pass", "C pass", "D pass", "E bid 61"])
    assert s.view(None)["contract"] == {"caller": E, "bid": 61}

    s = g.new_state(seed=5, dealer=DEALER, scores=[1, -1, 0, 2, -2])
    play_auction(s, ["A pass", "B pass", "C pass", "D pass"])
    assert s.legal_actions()[-1] == "pass" and s.legal_actions()[0] == "bid 61"   # BB-3.8: E may still bid
    s.apply("pass")
    assert s.hand_number == 1                                 # the thrown-in deal does not count
    assert s.hand_summary()["dealer"] == A                    # the next deal is by A (E's right)
    assert s.hand_summary()["deal"] == 2
    assert s.scores == [1, -1, 0, 2, -2]                      # no marche change
    assert s.current_player == B                              # the new A is seat 1
    assert s.view(C)["last_result"] == {"hand": 1, "thrown_in": True} == s.hand_summary()["last_result"]


def test_ab4_illegal_auction_actions():
    s = game().new_state(seed=1, dealer=DEALER)
    with pytest.raises(IllegalActionError, match="must open the auction with a bid"):
        s.apply("pass")
    with pytest.raises(IllegalActionError, match="at least 61"):
        s.apply("bid 60")
    with pytest.raises(IllegalActionError, match="highest possible bid is 120"):
        s.apply("bid 121")
    play_auction(s, ["A bid 61", "B pass", "C bid 66"])
    with pytest.raises(IllegalActionError, match="a bid must be higher than 66"):
        s.apply("bid 66")
    with pytest.raises(IllegalActionError, match="seat 2 is not to act"):
        s.apply("2:bid 70")                                   # B has passed: he is not asked again
    s.apply("bid 67")
    play_auction(s, ["E pass", "A pass", "C pass"])           # B skipped; D's 67 stands
    assert s.view(None)["contract"] == {"caller": D, "bid": 67}


def test_ab4_bid_120_leaves_only_pass():
    s = game().new_state(seed=2, dealer=DEALER)
    s.apply("bid 120")
    assert s.legal_actions() == ["pass"]


def test_ab5_and_ab14_calling_in_hand():
    # C holds AS and calls it: alone against the other four, trump spades.  C takes 61 points.
    tricks = [
        ["H7", "HK", "HA", "HQ", "HJ"],   # A leads; C's HA wins 30
        ["SA", "C7", "CK", "CQ", "DQ"],   # C leads the called AS (trump): 31 -> 61
        ["H2", "S7", "D2", "D3", "H3"],   # D trumps everything from here on
        ["SK", "D4", "D5", "H4", "H5"],
        ["SQ", "D6", "DA", "C3", "H6"],
        ["SJ", "D7", "DK", "C4", "S2"],
        ["S6", "DJ", "CA", "C5", "S3"],
        ["S5", "C2", "CJ", "C6", "S4"],
    ]
    hands, winners = hands_from_tricks(tricks, "S")
    assert winners == [C, C, D, D, D, D, D, D]
    for taken_swap, expect in ((False, [-1, -1, 4, -1, -1]), (True, [1, 1, -4, 1, 1])):
        h = [list(x) for x in hands]
        t = [list(x) for x in tricks]
        if taken_swap:        # C's second trick gets DJ (2) instead of DQ (3): 60 points, one short
            h[B][h[B].index("DQ")] = "DJ"
            h[E][h[E].index("DJ")] = "DQ"
            t[1][4], t[6][1] = "DJ", "DQ"
        s = game(opening_bid_compulsory=False).new_state(hands=h, dealer=DEALER)
        play_auction(s, ["A pass", "B pass", "C bid 61", "D pass", "E pass", "C call AS"])
        assert s.view(C)["role"] == "caller_alone" and s.view(C)["alone"] is True
        for seat in (A, B, D, E, None):
            v = s.view(seat)
            assert v["traitor_public"] == "unknown" and "alone" not in v and "partner" not in v
        play_tricks(s, t[:1])
        s.apply("play SA")
        for seat in (A, B, D, E, None):
            v = s.view(seat)
            assert v["traitor_public"] is None          # BB-4.6: the caller played it: alone
            assert v["teams"] == {"caller_side": [C], "opponents": [A, B, D, E]}
        for card in t[1][1:]:
            s.apply(f"play {card}")
        play_tricks(s, t[2:])
        res = s.view(A)["last_result"]
        assert res["alone"] is True and res["traitor"] is None
        assert res["team_points"] == (60 if taken_swap else 61)
        assert res["marche"] == expect and s.scores == expect


def test_ab5_caller_at_64():
    s = game().new_state(seed=11, dealer=DEALER)
    play_auction(s, ["A bid 61", "B pass", "C bid 64", "D pass", "E pass", "A pass"])
    assert s.view(None)["contract"] == {"caller": C, "bid": 64}
    assert s.current_player == C


@pytest.mark.parametrize("trick, winner, points", [
    (["5S", "KS", "2H", "AS", "7H"], 4, 25),     # AB6: the highest trump, 7 > 2
    (["6C", "KD", "AS", "7C", "2C"], 3, 25),     # AB7: only clubs can win
    (["3D", "2D", "QD", "JC", "4D"], 2, 5),      # AB8
    (["KH", "QS", "7H", "AH", "2H"], 3, None),   # AB9
    (["AS", "7S", "KS", "QS", "JS"], 0, 30),     # AB10: the leader, no trump
])
def test_ab6_to_ab10_tricks(trick, winner, points):
    values = rank_values("biscambiggia")
    cards = [DECK.parse(c) for c in trick]
    assert trick_winner(cards, DECK.suit_codes.index("H"), values) == winner
    pts = card_points("biscambiggia")
    if points is not None:
        assert sum(pts[c] for c in cards) == points
    # The same trick through the API: A leads, trump H called by A.
    rest = [c for c in DECK.codes if c not in {DECK.code(x) for x in cards}]
    hands = [[DECK.code(cards[i])] + rest[7 * i: 7 * i + 7] for i in range(5)]
    s = game().new_state(hands=hands, dealer=DEALER)
    play_auction(s, ["A bid 61", "B pass", "C pass", "D pass", "E pass", "A call HA"])
    for c in trick:
        s.apply(f"play {c}")
    v = s.view(None)
    assert v["tricks"][0]["winner"] == winner
    assert sum(v["points_taken"]) == sum(pts[c] for c in cards)
    assert s.current_player == winner


def test_ab11_no_follow_obligation():
    s, hands = ab12_state()
    play_auction(s, AB1_LOG + ["B call 7H"])
    s.apply("play SK")                         # spades led; B holds AS and may still play anything
    assert sorted(map(str, s.legal_actions())) == sorted(f"play {c}" for c in hands[B])
    assert "play HA" in s.legal_actions()


def test_ab12_failure_by_one_point_and_ab16_identity():
    s, _ = ab12_state()
    play_auction(s, AB1_LOG + ["B call 7H"])
    s.apply("play SK")
    s.apply("play HA")
    s.apply("play DQ")
    for seat in (A, B, C, E, None):            # AB16: only D knows, the caller B does not
        v = s.view(seat)
        assert v["traitor_public"] == "unknown" and "partner" not in v and v["teams"] is None
        assert all(ev["type"] != "partner" for ev in v["events"])
    assert s.view(D)["partner"] == B and s.view(D)["traitor_public"] == "unknown"
    s.apply("play 7H")                         # D plays the called card: the teams are public
    for seat in range(5):
        v = s.view(seat)
        assert v["traitor_public"] == D
        assert v["teams"] == {"caller_side": [B, D], "opponents": [A, C, E]}
    assert s.view(B)["partner"] == D
    assert s.hand_summary()["traitor_public"] == D
    s.apply("play JC")
    play_tricks(s, AB12_TRICKS[1:])
    res = s.view(C)["last_result"]
    assert res["points_taken"] == [0, 51, 0, 18, 51]
    assert (res["team_points"], res["opponents_points"], res["success"]) == (69, 51, False)
    assert res["marche"] == [1, -2, 1, -1, 1] == s.scores        # B -2, D -1, A/C/E +1
    assert s.hand_number == 2 and s.hand_summary()["dealer"] == A   # BB-6.4


def test_ab13_success_at_exactly_the_bid():
    # As AB12, but E gives QC (3) instead of JC (2) to B's first trick: the team has exactly 70.
    tricks = [list(t) for t in AB12_TRICKS]
    tricks[0][4], tricks[4][4] = "CQ", "CJ"
    s, _ = ab12_state(tricks)
    play_auction(s, AB1_LOG + ["B call H7"])
    play_tricks(s, tricks)
    res = s.view(None)["last_result"]
    assert (res["team_points"], res["success"]) == (70, True)
    assert s.scores == [-1, 2, -1, 1, -1]


def test_ab15_match_tally():
    totals = [0] * 5
    steps = [marche(B, D, True), marche(C, None, False), marche(E, A, False)]
    expected = [[-1, 2, -1, 1, -1], [0, 3, -5, 2, 0], [-1, 4, -4, 3, -2]]
    for delta, want in zip(steps, expected, strict=True):
        totals = [t + d for t, d in zip(totals, delta, strict=True)]
        assert totals == want and sum(totals) == 0
    # A match continued from those totals: the scores carry over, the leader is B.
    s = game(hands_per_match=1).new_state(seed=4, scores=totals)
    assert s.view(A)["scores"] == [-1, 4, -4, 3, -2]


def test_ab17_deal_positions():
    assert deal_positions(0) == (0, 1, 2, 3, 20, 21, 22, 23)
    assert deal_positions(4) == (16, 17, 18, 19, 36, 37, 38, 39)
    # The engine deals a seeded hand exactly so: A (dealer's right) first, dealer last.
    s = game().new_state(seed=99, dealer=2)
    cards = s.shuffled(40, "deal", 1)
    for rel in range(5):
        seat = (2 + 1 + rel) % 5
        assert s.hands[seat] == sum(1 << cards[p] for p in deal_positions(rel))


def test_ab18_total_points():
    assert sum(card_points("biscambiggia")) == 120
    assert sum(card_points("briscola")) == 120


def test_ab16_traitor_revealed_in_trick_5():
    tricks = [list(t) for t in AB12_TRICKS]
    tricks[0][3], tricks[4][4] = "CQ", "H7"        # D keeps the called 7H until trick 5
    hands, winners = hands_from_tricks(tricks, "H")
    assert winners[4] == D
    s = game().new_state(hands=hands, dealer=DEALER)
    play_auction(s, AB1_LOG + ["B call 7H"])
    play_tricks(s, tricks[:4])
    for card in tricks[4][:4]:
        s.apply(f"play {card}")
    assert [s.view(k)["traitor_public"] for k in (A, B, C, D, E, None)] == ["unknown"] * 6
    assert s.current_player == D
    s.apply("play H7")
    assert [s.view(k)["traitor_public"] for k in (A, B, C, D, E, None)] == [D] * 6
    assert s.view(B)["partner"] == D
    play_tricks(s, tricks[5:])
    assert s.hand_number == 2 and sum(s.scores) == 0
