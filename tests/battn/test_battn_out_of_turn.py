"""Battn raises out of turn (BT-14.3, BT-14.4, BT-14.8) and the stake without limit (BT-14.6).

Each test is written from the rules file's wording and failed while only the seat on turn could act."""

from __future__ import annotations

import pytest
from battn_support import GIANNA, NINO, choose, new

from stich.rulesets.battn.state import MOVE, POLL, RESPOND


@pytest.mark.parametrize("alternation", [True, False])
def test_bt14_3_the_accepting_team_raises_again_before_the_same_card(alternation):
    # BT-14.3: "After a raise by team T is accepted by team U, only U may make the next raise";
    # BT-14.4: a raise window is "immediately before any card", and "it need not be the raiser's
    # own turn to play".  Nino (B) is about to lead; he raises, Gianna (A) accepts: A may raise
    # again before Nino's card.
    s = new({}, options={"orbi_enabled": False, "raise_alternation": alternation})
    choose(s)
    assert s.phase == POLL and s.current_player == GIANNA
    s.apply("1:pass")
    s.apply("2:raise")
    s.apply("1:accept")
    assert s.phase == MOVE and s.current_player == NINO and s.stake == 3
    assert s.legal_actions(GIANNA) == ["raise"]
    assert s.seats_to_act() == [GIANNA, NINO]
    assert ("raise" in s.legal_actions()) is (not alternation)   # BT-14.3 with or without alternation
    s.apply("1:raise")
    assert s.phase == RESPOND and s.current_player == NINO and s.proposed == 4
    s.apply("2:accept")
    assert s.stake == 4 and s.current_player == NINO


def test_bt14_4_the_mover_raises_while_the_opponents_are_polled():
    # BT-14.4: at a window both entitled teams may speak; the mover need not wait for the poll.
    s = new({}, options={"orbi_enabled": False})
    choose(s)
    assert s.phase == POLL and s.legal_actions(NINO) == ["raise"]
    s.apply("2:raise")
    assert s.phase == RESPOND and s.current_player == GIANNA
    s.apply("1:accept")
    assert s.stake == 3 and s.current_player == NINO and s.legal_actions(GIANNA) == ["raise"]


def test_bt14_6_no_upper_limit_on_the_stake():
    # BT-14.6: "No upper limit on S"; PR-B8's cap is the option stake_cap = target.
    s = new({}, options={"orbi_enabled": False, "target": 5, "x_threshold": 4})
    choose(s)
    for _ in range(3):
        s.apply("raise")          # 3, 4, 5: each a counter-raise
    assert s.proposed == 5 and "raise" in s.legal_actions()
    s.apply("raise")              # 6
    assert s.proposed == 6 and s.stake == 5
