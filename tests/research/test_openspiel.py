"""OpenSpiel games: OpenSpiel's generic random_sim_test and a full ISMCTS game for every variant."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import stich.openspiel as sos  # noqa: E402
from stich.encoding import observation_size  # noqa: E402

from .conftest import VARIANTS  # noqa: E402


def _short(name, variant):
    return sos.short_name(name, variant)


def test_every_variant_is_registered():
    registered = {g.short_name for g in pyspiel.registered_games()}
    for name, variant in VARIANTS:
        assert _short(name, variant) in registered


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_random_sim_test(name, variant):
    game = pyspiel.load_game(_short(name, variant))
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_random_sim_test_with_options():
    game = sos.load("watten", "bavarian_3", target=5, maschine="on")
    assert game.stich_game.options["target"] == 5 and game.stich_game.options["maschine"] == "on"
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)


def _play_random_to_decision(game, rng, decisions):
    s = game.new_initial_state()
    k = 0
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes(), strict=True)
            assert sum(probs) == pytest.approx(1.0)
            s.apply_action(rng.choice(outcomes))
        elif k >= decisions:
            return s
        else:
            s.apply_action(rng.choice(s.legal_actions()))
            k += 1
    return s


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_ismcts_plays_a_full_game(name, variant):
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(_short(name, variant))
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0, max_simulations=4,
                           random_state=rs)
    s = game.new_initial_state()
    decisions = 0
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(int(rs.choice(outcomes, p=probs)))
        else:
            s.apply_action(bot.step(s))
            decisions += 1
    assert decisions > 0
    r = s.returns()
    assert sum(r) == pytest.approx(0.0, abs=1e-9)
    assert all(game.min_utility() <= x <= game.max_utility() for x in r)


@pytest.mark.parametrize("short", ["python_stich_barbu_standard", "python_stich_watten_euregio",
                                   "python_stich_battn_standard"])
def test_resample_keeps_the_infostate_and_varies_hidden_cards(short):
    game = pyspiel.load_game(short)
    rng = random.Random(2)
    s = _play_random_to_decision(game, rng, 6)
    p = s.current_player()
    key = s.information_state_string(p)
    packs = set()
    for _ in range(10):
        w = s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert w.information_state_string(p) == key
        assert w.current_player() == p and w.legal_actions() == s.legal_actions()
        assert w.history()[:1] == s.history()[:1]
        packs.add(tuple(w.pack))
    assert len(packs) > 1


def test_tensors_and_strings():
    game = pyspiel.load_game("python_stich_watten_bavarian_4")
    s = _play_random_to_decision(game, random.Random(1), 3)
    n = game.stich_game
    assert len(s.observation_tensor(0)) == observation_size(n)
    assert len(s.information_state_tensor(1)) == observation_size(n)
    p = s.current_player()
    assert s.observation_string(p) != s.information_state_string(p)
    other = (p + 1) % 4
    assert s.information_state_string(p) != s.information_state_string(other)
    assert game.max_game_length() == n.max_decisions == 200
    assert game.num_distinct_actions() == len(n.action_space)
