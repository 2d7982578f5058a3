"""Steps per second of the batched environment (``stich.vector.VectorEnv``) against the single-game
loops, per game, in one process on one core, measured in interleaved slices (median kept):

* ``pettingzoo``: the PettingZoo AEC environment, one match: ``last()`` (observation and mask from
  the seat's view) and a random legal action per step;
* ``openspiel``: the OpenSpiel Python game, one hand per episode: a random legal action (chance
  outcomes sampled) and the current player's observation tensor per decision;
* ``lean loop``: one lean state (``new_state(lean=True)``), ``step(choice(legal_ids()))``, no
  observation at all: the floor of a single-game loop;
* ``vector N``: ``VectorEnv(num_envs=N)`` with its ``cards`` observation and masks for all rows,
  random legal actions drawn with numpy; ``vector full N``: the PettingZoo observation instead.

    python benchmarks/vector_speed.py [SECONDS_PER_SLICE [ROUNDS [GAME[:VARIANT] ...]]]
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time

import numpy as np

import stich

TABLES = [("watten", "euregio"), ("watten", "tyrolean"), ("battn", None), ("biscambiggia", None),
          ("barbu", None)]


def pettingzoo(name, variant, seconds):
    from stich.pettingzoo import env as make
    e = make(name, variant=variant)
    rng = np.random.default_rng(0)
    steps, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        e.reset(seed=seed)
        seed += 1
        for _agent in e.agent_iter():
            obs, _r, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if time.perf_counter() - start >= seconds:
                break
    return steps / (time.perf_counter() - start)


def openspiel(name, variant, seconds):
    import stich.openspiel
    game = stich.openspiel.load(name, variant)
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_action(rng.choice(st.chance_outcomes())[0])
            else:
                st.observation_tensor(st.current_player())
                st.apply_action(rng.choice(st.legal_actions()))
                steps += 1
    return steps / (time.perf_counter() - start)


def lean_loop(name, variant, seconds):
    g = stich.game(name, variant)
    choice = random.Random(0).choice
    steps, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        seed += 1
        s = g.new_state(seed=seed, lean=True)
        while not s.is_terminal():
            s.step(choice(s.legal_ids()))
            steps += 1
    return steps / (time.perf_counter() - start)


def vector(name, variant, seconds, num_envs=256, observation="cards"):
    from stich.vector import VectorEnv
    env = VectorEnv(name, num_envs, variant, observation=observation)
    _obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _obs, _r, _t, _tr, info = env.step(env.sample(info["action_mask"], rng))
        steps += num_envs
    return steps / (time.perf_counter() - start)


def main(seconds: float, rounds: int, tables) -> None:
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})   # one core, as stich bench
    except (AttributeError, OSError):
        pass
    kinds = [("pettingzoo", pettingzoo), ("openspiel", openspiel), ("lean loop", lean_loop),
             ("vector 256", vector), ("vector full 16", lambda n, v, s: vector(n, v, s, 16, "full"))]
    slices: dict = {}
    for _ in range(rounds):
        for name, variant in tables:
            for kind, fn in kinds:
                slices.setdefault((name, variant, kind), []).append(fn(name, variant, seconds))
    print(f"steps/s, median of {rounds} slices of {seconds:g} s, one core")
    print(f"{'game':24s}" + "".join(f"{k:>16s}" for k, _ in kinds) + f"{'vector/pz':>11s}{'vector/lean':>12s}")
    for name, variant in tables:
        med = {k: statistics.median(slices[(name, variant, k)]) for k, _ in kinds}
        print(f"{name + ' ' + (variant or ''):24s}" + "".join(f"{med[k]:16,.0f}" for k, _ in kinds)
              + f"{med['vector 256'] / med['pettingzoo']:11.1f}{med['vector 256'] / med['lean loop']:12.2f}")


if __name__ == "__main__":
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    chosen = [(a.partition(":")[0], a.partition(":")[2] or None) for a in sys.argv[3:]] or TABLES
    main(secs, rounds, chosen)
