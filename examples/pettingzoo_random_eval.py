"""PettingZoo example: evaluate simple policies and train a tiny REINFORCE policy (< 1 min on a CPU).

    python examples/pettingzoo_random_eval.py [--game watten] [--variant bavarian_2] [--matches 100]

1. evaluates "first legal action" against "uniform random" in whole matches (reward="match");
2. trains a linear softmax policy for player_0 with REINFORCE on per-hand rewards
   (reward="hand") against a random opponent, then evaluates it against random.
Everything goes through ``stich.pettingzoo.env``: observations, action masks and rewards.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from stich.pettingzoo import env as make_env


def random_policy(rng):
    return lambda obs: int(rng.choice(np.flatnonzero(obs["action_mask"])))


def first_legal(obs):
    return int(np.flatnonzero(obs["action_mask"])[0])


class LinearPolicy:
    """Softmax over legal actions of ``W @ observation`` (one row per action)."""

    def __init__(self, obs_size, num_actions, rng, lr=0.05):
        self.w = np.zeros((num_actions, obs_size), np.float64)
        self.rng, self.lr = rng, lr
        self.trace: list[tuple[np.ndarray, np.ndarray, int]] = []

    def probs(self, obs):
        legal = np.flatnonzero(obs["action_mask"])
        z = self.w[legal] @ obs["observation"]
        p = np.exp(z - z.max())
        return legal, p / p.sum()

    def __call__(self, obs, learn=False):
        legal, p = self.probs(obs)
        i = int(self.rng.choice(len(legal), p=p))
        if learn:
            self.trace.append((obs["observation"].astype(np.float64), legal, i))
        return int(legal[i])

    def update(self, ret, baseline):
        adv = ret - baseline
        for x, legal, i in self.trace:
            z = self.w[legal] @ x
            p = np.exp(z - z.max())
            p /= p.sum()
            grad = -p
            grad[i] += 1.0
            self.w[legal] += self.lr * adv * np.outer(grad, x)
        self.trace.clear()


def play(e, policies, seed, learner=None):
    """One match; returns the total reward per agent."""
    e.reset(seed=seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
        elif learner is not None and agent == "player_0":
            e.step(learner(obs, learn=True))
        else:
            e.step(policies[agent](obs))
    return totals


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="watten")
    ap.add_argument("--variant", default="bavarian_2")
    ap.add_argument("--matches", type=int, default=100, help="matches per evaluation")
    ap.add_argument("--train", type=int, default=150, help="training matches for REINFORCE")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    t0 = time.time()

    e = make_env(args.game, variant=args.variant)
    agents = e.possible_agents
    rand = random_policy(rng)
    pol = {a: (first_legal if a == "player_0" else rand) for a in agents}
    res = [play(e, pol, seed=10_000 + i)["player_0"] for i in range(args.matches)]
    print(f"{args.game}/{args.variant}: first-legal (player_0) vs random: mean return {np.mean(res):+.3f} "
          f"over {args.matches} matches")

    he = make_env(args.game, variant=args.variant, reward="hand")
    obs_size = he.observation_space("player_0")["observation"].shape[0]
    learner = LinearPolicy(obs_size, he.action_space("player_0").n, rng)
    baseline = 0.0
    for i in range(args.train):
        ret = play(he, {a: rand for a in agents}, seed=i, learner=learner)["player_0"]
        learner.update(ret, baseline)
        baseline = 0.9 * baseline + 0.1 * ret
    pol = {a: (learner if a == "player_0" else rand) for a in agents}
    res = [play(e, pol, seed=10_000 + i)["player_0"] for i in range(args.matches)]
    print(f"REINFORCE after {args.train} training matches vs random: mean return {np.mean(res):+.3f}")
    print(f"done in {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
