"""Doubling, settlement, the undoubled split, obligation and schedule: rules/barbu.md §3, §4 and
the worked examples E18-E26 and §3.5 (Parlett), through the public API."""

from __future__ import annotations

import random

import pytest
from barbu_support import deal_result, fill_hands, game, play_scripted, random_playout, scripted_tricks, start

from stich import IllegalActionError, MalformedActionError
from stich.rulesets.barbu import rules as R


def legal_texts(state):
    return {str(a) for a in state.legal_actions()}


def test_parlett_settlement_example():  # §3.5 and E21, E22
    # Annie P0 (caller, NO_QUEENS), Benny P1 Maximum, Connie P2 doubles Annie, Denny P3 passes,
    # Annie redoubles Connie only.  Denny takes two queens, Annie one, Connie one.
    winners = [0, 0, 0, 0, 1, 1, 3, 1, 1, 2, 1, 1, 3]
    tricks, hands = scripted_tricks(winners)
    s = start("NO_QUEENS", hands, doubling=["double 1,3,4", "double 1", "pass", "redouble 3"])
    play_scripted(s, tricks)
    result = deal_result(s)
    assert result["raw"] == [-6, 0, -6, -12]
    assert result["businesses"] == [[0, 1, 1], [0, 2, 2], [1, 2, 1], [1, 3, 1]]
    assert result["adjustments"] == [-6, 24, -6, -12]  # Annie-Connie: equal raw scores, no transfer (E22)
    assert result["final"] == [-12, 24, -12, -24] and sum(result["final"]) == -24
    assert s.view(None)["scores"] == [-12, 24, -12, -24]
    # Obligations: Benny's and Connie's doubles of Annie count, Denny's count is unchanged.
    view = s.view(None)
    assert view["previous_result"]["final"] == [-12, 24, -12, -24]
    assert view["caller"] == 0 and view["caller_doubles"] == [0, 1, 1, 0]


def test_parlett_denny_could_have_redoubled_benny():
    hands = fill_hands({})
    s = game().new_state(seed=1, hands=hands, first_caller=0)
    s.apply("contract NO_QUEENS")
    s.apply("double 1,3,4")
    s.apply("double 1")
    assert {"pass", "redouble 2", "double 1", "double 1 redouble 2"} <= legal_texts(s)
    assert "double 2" not in legal_texts(s)


def test_e18_positive_contract_doubling():
    s = start("TRUMPS S", fill_hands({}), doubling=[])
    assert s.current_player == 1
    with pytest.raises(IllegalActionError, match="only the caller"):
        s.apply("double 3")
    assert legal_texts(s) == {"pass", "double 1"}
    s.apply("double 1")
    s.apply("pass")
    s.apply("pass")
    assert s.current_player == 0
    with pytest.raises(IllegalActionError, match="caller may not double"):
        s.apply("double 4")
    assert legal_texts(s) == {"pass", "redouble 2"}
    s.apply("redouble 2")
    assert s.view(None)["businesses"] == [[0, 1, 2]]


def test_e18_negative_full_round_and_settlement():
    winners = [1, 1, 1, 1, 1, 0, 0, 2, 2, 2, 3, 3, 3]  # tricks P0 2, P1 5, P2 3, P3 3
    tricks, hands = scripted_tricks(winners)
    s = start("NO_TRICKS", hands, doubling=[])
    s.apply("double 1,3")
    # P2 was doubled by P1: doubling back is a redouble, never a second double.
    with pytest.raises(IllegalActionError, match="your answer is a redouble"):
        s.apply("double 2")
    s.apply("double 4 redouble 2")
    s.apply("double 2 redouble 3")  # P1 has acted already and can never answer this double
    assert legal_texts(s) == {"pass", "redouble 2"}  # the caller may redouble only P1
    s.apply("redouble 2")
    play_scripted(s, tricks)
    result = deal_result(s)
    assert result["businesses"] == [[0, 1, 2], [1, 2, 2], [1, 3, 1], [2, 3, 2]]
    assert result["raw"] == [-4, -10, -6, -6]
    assert result["final"] == [8, -34, 2, -2] and sum(result["final"]) == -26


def test_doubling_text_is_canonicalised():
    s = start("NO_TRICKS", fill_hands({}), doubling=[])
    # Seats in text are 1-based (seat 1 = P0); the rules' names P0..P3 are accepted, in any order.
    s.apply("2:double p2, p0")
    assert [str(a) for _seat, a in s.history][-1] == "double 1,3"
    s.apply("DOUBLE P3 REDOUBLE 2")
    assert str(s.history[-1][1]) == "double 4 redouble 2"
    for bad in ("double 5", "double P4", "double 0", "redouble"):
        with pytest.raises(MalformedActionError):
            s.apply(bad)


def test_e19_obligation_enforcement():
    used = [["NO_TRICKS", "NO_HEARTS", "NO_QUEENS", "BARBU", "NO_LAST_TWO"], [], [], []]
    doubles = [[0, 0, 1, 2], [0] * 4, [0] * 4, [0] * 4]
    s = game().new_state(seed=3, first_caller=0, hand_number=6, used_contracts=used, caller_doubles=doubles)
    assert s.hand_number == 6 and s.current_player == 0
    assert legal_texts(s) == {"contract TRUMPS " + x for x in "SHDC"} | {f"contract DOMINO {r}" for r in
                                                                          ("2", "3", "4", "5", "6", "7", "8",
                                                                           "9", "10", "J", "Q", "K", "A")}
    s.apply("contract TRUMPS H")
    assert legal_texts(s) == {"double 1"}  # P1: need 2 >= k 2
    with pytest.raises(IllegalActionError, match=r"you must double the caller \(seat 1\) now"):
        s.apply("pass")
    s.apply("double 1")
    assert legal_texts(s) == {"pass", "double 1"}  # P2: need 1 < 2
    s.apply("pass")
    assert legal_texts(s) == {"pass", "double 1"}  # P3: already doubled twice
    s.apply("pass")
    s.apply("pass")
    random_playout(s, random.Random(1), stop=lambda st: st.hand_number == 7)
    s.apply("contract DOMINO 7")
    assert legal_texts(s) == {"double 1"}  # P1: need 1 >= k 1
    s.apply("double 1")
    assert legal_texts(s) == {"double 1"}  # P2: need 1 >= k 1 (he passed in deal 6)
    s.apply("double 1")
    assert legal_texts(s) == {"pass", "double 1"}


def test_obligation_none_and_redouble_caller_only():
    used = [["NO_TRICKS", "NO_HEARTS", "NO_QUEENS", "BARBU", "NO_LAST_TWO", "TRUMPS"], [], [], []]
    s = game(obligation="none").new_state(seed=3, first_caller=0, hand_number=7, used_contracts=used)
    s.apply("contract DOMINO 9")
    assert "pass" in legal_texts(s)
    s = start("NO_TRICKS", fill_hands({}), doubling=["double 3"], redouble="caller_only")
    assert legal_texts(s) == {"pass", "double 1", "double 4", "double 1,4"}  # P2 cannot redouble P1


def test_e20_settlement_with_redouble_trumps():
    winners = [0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2]  # P0 6, P1 3, P2 4, P3 0
    tricks, hands = scripted_tricks(winners, trump_spades=True)
    s = start("TRUMPS S", hands, doubling=["double 1", "double 1", "pass", "redouble 2"])
    play_scripted(s, tricks)
    result = deal_result(s)
    assert result["raw"] == [30, 15, 20, 0]
    assert result["final"] == [70, -15, 10, 0] and sum(result["final"]) == 65


@pytest.mark.parametrize("contract, expected", [
    ("NO_TRICKS", [1, -9, -9, -9]), ("NO_HEARTS", [0, -10, -10, -10]), ("NO_QUEENS", [0, -8, -8, -8]),
    ("BARBU", [1, -7, -7, -7]), ("NO_LAST_TWO", [0, -10, -10, -10]),
])
def test_e23_undoubled_split(contract, expected):
    s = start(contract, fill_hands({}), doubling=["pass"] * 4)
    result = deal_result(s)
    assert result["played"] is False and result["final"] == expected
    assert s.hand_number == 2 and s.view(None)["scores"] == expected
    assert R.undoubled_split(R.TOTAL[R.CONTRACT_ID[contract]], 0) == expected


def test_undoubled_negative_played_with_option_and_positive_always_played():
    s = start("NO_TRICKS", fill_hands({}), doubling=["pass"] * 4, skip_undoubled_negative=False)
    assert s.hand_number == 1 and s.legal_actions()[0].verb == "play"
    s = start("TRUMPS C", fill_hands({}), doubling=["pass"] * 4)
    assert s.hand_number == 1 and s.legal_actions()[0].verb == "play"


def test_e24_a_double_between_non_callers_is_enough():
    s = start("NO_QUEENS", fill_hands({}), doubling=["pass", "pass", "double 3", "pass"])
    assert s.hand_number == 1 and s.current_player == 0 and s.legal_actions()[0].verb == "play"


def test_e25_block_sums_to_zero():
    rows = [  # contract, businesses, raw, final (E25)
        (R.NO_TRICKS, {(0, 1): 1}, [-4, -8, -6, -8], [0, -12, -6, -8]),
        (R.NO_QUEENS, {(0, 2): 1}, [-12, -6, 0, -6], [-24, -6, 12, -6]),
        (R.NO_LAST_TWO, {(0, 1): 1, (0, 3): 1}, [0, -20, -10, 0], [20, -40, -10, 0]),
        (R.TRUMPS, {(0, 2): 2, (0, 3): 1}, [25, 10, 15, 15], [55, 10, -5, 5]),
        (R.DOMINO, {(0, 3): 1}, [20, 45, -5, 5], [35, 45, -5, -10]),
    ]
    block = [0, 0, 0, 0]
    for contract, business, raw, final in rows:
        assert sum(raw) == R.TOTAL[contract]
        assert R.settle(raw, business)[1] == final
        block = [a + b for a, b in zip(block, final, strict=True)]
    for contract in (R.NO_HEARTS, R.BARBU):
        block = [a + b for a, b in zip(block, R.undoubled_split(R.TOTAL[contract], 0), strict=True)]
    assert block == [87, -20, -31, -36] and sum(block) == 0


def test_e26_schedule_and_doubling_order():
    s = game().new_state(seed=5, first_caller=2)
    assert s.current_player == 2 and s.view(None)["dealer"] == 1
    random_playout(s, random.Random(5), stop=lambda st: st.hand_number == 8)
    assert s.current_player == 3 and s.view(None)["caller"] == 3 and s.view(None)["dealer"] == 2
    s.apply(s.legal_actions()[0])
    order = []
    for _ in range(4):
        order.append(s.current_player)
        s.apply("double 4" if s.current_player != 3 else str(s.legal_actions()[0]))
    assert order == [0, 1, 2, 3]
    assert R.callers(2, False)[14] == 0 and R.callers(2, False)[21] == 1
    assert R.callers(2, True)[:5] == (2, 3, 0, 1, 2)
    # k of §3.3: deals left in the caller's window, the current one included (R-3 for every_deal).
    assert [R.window_left(R.callers(0, False), d) for d in (1, 6, 7, 8)] == [7, 2, 1, 7]
    assert [R.window_left(R.callers(0, True), d) for d in (1, 2, 25, 28)] == [7, 7, 1, 1]


def test_dealer_is_caller_and_setup_by_dealer():
    s = game(dealer_is_caller=True).new_state(seed=5, dealer=1)
    assert s.current_player == 1 and s.view(None)["dealer"] == 1
    s = game().new_state(seed=5, dealer=1)
    assert s.current_player == 2 and s.view(None)["dealer"] == 1
