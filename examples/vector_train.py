"""Train a small agent on the batched environment (``stich.vector.VectorEnv``) for one minute.

    python examples/vector_train.py [--game watten] [--variant bavarian_2] [--seconds 60] [--envs 128]

A linear softmax policy over the ``cards`` observation plays seat 0 of every match against uniformly
random players and learns with REINFORCE on the per-hand rewards (``reward="hand"``), all rows of the
batch at once: the observations, masks and updates are numpy arrays, one matrix product per step.
Before and after training it plays the same number of hands against random players and prints seat
0's mean hand reward (0 for a random player: the rewards are zero-sum per hand).
"""

from __future__ import annotations

import argparse
import os
import time

# One core: BLAS threads fighting over a busy machine's cores make the small products 100x slower.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from stich.vector import VectorEnv  # noqa: E402


def choose(w, obs, mask, rng, greedy=False):
    """Per row: a legal action of the softmax policy (Gumbel-max sampling), with its probabilities."""
    z = obs @ w.T
    z = np.where(mask > 0, z, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    if greedy:
        return z.argmax(axis=1), p
    return (z + rng.gumbel(size=z.shape)).argmax(axis=1), p


def run(env, w, rng, hands, learn=False, seconds=None, lr=0.02):
    """Play until ``hands`` hands ended (or ``seconds`` passed); seat 0 plays ``w`` (None: random).
    Returns (mean hand reward of seat 0, hands, steps)."""
    obs, info = env.reset(seed=int(rng.integers(2**31)))
    trace = [[] for _ in range(env.num_envs)]    # per row: seat 0's (obs, probs, action) this hand
    total, done, steps, baseline = 0.0, 0, 0, 0.0
    start = time.perf_counter()
    while done < hands and (seconds is None or time.perf_counter() - start < seconds):
        mask = info["action_mask"]
        actions = env.sample(mask, rng)
        mine = np.flatnonzero(info["seat"] == 0)
        if w is not None and len(mine):
            a, p = choose(w, obs[mine], mask[mine], rng)
            actions[mine] = a
            if learn:
                for k, i in enumerate(mine):
                    trace[i].append((obs[i], p[k], a[k]))
        hand = info["hand"]
        obs, rewards, terminated, _, info = env.step(actions)
        steps += env.num_envs
        over = np.flatnonzero(terminated | (info["hand"] != hand))
        for i in over:
            r = float(rewards[i, 0])
            total += r
            done += 1
            if learn and trace[i]:   # REINFORCE: (onehot(a) - p) x, weighted by the advantage
                x = np.stack([t[0] for t in trace[i]])
                g = -np.stack([t[1] for t in trace[i]])
                g[np.arange(len(trace[i])), [t[2] for t in trace[i]]] += 1.0
                w += lr * (r - baseline) * (g.T @ x)
                baseline += 0.01 * (r - baseline)
            trace[i] = []
    return total / max(done, 1), done, steps


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="watten")
    ap.add_argument("--variant", default="bavarian_2")
    ap.add_argument("--seconds", type=float, default=60.0, help="training time")
    ap.add_argument("--envs", type=int, default=128, help="matches stepped together")
    ap.add_argument("--eval-hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    env = VectorEnv(args.game, args.envs, args.variant, reward="hand")
    w = np.zeros((env.num_actions, env.observation_size), dtype=np.float32)
    before, hands, _ = run(env, w, rng, args.eval_hands)
    print(f"{args.game} {args.variant}: seat 0 untrained (uniform over legal actions) against random: "
          f"mean hand reward {before:+.3f} over {hands} hands")
    _, hands, steps = run(env, w, rng, 1 << 62, learn=True, seconds=args.seconds)
    print(f"REINFORCE for {args.seconds:g} s: {hands} hands, {steps} steps of {args.envs} matches "
          f"({steps / args.seconds:,.0f} steps/s)")
    after, hands, _ = run(env, w, rng, args.eval_hands)
    print(f"seat 0 trained against random: mean hand reward {after:+.3f} over {hands} hands")
    return before, after


if __name__ == "__main__":
    main()
