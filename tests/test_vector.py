"""The batched environment (stich.vector): every row is the engine's match with its seed, step by
step (the seat asked, its legal actions, every field of the state, the rewards), and its ``cards``
observation holds what the seat's view holds: its hand and the cards played this hand."""

from __future__ import annotations

import numpy as np
import pytest

import stich
from stich.encoding import encode
from stich.encoding.rewards import hand_rewards
from stich.engine import Turns
from stich.testing import same_position

np_ = pytest.importorskip("numpy")
from stich.vector import VectorEnv  # noqa: E402

TABLES = [("watten", "euregio"), ("watten", "bavarian_3"), ("battn", None), ("biscambiggia", None),
          ("barbu", None)]


def _played_blocks(view, seat, n, d):
    """Per relative seat, the cards it played this hand, from the seat's view of the hand's actions."""
    out = np.zeros((n, d), dtype=np.float32)
    deck = stich.game(view["game"], view["variant"]).deck
    for who, text, _i in view["actions"]:
        if text and text.startswith("play "):
            out[(who - seat) % n, deck.parse(text[5:])] = 1
    return out


@pytest.mark.parametrize(("name", "variant"), TABLES)
def test_each_row_is_the_engines_match_with_its_seed(name, variant):
    env = VectorEnv(name, 3, variant, reward="hand", target=5) if name == "watten" else \
        VectorEnv(name, 3, variant, reward="hand")
    g, n, d = env.game, env.num_players, env.deck_size
    obs, info = env.reset(seed=11)
    rng = np.random.default_rng(0)
    fulls = [g.new_state(seed=int(s)) for s in info["seed"]]
    turns = [Turns(f) for f in fulls]
    scores = [list(f.view(None).get("scores") or []) for f in fulls]
    ended = 0
    for _ in range(120):
        for i, (full, t) in enumerate(zip(fulls, turns, strict=True)):
            seat = t.seat()
            assert info["seat"][i] == seat
            assert sorted(a.id for a in t.legal_actions()) == np.flatnonzero(info["action_mask"][i]).tolist()
            same_position(full, env.states[i], f"row {i}")
            view = full.view(seat)
            assert np.flatnonzero(obs[i, :d]).tolist() == sorted(g.deck.parse(c) for c in view["hand"])
            assert (obs[i, d:d * (1 + n)].reshape(n, d) == _played_blocks(view, seat, n, d)).all()
            assert obs[i, -1] == (seat != full.current_player)
        actions = env.sample(info["action_mask"], rng)
        hands = [f.hand_number for f in fulls]
        for t, a in zip(turns, actions, strict=True):
            t.apply(g.action_space[a])
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for i, full in enumerate(fulls):
            assert terminated[i] == full.is_terminal()
            if full.is_terminal() or full.hand_number != hands[i]:
                after = list(full.view(None).get("scores") or [])
                assert rewards[i] == pytest.approx(hand_rewards(g, scores[i], after))
                scores[i] = after
            else:
                assert not rewards[i].any()
            if terminated[i]:   # the row goes on with the next match of its seed sequence
                ended += 1
                fulls[i] = g.new_state(seed=int(info["seed"][i]))
                turns[i] = Turns(fulls[i])
                scores[i] = list(fulls[i].view(None).get("scores") or [])
    assert name != "watten" or ended   # a match to 5 ends within 120 steps in one of three rows


def test_match_rewards_and_the_full_observation():
    env = VectorEnv("watten", 2, "bavarian_2", observation="full", target=3)
    obs, info = env.reset(seed=4)
    assert obs.shape == (2, env.observation_size)
    st = env.states[0]
    assert (obs[0] == encode(st.view(int(info["seat"][0])), env.game)).all()   # PettingZoo's observation
    rng = np.random.default_rng(1)
    while True:
        obs, rewards, terminated, _, info = env.step(env.sample(info["action_mask"], rng))
        if terminated.any():
            i = int(np.flatnonzero(terminated)[0])
            assert sorted(rewards[i].tolist()) == [-1.0, 1.0]   # state.returns() of the finished match
            break


def test_bad_actions_are_refused_before_any_match_moves():
    env = VectorEnv("biscambiggia", 2)
    obs, info = env.reset(seed=1)
    taken = [s.actions_taken for s in env.states]
    good = env.sample(info["action_mask"], np.random.default_rng(0))
    illegal = int(np.flatnonzero(info["action_mask"][1] == 0)[0])
    for bad, message in (([good[0], illegal], "match 1: action"), ([good[0]], "2 whole action numbers"),
                         ([good[0], env.num_actions], "match 1")):
        with pytest.raises(ValueError, match=message):
            env.step(bad)
    assert [s.actions_taken for s in env.states] == taken
    with pytest.raises(ValueError, match="num_envs"):
        VectorEnv("barbu", 0)
    with pytest.raises(ValueError, match="observation"):
        VectorEnv("barbu", 1, observation="pixels")
