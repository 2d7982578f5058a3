"""The lean simulation path (``new_state(lean=True)``, ``step``/``legal_ids``): the same games as the
full engine, compared position by position on a small sample (benchmarks/lean_diff.py compares
100,000 positions per game and variant), and the refusals of what a lean state cannot do."""

from __future__ import annotations

import random

import pytest

import stich
from stich.engine import Turns
from stich.testing import check_lean, same_position

TABLES = [(name, v) for name in ("watten", "battn", "biscambiggia", "barbu")
          for v in stich.engine.game_class(name).variants]


@pytest.mark.parametrize(("name", "variant"), TABLES)
def test_lean_states_play_the_same_games(name, variant):
    assert check_lean(stich.game(name, variant), 400, seed=1) == 400


def test_the_comparison_sees_a_difference():
    g = stich.game("watten", "tyrolean")
    full, lean = g.new_state(seed=5), g.new_state(seed=5, lean=True)
    for _ in range(6):
        a = full.legal_actions()[-1]
        full.apply(a)
        lean.step(a.id)
    same_position(full, lean)
    lean.cutter = (lean.cutter + 1) % 4   # a field nothing else shows
    with pytest.raises(AssertionError, match="fields differ: cutter"):
        same_position(full, lean)


def test_action_numbers_are_the_action_space():
    g = stich.game("barbu")
    s = g.new_state(seed=3, lean=True)
    assert s.legal_ids() == [g.action_index[str(a)] for a in s.legal_actions()]
    assert all(g.action_space[a.id] is a for a in g.action_space)


def test_a_lean_state_refuses_views_records_and_bad_numbers():
    g = stich.game("watten", "euregio")
    s = g.new_state(seed=2, lean=True)
    for ask in (lambda: s.view(0), lambda: s.record(), lambda: s.events, lambda: s.position()):
        with pytest.raises(stich.StichError, match="lean"):
            ask()
    before = (s.current_player, s.legal_ids(), s.actions_taken)
    for bad in (-1, len(g.action_space), "3", 2.0, True):
        with pytest.raises(stich.StichError, match="action number"):
            s.step(bad)
    illegal = next(a.id for a in g.action_space if a not in s.legal_actions())
    with pytest.raises(stich.IllegalActionError):
        s.step(illegal)
    assert (s.current_player, s.legal_ids(), s.actions_taken) == before


def test_turns_walk_a_lean_state_and_polls_follow_its_changes():
    s = stich.game("watten", "euregio").new_state(seed=3, lean=True)
    t = Turns(s)
    t.apply("cut 10")
    assert t.seat() == 3 and str(t.legal_actions()[-1]) == "wait"   # the dealer is polled (docs/engine.md)
    t.apply("wait")
    assert t.seat() == s.current_player == 0


@pytest.mark.parametrize("name", ["watten", "battn", "biscambiggia", "barbu"])
def test_known_hand_is_the_hand_the_view_shows(name):
    """State.known_hand (the batched environment's observation reads it from a lean state) is, for every
    seat at every moment, the hand its view shows: in Watten the players who have not picked up their
    cards yet (R30) know only those dealt face up."""
    variants = ("tyrolean", "bavarian_4") if name == "watten" else (None,)
    for variant in variants:
        g = stich.game(name, variant)
        rng = random.Random(2)
        s = g.new_state(seed=9)
        for _ in range(150):
            if s.is_terminal():
                break
            for seat in range(g.num_players):
                assert s.known_hand(seat) == g.deck.mask(s.view(seat)["hand"]), (variant, seat, s)
            s.apply(rng.choice(s.legal_actions()))


def test_a_pickled_state_keeps_its_action_numbers():
    import pickle
    for g, lean in ((stich.game("barbu"), True), (stich.game("barbu"), False), (stich.game("watten"), True)):
        s = g.new_state(seed=3, lean=lean)   # (Watten's game holds its deck, with its tables of codes)
        s.step(s.legal_ids()[0])
        t = pickle.loads(pickle.dumps(s))
        assert t.lean == lean and t.legal_ids() == s.legal_ids()
        t.step(t.legal_ids()[-1])
