"""PettingZoo AEC environments: PettingZoo's own API and seed tests for every game and variant."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

import stich  # noqa: E402
from stich.pettingzoo import env, raw_env  # noqa: E402

from .conftest import VARIANTS  # noqa: E402


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_api_test(name, variant):
    _quiet(api_test, env(name, variant=variant), num_cycles=1000)


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_api_test_hand_rewards(name, variant):
    _quiet(api_test, env(name, variant=variant, reward="hand"), num_cycles=200)


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_seed_test(name, variant):
    _quiet(seed_test, lambda: env(name, variant=variant), num_cycles=200)


def _play(e, seed, policy=None):
    """Play a whole match; return the total reward per agent."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)) if policy is None else policy(obs))
    return totals


@pytest.mark.parametrize("name,variant,opts", [("watten", "bavarian_3", {"target": 5}), ("battn", None, {"target": 5}),
                                               ("watten", "euregio", {})])
def test_match_reward_is_returns(name, variant, opts):
    e = raw_env(name, variant=variant, **opts)
    totals = _play(e, seed=4)
    st = e.state
    assert st.is_terminal()
    assert [totals[a] for a in e.possible_agents] == pytest.approx([float(r) for r in st.returns()])


@pytest.mark.parametrize("name,variant,opts", [("watten", "bavarian_3", {"target": 5}), ("watten", "euregio", {}),
                                               ("biscambiggia", None, {"hands_per_match": 2}), ("battn", None, {})])
def test_hand_rewards_are_zero_sum_and_paid_every_hand(name, variant, opts):
    e = raw_env(name, variant=variant, reward="hand", **opts)
    e.reset(seed=9)
    rng = np.random.default_rng(0)
    paid_hands = 0
    while not e.state.is_terminal():
        agent = e.agent_selection
        hand = e.state.hand_number
        legal = np.flatnonzero(e.observe(agent)["action_mask"])
        e.step(int(rng.choice(legal)))
        assert sum(e.rewards.values()) == pytest.approx(0.0, abs=1e-9)
        if e.state.hand_number != hand or e.state.is_terminal():
            paid_hands += any(r != 0 for r in e.rewards.values())
        else:
            assert all(r == 0 for r in e.rewards.values())
    assert paid_hands >= 1


def test_reset_seeding():
    a, b = raw_env("watten", variant="bavarian_2"), raw_env("watten", variant="bavarian_2")
    a.reset(seed=123)
    b.reset(seed=123)
    assert a.state.record()["seed"] == b.state.record()["seed"] == 123
    for agent in a.possible_agents:
        assert np.array_equal(a.observe(agent)["observation"], b.observe(agent)["observation"])
    a.reset()
    b.reset()
    assert a.state.record()["seed"] == b.state.record()["seed"]   # drawn from the seeded generator
    c = raw_env("watten", variant="bavarian_2")
    c.reset()
    c2 = raw_env("watten", variant="bavarian_2")
    c2.reset()
    assert c.state.record()["seed"] != c2.state.record()["seed"]


def test_spaces_and_options():
    e = raw_env("watten", variant="bavarian_4", target=5)
    g = stich.game("watten", variant="bavarian_4")
    assert e.game.options["target"] == 5
    assert e.action_space("player_0").n == len(g.action_space)
    sp = e.observation_space("player_3")
    assert sp["action_mask"].shape == (len(g.action_space),)
    e.reset(seed=1)
    assert sp.contains(e.observe("player_3"))
    with pytest.raises(ValueError):
        raw_env("watten", reward="trick")
    with pytest.raises(stich.StichError):
        raw_env("watten", variant="nope")


def test_illegal_action_ends_the_match_in_the_wrapped_env():
    e = env("watten", variant="bavarian_2")
    e.reset(seed=2)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    _quiet(e.step, illegal)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1


def test_render_ansi():
    e = raw_env("barbu", render_mode="ansi")
    e.reset(seed=1)
    assert "barbu" in e.render()
