"""A batched environment: ``num_envs`` matches of one game stepped together, observations and
legal-action masks as numpy arrays (needs numpy: ``pip install stich[vector]``).

>>> from stich.vector import VectorEnv
>>> env = VectorEnv("watten", num_envs=64, variant="tyrolean")
>>> obs, info = env.reset(seed=7)                  # obs: (64, observation_size) float32
>>> mask = info["action_mask"]                     # (64, len(game.action_space)) int8
>>> actions = env.sample(mask)                     # one legal action number per match (random)
>>> obs, rewards, terminated, truncated, info = env.step(actions)

Conventions (Gymnasium's vector API where it fits, PettingZoo's for the seats):

* one seat acts in each match at each step: ``info["seat"]`` (the seat asked now, walked one seat at
  a time by :class:`stich.engine.Turns`, so a seat that may act out of turn is polled with ``wait``
  among its choices, and no action of the rules is lost); ``actions[i]`` is an index of
  ``game.action_space`` legal in ``info["action_mask"][i]`` (an illegal one is an error naming the
  match, and nothing is stepped);
* ``rewards`` is ``(num_envs, num_players)``: per seat, ``state.returns()`` when a match ends
  (``reward="match"``), or after every hand each seat's score change minus the mean change over the
  table, divided by ``game.reward_scale()`` (``reward="hand"``), as the PettingZoo environment gives;
* a match that ends is started again at once (Gymnasium's same-step autoreset): ``terminated[i]`` is
  True, ``rewards[i]`` holds its last rewards, and ``obs[i]`` is the first observation of the next
  match; ``info["seed"][i]`` is the seed of the match each row is now in, ``info["hand"][i]`` the
  number of its hand (a hand is over when it changes or the match ends);
* ``reset(seed=s)``: the match seeds of row ``i`` are drawn from ``random.Random(f"{s}/{i}")``, so
  every row plays ``game.new_state(seed=info["seed"][i])``: the engine's match with that seed
  (tests/test_vector.py replays each row through the full engine and compares every step);
* the matches are lean states (``new_state(lean=True)``) unless ``observation="full"``.

Observations (``observation=``):

* ``"cards"`` (default): the seat's own cards (``State.known_hand``: what it holds and has seen),
  per relative seat the cards it played this hand and the last ``num_players`` card plays of the
  hand (the current trick, where a trick has one card per seat), each a block of ``len(deck)`` 0/1
  values, then per relative seat its match score (its side's where sides score) divided by
  ``game.reward_scale()``, and 1 if the seat is polled out of turn.  Everything in it is what the
  seat may know (card plays are public in every stich game).  Built from the state's own fields, with
  no view: the fast one.
* ``"full"``: :func:`stich.encoding.encode` of ``state.view(seat)``, the PettingZoo observation
  (everything the seat has seen; about ten times slower).
"""

from __future__ import annotations

import random

import numpy as np

import stich
from stich.encoding import encode, observation_size
from stich.encoding.rewards import hand_rewards
from stich.engine import State, Turns

__all__ = ["VectorEnv"]


class VectorEnv:
    """``num_envs`` matches of one game, stepped together (see the module docstring)."""

    def __init__(self, name: str, num_envs: int = 64, variant: str | None = None, *, observation: str = "cards",
                 reward: str = "match", **options):
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number >= 1, not {num_envs!r}")
        if observation not in ("cards", "full"):
            raise ValueError(f"observation must be 'cards' or 'full', not {observation!r}")
        if reward not in ("match", "hand"):
            raise ValueError(f"reward must be 'match' or 'hand', not {reward!r}")
        self.game = g = stich.game(name, variant=variant, **options)
        self.num_envs = num_envs
        self.num_players = n = g.num_players
        self.num_actions = len(g.action_space)
        self.observation = observation
        self.reward_mode = reward
        self.lean = observation == "cards"
        d = self.deck_size = len(g.deck)
        self._bits = d * (1 + 2 * n)
        self._nbytes = -(-self._bits // 8)
        self.observation_size = self._bits + n + 1 if self.lean else observation_size(g)
        self._scale = float(g.reward_scale())
        self._card_verb = g.card_verb
        self._by_side = g.scores_by == "side"
        self._wait = g.a_wait.id
        self._polls = g.state_class._off_turn_actions is not State._off_turn_actions
        self.states: list = [None] * num_envs
        self.turns: list = [None] * num_envs
        self.seeds: list[int] = [0] * num_envs
        self._rngs: list[random.Random] = []
        self._pbits: list[int] = [0] * num_envs   # per row: the cards each seat played this hand, packed
        self._recent: list = [None] * num_envs   # per row: the last (seat, card) plays of the hand
        self._scores: list = [None] * num_envs   # per row: the match scores when the hand began
        self._seat_scores = np.zeros((num_envs, self.num_players), dtype=np.float32)   # per seat, scaled

    # --- the Gymnasium-style spaces (gymnasium imported only when they are asked for) ------------------
    @property
    def single_observation_space(self):
        from gymnasium import spaces
        return spaces.Box(low=-np.inf, high=np.inf, shape=(self.observation_size,), dtype=np.float32)

    @property
    def single_action_space(self):
        from gymnasium import spaces
        return spaces.Discrete(self.num_actions)

    @property
    def action_space(self):
        from gymnasium import spaces
        return spaces.MultiDiscrete([self.num_actions] * self.num_envs)

    # --- the API ----------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> tuple[np.ndarray, dict]:
        """Start a match in every row; ``seed`` fixes every match of every row (see the module docstring)."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be a whole number or None, not {seed!r}")
        self._rngs = [random.Random(f"{seed}/{i}") for i in range(self.num_envs)]
        for i in range(self.num_envs):
            self._start(i)
        return self._observe(None, None)

    def step(self, actions) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Apply ``actions[i]`` (an index of ``game.action_space``) in every row; see the module docstring."""
        if not self._rngs:
            raise RuntimeError("call reset() before step()")
        arr = np.asarray(actions).reshape(-1)
        if len(arr) != self.num_envs or not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(f"step needs {self.num_envs} whole action numbers, one per match, not {arr!r:.80}")
        mask = self._mask
        inside = (arr >= 0) & (arr < self.num_actions)
        legal = inside & (mask[np.arange(self.num_envs), np.where(inside, arr, 0)] > 0)
        if not legal.all():   # every action is checked before any match changes
            i = int(np.flatnonzero(~legal)[0])
            raise stich.IllegalActionError(
                f"match {i}: action {int(arr[i])} is not legal for seat {self._seat[i]} now "
                f"(legal: {np.flatnonzero(mask[i]).tolist()})")
        acts = arr.tolist()
        n = self.num_players
        rewards = np.zeros((self.num_envs, n), dtype=np.float32)
        terminated = np.zeros(self.num_envs, dtype=bool)
        space = self.game.action_space
        for i, a in enumerate(acts):
            st, t = self.states[i], self.turns[i]
            seat = self._seat[i]
            hand = st.hand_number
            if a == self._wait:
                t.apply(space[a])
            elif seat == st.current_player:
                st.step(a)
            else:
                st.step(a, seat=seat)
            act = space[a]
            if self.lean and act.verb == self._card_verb:
                self._pbits[i] |= 1 << (self.deck_size * (1 + seat) + act.value)
                recent = self._recent[i]
                recent.append((seat, act.value))
                if len(recent) > n:
                    del recent[0]
            if st.current_player < 0:
                rewards[i] = st.returns() if self.reward_mode == "match" else self._hand_rewards(i)
                terminated[i] = True
                self._start(i)
            elif st.hand_number != hand:
                if self.reward_mode == "hand":
                    rewards[i] = self._hand_rewards(i)
                self._new_hand(i)
        obs, info = self._observe(rewards, terminated)
        return obs, rewards, terminated, np.zeros(self.num_envs, dtype=bool), info

    def sample(self, mask: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
        """One uniformly random legal action per row of ``mask`` (e.g. ``info["action_mask"]``)."""
        rng = rng if rng is not None else np.random.default_rng()
        # a random number per action, -1 where illegal: the largest is a uniform legal choice
        return np.argmax(np.where(mask > 0, rng.random(mask.shape), -1.0), axis=1)

    def close(self) -> None:
        pass

    # --- rows ---------------------------------------------------------------------------------------------
    def _start(self, i: int) -> None:
        self.seeds[i] = seed = self._rngs[i].getrandbits(63)
        self.states[i] = st = self.game.new_state(seed=seed, lean=self.lean)
        self.turns[i] = Turns(st)
        self._new_hand(i)

    def _new_hand(self, i: int) -> None:
        st = self.states[i]
        self._pbits[i] = 0
        self._recent[i] = []
        self._scores[i] = list(st.scores)
        scores = st.scores   # (the scores change only when a hand ends)
        self._seat_scores[i] = [scores[st.side_of(s) if self._by_side else s] / self._scale
                                for s in range(self.num_players)]

    def _hand_rewards(self, i: int) -> list[float]:
        after = list(self.states[i].scores)
        out = hand_rewards(self.game, self._scores[i], after)
        self._scores[i] = after
        return out

    def _observe(self, rewards, terminated) -> tuple[np.ndarray, dict]:
        N = self.num_envs
        # A game whose seats never act out of turn needs no polls: the seat asked is the one on turn.
        seats = [t.seat() for t in self.turns] if self._polls else [st.current_player for st in self.states]
        rows: list[int] = []
        cols: list[int] = []
        wait = self._wait
        for i, t in enumerate(self.turns):
            st = t.state
            s = seats[i]
            if s == st.current_player:
                ids = st.legal_ids()
            else:
                ids = st.legal_ids(s)
                ids.append(wait)
            rows.extend([i] * len(ids))
            cols.extend(ids)
        mask = np.zeros((N, self.num_actions), dtype=np.int8)
        mask[rows, cols] = 1
        if self.lean:
            obs = self._cards(seats)
        else:
            obs = np.stack([encode(t.state.view(s), self.game) for t, s in zip(self.turns, seats, strict=True)])
        self._mask = mask
        self._seat = seats
        info = {"action_mask": mask, "seat": np.array(seats, dtype=np.int64), "seed": np.array(self.seeds),
                "hand": np.array([st.hand_number for st in self.states], dtype=np.int64)}
        return obs, info

    def _cards(self, seats) -> np.ndarray:
        """The ``"cards"`` observation of the seat asked in every row (the module docstring): the
        blocks are packed per absolute seat into one int per row (the played cards kept up to date
        as they fall), unpacked for all rows at once and turned to each row's seat by one gather."""
        n, d, N = self.num_players, self.deck_size, self.num_envs
        nb = self._nbytes
        buf = bytearray()
        recent_at = d * (1 + n)
        for i, st in enumerate(self.states):
            x = st.known_hand(seats[i]) | self._pbits[i]
            for seat, card in self._recent[i]:
                x |= 1 << (recent_at + seat * d + card)
            buf += x.to_bytes(nb, "little")
        bits = np.unpackbits(np.frombuffer(bytes(buf), dtype=np.uint8).reshape(N, nb), axis=1,
                             bitorder="little")[:, :self._bits].reshape(N, 1 + 2 * n, d)
        s = np.asarray(seats, dtype=np.int64)[:, None]
        rel = (s + np.arange(n)) % n                             # row i, relative seat r -> its seat
        blocks = np.concatenate([np.zeros((N, 1), dtype=np.int64), 1 + rel, 1 + n + rel], axis=1)
        rows = np.arange(N)[:, None]
        out = np.empty((N, self.observation_size), dtype=np.float32)
        out[:, :self._bits] = bits[rows, blocks].reshape(N, self._bits)
        out[:, self._bits:self._bits + n] = self._seat_scores[rows, rel]
        out[:, -1] = [s != st.current_player for s, st in zip(seats, self.states, strict=True)]
        return out
