"""Battn turns set up in the middle of play: new_state(position={...}), checked by the rules."""

from __future__ import annotations

import json
import random

import pytest

import stich
from stich import SetupError
from stich.rulesets.battn.state import MOVE, POLL, RESPOND


def played(seed: int, trick_no: int, cards: int, **options):
    g = stich.game("battn", orbi_enabled=False, **options)
    s = g.new_state(seed=seed, dealer=0)
    rng = random.Random(seed)
    while not (s.phase == MOVE and s.trick_no == trick_no and len(s.trick) == cards):
        legal = s.legal_actions()
        calm = [a for a in legal if a.verb not in ("raise", "scheanara", "misraise", "svista")] or legal
        s.apply(rng.choice(calm))
    return g, s


def position_of(s) -> dict:
    plays = [[ev["seat"], ev["card"]] for _, ev in s.events if ev["type"] == "play"]
    done = len(plays) // 4 * 4
    info = s.view(None)["info"]
    return dict(hands=[s.view(p)["hand"] for p in range(4)], dealer=0, schlok=info["schlok"],
                trumpf=info["trumpf"], tricks=[plays[i:i + 4] for i in range(0, done, 4)], trick=plays[done:])


@pytest.mark.parametrize("seed, trick_no, cards", [(5, 1, 0), (5, 3, 2), (8, 4, 3)])
def test_a_position_is_the_window_before_the_next_card(seed, trick_no, cards):
    g, s = played(seed, trick_no, cards)
    t = g.new_state(seed=seed, position=json.loads(json.dumps(position_of(s))))
    if t.phase == POLL:                      # the window opens with the opponents' poll (PR-B7)
        t.apply("pass")
    assert t.current_player == s.current_player and t.legal_actions() == s.legal_actions()
    for p in range(4):
        assert t.view(p)["hand"] == s.view(p)["hand"] and t.view(p)["tricks"] == s.view(p)["tricks"]
    rng = random.Random(2)
    while t.hand_number == 1 and not t.is_terminal():
        a = rng.choice(t.legal_actions())
        t.apply(a)
        s.apply(a)
    assert t.scores == s.scores
    assert stich.replay(json.loads(json.dumps(t.record()))).record() == t.record()


def test_stake_and_raise_right():
    g, s = played(5, 2, 1)
    t = g.new_state(seed=5, position=position_of(s) | {"stake": 4, "raise_right": 1})
    assert t.stake == 4 and t.view(0)["info"]["raise_right"] == 1
    mover = t.current_player if t.phase == MOVE else (t.current_player + 1) & 3
    assert ("raise" in t.legal_actions(mover)) is (mover & 1 == 1)


@pytest.mark.parametrize("change, message", [
    ({"stake": 3}, "only the team that accepted"),
    ({"stake": 2, "raise_right": 0}, "before any raise"),
    ({"stake": 1}, "stake must be"),
    ({"schlok": "Z"}, "schlok"),
    ({"to_act": 9}, "to_act"),
    ({"bid": 1}, "no field 'bid'"),
])
def test_inconsistent_positions_are_refused(change, message):
    g, s = played(5, 3, 2)
    with pytest.raises(SetupError, match=message):
        g.new_state(seed=5, position=position_of(s) | change)


def test_plays_out_of_order_or_against_the_follow_rule_are_refused():
    g, s = played(5, 3, 2)
    pos = position_of(s)
    first = pos["tricks"][0]
    with pytest.raises(SetupError, match="play #1: seat"):
        g.new_state(seed=5, position=pos | {"tricks": [[first[1], first[0], *first[2:]], *pos["tricks"][1:]]})
    short = [list(h) for h in pos["hands"]]
    short[0] = short[0][1:]
    with pytest.raises(SetupError, match="seat 0 holds"):
        g.new_state(seed=5, position=pos | {"hands": short})


def test_a_later_turn_of_the_match_can_be_set_up():
    g, s = played(5, 2, 1)
    t = g.new_state(seed=5, position=position_of(s) | {"hand": 7, "scores": [12, 9]})
    assert t.hand_number == 7 and t.view(1)["hand_number"] == 7 and t.view(None)["scores"] == [12, 9]
    rng = random.Random(4)
    while t.hand_number == 7 and not t.is_terminal():
        t.apply(rng.choice(t.legal_actions()))
    assert t.hand_summary()["last_result"]["hand"] == 7 and t.dealer == 1    # BT-3.2: the deal passes on
    with pytest.raises(SetupError, match="position hand"):
        g.new_state(seed=5, position=position_of(s) | {"hand": 0})


def test_the_window_after_the_poll_and_a_pending_raise():
    g, s = played(5, 2, 1)
    pos = position_of(s)
    polled = g.new_state(seed=5, position=pos)
    assert polled.phase == POLL                        # PR-B7: the opponents of the mover are asked first
    mover = (polled.current_player + 1) & 3
    t = g.new_state(seed=5, position=pos | {"window": "move"})
    assert t.phase == MOVE and t.current_player == mover
    assert [str(a) for a in t.legal_actions((mover + 3) & 3)] == ["raise"]    # BT-14.4: still, out of turn
    # BT-14.5: team 0 asks "Tre?"; the other team's speaker before the mover answers (PR-B7).
    r = g.new_state(seed=5, position=pos | {"raise_pending": 0})
    assert r.phase == RESPOND and r.current_player & 1 == 1
    assert [str(a) for a in r.legal_actions()] == ["accept", "fold", "raise"]
    r.apply("fold")                                    # "Tre?" refused gives the accepted stake, 2
    assert r.scores == [2, 0]


def test_after_an_accepted_raise_only_the_accepting_team_raises():
    # BT-14.3: team 0's raise to 3 was accepted by team 1; only team 1 may raise, even at once
    # before the same card; team 0 may not have a raise pending.
    g, s = played(5, 3, 2)
    pos = position_of(s) | {"stake": 3, "raise_right": 1}
    t = g.new_state(seed=5, position=pos | {"raise_pending": 1})
    assert t.stake == 3 and t.current_player & 1 == 0
    with pytest.raises(SetupError, match="team 0 may not raise here"):
        g.new_state(seed=5, position=pos | {"raise_pending": 0})


def test_an_orbi_turn_can_be_set_up():
    # BT-16.2/16.3/16.4: team 1 called Orbi, team 0 accepted: base 3, and the Orbi counts as
    # team 1's raise accepted by team 0, so team 0 raises next.
    g = stich.game("battn")
    _, s = played(5, 2, 1)
    pos = position_of(s) | {"orbi": 1}
    t = g.new_state(seed=5, position=pos)
    assert t.stake == 3 and t.orbi_team == 1 and t.raise_right == 0
    with pytest.raises(SetupError, match="the team that accepted the Orbi, 0"):
        g.new_state(seed=5, position=pos | {"raise_right": "both"})
    with pytest.raises(SetupError, match="no Orbi window"):
        stich.game("battn", orbi_enabled=False).new_state(seed=5, position=pos)


def test_a_turn_after_two_scheanara_exchanges_round_trips():
    # BT-8.3: R and D set their hands aside and get five new cards each, twice (BT-8.4: at most 2).
    g = stich.game("battn", orbi_enabled=False)
    s = g.new_state(seed=11, dealer=0)
    rng = random.Random(11)
    while not (s.phase == MOVE and s.trick_no == 2):
        legal = s.legal_actions()
        eager = [a for a in legal if a.verb in ("scheanara", "scheanara_yes")]
        calm = [a for a in legal if a.verb not in ("raise", "misraise", "svista", "scheanara_pass",
                                                   "scheanara_no", "scheanara", "scheanara_yes")]
        s.apply(rng.choice(eager or calm or legal))
    pos = json.loads(json.dumps(s.position()))
    assert len(pos["scheanara"]) == 2 and len(pos["stock"]) == 0
    t = g.new_state(seed=11, position=pos)
    assert t.scheanara_count == 2 and t.current_player == s.current_player
    assert all(t.legal_actions(p) == s.legal_actions(p) for p in range(4))
    assert sorted(t.view(1)["hand"]) == sorted(s.view(1)["hand"]) and t.view(0)["tricks"] == s.view(0)["tricks"]
    with pytest.raises(SetupError, match="exchange 2 is not possible"):
        stich.game("battn", orbi_enabled=False, scheanara_max=1).new_state(seed=11, position=pos)
    with pytest.raises(SetupError, match="needs the dealer"):
        g.new_state(seed=11, position={k: v for k, v in pos.items() if k != "dealer"})
