"""The worked examples of rules/barbu.md §6 (E1-E26) and §3.5, through the public API.

Where an example lists only a few cards of a hand, the other cards of the 13 are "fillers" chosen
so that they cannot change the answer (e.g. only hearts beside the example's cards when the point
is that hearts may not be led); the helpers in ``barbu_support`` say which.
"""

from __future__ import annotations

import random

import pytest
from barbu_support import (
    codes,
    deal_result,
    fill_hands,
    game,
    play,
    play_scripted,
    plays,
    random_playout,
    scripted_tricks,
    start,
    suits,
)

from stich import IllegalActionError
from stich.rulesets.barbu import rules as R


def _set(*cards):
    return set(codes(cards))


# --- trick-play legality (E1-E8) ----------------------------------------------------------------------
def test_e1_no_hearts_lead_restriction():
    # P1 to lead (P1 is the caller, so he leads the first trick); fillers are hearts.
    hands = fill_hands({1: ["AH", "7H", "3C"]}, {1: suits("H")})
    s = start("NO_HEARTS", hands, caller=1)
    assert plays(s) == _set("3C")
    with pytest.raises(IllegalActionError, match="may not lead a heart"):
        s.apply("play AH")
    # Same with hearts only: every heart may be led.
    hands = fill_hands({1: ["AH", "7H"]}, {1: suits("H")})
    s = start("NO_HEARTS", hands, caller=1)
    assert plays(s) == set(hands[1])


def test_e2_barbu_lead_and_discard():
    hands = fill_hands({0: ["KH", "2H", "5S"]}, {0: suits("H")})
    s = start("BARBU", hands)
    assert plays(s) == _set("5S")
    # Following a 9D lead, void in diamonds: any card (default), only the K♥ with forced_barbu.
    for forced, expected in ((False, None), (True, _set("KH"))):
        hands = fill_hands({0: ["9D"], 1: ["KH", "5S"]}, {1: suits("S", "C"), 0: suits("D", "S", "C")})
        s = start("BARBU", hands, forced_barbu=forced)
        play(s, ["9D"])
        assert plays(s) == (expected or set(hands[1]))


def test_e3_follow_suit():
    hands = fill_hands({0: ["9S"], 1: ["KS", "2S", "AH"]}, {1: suits("H", "D", "C")})
    s = start("NO_TRICKS", hands)
    play(s, ["9S"])
    assert plays(s) == _set("KS", "2S")
    with pytest.raises(IllegalActionError, match="you must follow suit: S2, SK"):
        s.apply("play AH")


def test_e4_no_trump_trick_winner():
    hands = fill_hands({0: ["TC"], 1: ["QC"], 2: ["AD"], 3: ["KC"]}, {2: suits("S", "H", "D")})
    s = start("NO_QUEENS", hands)
    play(s, ["TC", "QC", "AD", "KC"])
    v = s.view(None)
    assert v["tricks"][0]["winner"] == 3
    assert v["taken"][3]["cards"] == ["CQ"] and v["deal_points"] == [0, 0, 0, -6]


def test_e5_trumps_trump_led():
    hands = fill_hands({0: ["9S"], 1: ["JS", "3S", "AH"], 2: ["8S", "4S", "KD"], 3: ["2H", "AC"]},
                       {1: suits("H", "D", "C"), 2: suits("H", "D", "C"), 3: suits("H", "D", "C")})
    s = start("TRUMPS S", hands)
    play(s, ["9S"])
    assert plays(s) == _set("JS")
    with pytest.raises(IllegalActionError, match="higher trump"):
        s.apply("play 3S")
    play(s, ["JS"])
    assert plays(s) == _set("8S", "4S")
    play(s, ["8S"])
    assert plays(s) == set(hands[3])  # no trumps: any card
    play(s, ["2H"])
    assert s.view(None)["tricks"][0]["winner"] == 1


def test_e6_trumps_must_ruff():
    hands = fill_hands({0: ["5C"], 1: ["3H", "QH", "AD"]}, {1: suits("S", "D")})
    s = start("TRUMPS H", hands)
    play(s, ["5C"])
    assert plays(s) == _set("3H", "QH")
    # Option trumps_must_ruff=false: any card.
    s = start("TRUMPS H", hands, trumps_must_ruff=False)
    play(s, ["5C"])
    assert plays(s) == set(hands[1])


def test_e7_trumps_overtrump():
    fixed = {0: ["5C"], 1: ["TH"], 2: ["JH", "4H", "AS"], 3: ["9H", "KS"]}
    sd = suits("S", "D")
    hands = fill_hands(fixed, {2: sd, 3: sd, 1: suits("H", "S", "D")})
    s = start("TRUMPS H", hands)
    play(s, ["5C", "TH"])
    assert plays(s) == _set("JH")
    with pytest.raises(IllegalActionError, match="you must overtrump: HJ"):
        s.apply("play 4H")
    play(s, ["JH"])
    assert plays(s) == set(hands[3])  # cannot beat J♥: any card
    play(s, ["KS"])
    assert s.view(None)["tricks"][0]["winner"] == 2
    # Alternative P3 holding {2C, AH}: he can follow, so only 2C.
    hands = fill_hands({0: ["5C"], 1: ["TH"], 2: ["JH", "4H", "AS"], 3: ["2C", "AH"]},
                       {2: sd, 3: sd, 1: suits("H", "S", "D")})
    s = start("TRUMPS H", hands)
    play(s, ["5C", "TH", "JH"])
    assert plays(s) == _set("2C")


def test_e8_trump_led_cannot_beat():
    hands = fill_hands({0: ["KH"], 1: ["QH", "3H", "2C"]}, {1: suits("S", "D", "C")})
    s = start("TRUMPS H", hands)
    play(s, ["KH"])
    assert plays(s) == _set("QH", "3H")
    with pytest.raises(IllegalActionError, match="you must play a trump"):
        s.apply("play 2C")


# --- scoring (E9-E13) -----------------------------------------------------------------------------------
def test_e9_no_tricks_scoring():
    winners = [1, 1, 1, 1, 1, 0, 0, 0, 3, 3, 3, 3, 3]  # P0 3, P1 5, P2 0, P3 5 tricks
    tricks, hands = scripted_tricks(winners)
    s = start("NO_TRICKS", hands)
    play_scripted(s, tricks)
    assert deal_result(s)["raw"] == [-6, -10, 0, -10]


def test_e10_no_hearts_scoring():
    p = [0, R.DECK.mask(codes(["AH", "KH", "2H"])), R.DECK.mask(codes([f"{r}H" for r in "3456789"])),
         R.DECK.mask(codes(["TH", "JH", "QH"]))]
    assert R.raw_scores(R.NO_HEARTS, p, [0] * 4, []) == [0, -10, -14, -6]
    # Through the engine: a whole scripted deal agrees with the trick-by-trick view.
    winners = [0, 0, 0, 0, 1, 2, 3, 0, 1, 2, 3, 2, 1]
    tricks, hands = scripted_tricks(winners)
    s = start("NO_HEARTS", hands)
    play_scripted(s, tricks)
    # Hearts: H2 in trick 4 (P0), H3-H6 trick 11 (P3), H7-H10 trick 12 (P2), HJ-HA trick 13 (P1, A♥).
    assert deal_result(s)["raw"] == [-2, -12, -8, -8]


def test_e11_no_last_two_scoring():
    winners = [0, 0, 0, 0, 1, 2, 3, 0, 1, 2, 1, 3, 0]  # trick 12 P3, trick 13 P0
    tricks, hands = scripted_tricks(winners)
    s = start("NO_LAST_TWO", hands)
    play_scripted(s, tricks)
    assert deal_result(s)["raw"] == [-20, 0, 0, -10]
    winners[11] = winners[12] = 2
    tricks, hands = scripted_tricks(winners)
    s = start("NO_LAST_TWO", hands)
    play_scripted(s, tricks)
    assert deal_result(s)["raw"] == [0, 0, -30, 0]


def test_e12_no_queens_early_end():
    # Queens: S in trick 3 (P0), D in 7 (P1), C in 10 (P2), H in 13 (P2)... make the 4th fall in trick 9.
    tricks = [["SA", "S2", "S3", "SQ"],   # P0 leads, wins: takes SQ
              ["H2", "HQ", "HA", "H3"],   # P0 leads, P2 wins: takes HQ
              ["D2", "D3", "D4", "D5"],   # P2 leads, P1 wins (D5)
              ["C2", "C3", "C4", "C5"],   # P1 leads, P0 wins (C5)
              ["S4", "S5", "S6", "S7"],   # P0 leads, P3 wins
              ["D6", "D7", "DQ", "D8"],   # P3 leads, P1 wins: takes DQ
              ["H4", "H5", "H6", "H7"],   # P1 leads, P0 wins
              ["C6", "C7", "C8", "C9"],   # P0 leads, P3 wins
              ["TC", "QC", "JC", "KC"]]   # P3 leads, P2 wins: the fourth queen
    seats = [0, 0, 2, 1, 0, 3, 1, 0, 3]
    fixed = {p: [] for p in range(4)}
    for lead, trick in zip(seats, tricks, strict=True):
        for i, c in enumerate(trick):
            fixed[(lead + i) % 4].append(c)
    hands = fill_hands(fixed)
    s = start("NO_QUEENS", hands)
    for trick in tricks:
        play(s, trick)
    result = deal_result(s)
    assert result["raw"] == [-6, -6, -12, 0]
    assert s.hand_number == 2  # tricks 10-13 were not played
    assert len([ev for _a, ev in s.events if ev["type"] == "trick"]) == 9


def test_e13_barbu_early_end():
    tricks = [["S2", "S3", "S4", "S5"],   # P0 leads, P3 wins
              ["D2", "D3", "D4", "D5"],   # P3 leads, P2 wins
              ["C2", "C3", "C4", "C5"],   # P2 leads, P1 wins
              ["SA", "S6", "KH", "S7"]]   # P1 leads, P3 discards the K♥, P1 wins
    seats = [0, 3, 2, 1]
    fixed = {p: [] for p in range(4)}
    for lead, trick in zip(seats, tricks, strict=True):
        for i, c in enumerate(trick):
            fixed[(lead + i) % 4].append(c)
    hands = fill_hands(fixed, {3: suits("H", "D", "C")})
    s = start("BARBU", hands)
    for trick in tricks:
        play(s, trick)
    assert deal_result(s)["raw"] == [0, -20, 0, 0]
    assert s.hand_number == 2


# --- domino (E14-E17) --------------------------------------------------------------------------------------
def _domino(rank, hands, turns, **options):
    s = start(f"DOMINO {rank}", hands, doubling=["pass"] * 4, **options)
    for t in turns:
        s.apply(t if t == "pass" else f"play {t}")
    return s


def test_e14_domino_legal_moves():
    p0 = ["8S", "QS", "6S", "TC", "5C", "JC", "QC", "7D", "9D", "8H", "9H", "4S", "3S"]
    fixed = {0: p0, 1: ["9S", "KS", "5S", "7C"], 2: ["TS", "AS", "8C", "6C"], 3: ["JS", "7S", "9C", "8D"]}
    hands = fill_hands(fixed)
    turns = ["8S", "9S", "TS", "JS", "QS", "KS", "AS", "7S", "6S", "5S", "8C", "9C", "TC", "7C", "6C", "8D"]
    s = _domino(8, hands, turns)
    assert s.current_player == 0
    assert s.view(0)["layout"] == {"S": ["S5", "SA"], "H": None, "D": ["D8", "D8"], "C": ["C6", "C10"]}
    assert plays(s) == _set("5C", "JC", "7D", "9D", "8H", "4S")
    with pytest.raises(IllegalActionError, match="does not fit"):
        s.apply("play QC")


def test_e15_domino_ace_and_two_ends():
    not_ace = lambda c: c[1:] != "A" and c[0] != "D"  # noqa: E731
    hands = fill_hands({0: ["AD"], 1: ["KD", "2D"]}, {1: not_ace})
    s = _domino("A", hands, ["AD"])
    assert plays(s) == _set("KD")
    not_two = lambda c: c[1:] != "2" and c[0] != "C"  # noqa: E731
    hands = fill_hands({0: ["2C"], 1: ["AC", "3C"]}, {1: not_two})
    s = _domino(2, hands, ["2C"])
    assert plays(s) == _set("3C")
    # After the club row reaches 2-K, the A♣ fits.
    clubs = {0: ["2C", "6C", "TC", "AC"], 1: ["3C", "7C", "JC"], 2: ["4C", "8C", "QC"], 3: ["5C", "9C", "KC"]}
    hands = fill_hands(clubs)
    s = _domino(2, hands, ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"])
    assert s.current_player == 0 and "C10" in plays(s) and "CA" not in plays(s)
    for c in ["TC", "JC", "QC", "KC"]:
        s.apply(f"play {c}")
    assert s.current_player == 0 and "CA" in plays(s)


def test_e16_domino_forced_pass():
    no_jack = lambda c: c[1:] != "J"  # noqa: E731
    hands = fill_hands({1: ["JH", "JC"]}, {0: no_jack, 1: no_jack})
    s = start("DOMINO J", hands, doubling=["pass"] * 4)
    assert s.current_player == 0 and [str(a) for a in s.legal_actions()] == ["pass"]
    s.apply("pass")
    assert plays(s) == _set("JH", "JC")
    with pytest.raises(IllegalActionError, match="you must play when you can|you can play"):
        s.apply("pass")


def test_e17_domino_scoring():
    # Search random domino deals for the going-out order P2, P0, P3, P1, then check its scoring.
    rng = random.Random(17)
    for seed in range(2000):
        s = game().new_state(seed=seed, first_caller=0)
        s.apply("contract DOMINO 7")
        for _ in range(4):
            s.apply("pass")
        random_playout(s, rng, stop=lambda st: st.hand_number != 1)
        result = deal_result(s)
        outs = [ev["seat"] for _a, ev in s.events if ev["type"] == "domino_out"]
        if outs == [2, 0, 3]:
            assert result["final"] == [20, -5, 45, 5] and sum(result["final"]) == 65
            # The deal ended when P3 went out: P1's last domino event precedes it, P1 still held cards.
            last = [ev for _a, ev in s.events if ev["type"] in ("domino_play", "domino_pass")][-1]
            assert last["seat"] == 3
            return
    pytest.fail("no deal with going-out order P2, P0, P3 found")
