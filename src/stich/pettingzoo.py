"""PettingZoo AEC environments for every stich game and variant.

>>> from stich.pettingzoo import env
>>> e = env("watten", variant="bavarian_4")      # wrapped: illegal moves end the game, order enforced
>>> e.reset(seed=7)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

* agents ``player_0 .. player_{n-1}`` are the seats 0..n-1;
* ``observation_space(agent)`` = ``Dict(observation=Box(-1, 1, (size,), float32),
  action_mask=Box(0, 1, (len(game.action_space),), int8))``; the observation is
  :func:`stich.encoding.encode` of ``state.view(seat)`` (nothing else), the mask is non-zero only
  for the agent to act;
* one agent acts at a time through :class:`stich.engine.Turns`: a seat that may act out of turn
  (a Euregio Ansager's request, a Battn raise) is selected first, with ``wait`` (the last index of
  the action space) among its choices; ``wait`` changes nothing in the match;
* ``action_space(agent)`` = ``Discrete(len(game.action_space))``: index into ``game.action_space``;
* ``reset(seed=s)`` starts ``game.new_state(seed=s)``: the same seed gives the same match;
  ``reset()`` without a seed draws the next seed from the last seeded generator (or at random);
* ``reward="match"`` (default): every seat gets ``state.returns()`` when the match ends;
  ``reward="hand"``: after every hand each seat gets its score change minus the mean change
  (zero-sum), divided by :func:`hand_reward_scale`.
* any other keyword is a game option (``env("watten", target=5)``).
"""

from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import stich
from stich.encoding import action_mask, encode, observation_size
from stich.encoding.rewards import hand_reward_scale, hand_rewards
from stich.engine.turns import Turns

__all__ = ["StichEnv", "env", "hand_reward_scale", "hand_rewards", "raw_env"]


def _public_scores(state):
    return state.view(None).get("scores")


class StichEnv(AECEnv):
    """One stich match as an AEC environment (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "stich_v0", "is_parallelizable": False}

    def __init__(self, name: str, variant: str | None = None, reward: str = "match", render_mode=None,
                 **options):
        super().__init__()
        if reward not in ("match", "hand"):
            raise ValueError(f"reward must be 'match' or 'hand', not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.game = stich.game(name, variant=variant, **options)
        self.reward_mode = reward
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"stich_{self.game.name}_{self.game.variant}_v0")
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        size = observation_size(self.game)
        num_actions = len(self.game.action_space)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=-1.0, high=1.0, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(num_actions,), dtype=np.int8),
            }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self._seed_rng: random.Random | None = None
        self.state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # --- AEC API ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seed_rng = random.Random(seed)
            match_seed = int(seed)
        elif self._seed_rng is not None:
            match_seed = self._seed_rng.getrandbits(63)
        else:
            match_seed = None
        self.state = self.game.new_state(seed=match_seed)
        self.turns = Turns(self.state)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._scores = _public_scores(self.state)
        self._hand = self.state.hand_number
        self.agent_selection = self.possible_agents[self.turns.seat()]

    def observe(self, agent):
        seat = self.agent_name_mapping[agent]
        view = self.state.view(seat)
        if seat != self.turns.seat() or self.state.is_terminal():
            mask = np.zeros(len(self.game.action_space), dtype=np.int8)
        elif seat != self.state.current_player:   # a poll: the seat's actions and wait
            mask = np.zeros(len(self.game.action_space), dtype=np.int8)
            index = self.game.action_index
            for a in self.turns.legal_actions():
                mask[index[str(a)]] = 1
        else:
            mask = action_mask(view, self.game)
        return {"observation": encode(view, self.game), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.turns.apply(self.game.action_space[int(action)])
        state = self.state
        rewards = [0.0] * self.game.num_players
        if self.reward_mode == "hand":
            if state.hand_number != self._hand or state.is_terminal():
                scores = _public_scores(state)
                rewards = hand_rewards(self.game, self._scores, scores)
                self._scores, self._hand = scores, state.hand_number
        elif state.is_terminal():
            rewards = [float(r) for r in state.returns()]
        self.rewards = {a: float(rewards[i]) for i, a in enumerate(self.possible_agents) if a in self.rewards}
        if state.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self.turns.seat()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        s = self.state
        summary = s.hand_summary() if s is not None else {}
        text = f"{s!r}\n{summary}"
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


def raw_env(name: str, variant: str | None = None, reward: str = "match", render_mode=None, **options) -> StichEnv:
    """The unwrapped environment."""
    return StichEnv(name, variant=variant, reward=reward, render_mode=render_mode, **options)


def env(name: str, variant: str | None = None, reward: str = "match", render_mode=None, **options):
    """The environment with PettingZoo's standard wrappers for classic games.

    An illegal action ends the match with reward -1 for the offender (``TerminateIllegalWrapper``);
    out-of-range actions are asserted; the AEC call order is enforced.
    """
    e = raw_env(name, variant=variant, reward=reward, render_mode=render_mode, **options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
