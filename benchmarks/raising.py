"""How high the bots raise: the distribution of stakes and raises per hand, per game.

    python3 benchmarks/raising.py --bots heuristic -n 40 watten:euregio battn
    python3 benchmarks/raising.py --bots pimc,heuristic -n 10 watten:bavarian_4
    python3 benchmarks/raising.py --bots pimc-classic -n 10 watten:euregio

``--bots A`` is self-play; ``--bots A,B`` seats A on the even seats and B on the odd ones (with 3
players A in seat 0 only; with 2, A in seat 0).  Full-length matches (the rules' target), seeds
from ``--seed``.  Per game it prints, over all hands played: the share of hands by the stake they
were decided for (the points the winning side scored: a fold counts the stake folded), the share
by the number of raises made in the hand, the mean stake and raises, the hands with 4 or more
raises, and the matches decided within a single hand's raising war (a side went from below half
the target to the target in one hand).  A bet's stake is the points of the hand's result, so
Battn's refused Orbi / declined X (2 points) and Watten's conceded 4-Punkte hands count too.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

CONFIGS = [("watten", v) for v in ("euregio", "bavarian_4", "bavarian_3", "bavarian_2",
                                   "tyrolean", "guate", "blind")] + [("battn", None)]


def one_match(args):
    name, variant, seed, kinds, budget = args
    import stich.bots.heuristic  # noqa: F401
    import stich.bots.search  # noqa: F401
    from stich.arena.table import ask, fallback_rng
    from stich.bots import make_bot

    game = stich.game(name, variant=variant) if variant else stich.game(name)
    n = game.num_players
    target = int(game.new_state(seed=0).view(0)["options"]["target"])
    seats = [kinds[s % len(kinds)] if n != 3 else kinds[0 if s == 0 else -1] for s in range(n)]
    bots = [make_bot(k, seed=seed * 31 + i, budget=budget if k.startswith(("pimc", "ismcts")) else None)
            for i, k in enumerate(seats)]
    rngs = [fallback_rng(seed, s) for s in range(n)]
    state = game.new_state(seed=seed)
    hands = []          # (stake, raises)
    wars = 0
    raises = 0
    hand = state.hand_number
    before = list(state.scores)
    while not state.is_terminal():
        seat = state.current_player
        action, _fault = ask(bots[seat], state, seat, rngs[seat])
        raises += str(action) == "raise"
        state.apply(action)
        if state.is_terminal() or state.hand_number != hand:
            delta = [b - a for a, b in zip(before, state.scores, strict=True)]
            stake = max(delta)
            hands.append((stake, raises))
            if raises and max(b for b, d in zip(before, delta, strict=True) if d == stake) < target / 2 \
                    and state.is_terminal():
                wars += 1
            raises = 0
            hand = state.hand_number
            before = list(state.scores)
    return hands, wars


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=20, help="matches per game")
    ap.add_argument("--seed", type=int, default=7000)
    ap.add_argument("--bots", default="heuristic", help="A (self-play) or A,B (A on even seats, B on odd)")
    ap.add_argument("--budget", default=None, help="search bots' budget per decision (default: their own)")
    ap.add_argument("-j", type=int, default=1, help="processes")
    ap.add_argument("which", nargs="*", help="game or game:variant (default: all Watten variants and Battn)")
    a = ap.parse_args(argv)
    kinds = a.bots.split(",")
    configs = [(g, v) for g, v in CONFIGS if not a.which or g in a.which or f"{g}:{v}" in a.which]
    print(f"# raising: {' vs '.join(kinds)}, {a.n} full-length matches per game, seeds from {a.seed}", flush=True)
    pool = ProcessPoolExecutor(a.j) if a.j > 1 else None
    try:
        for name, variant in configs:
            t = time.perf_counter()
            jobs = [(name, variant, a.seed + i, kinds, a.budget) for i in range(a.n)]
            outs = list(pool.map(one_match, jobs)) if pool else [one_match(j) for j in jobs]
            hands = [h for o in outs for h in o[0]]
            wars = sum(o[1] for o in outs)
            label = f"{name}:{variant}" if variant else name
            stakes = Counter(min(s, 9) for s, _ in hands)
            raises = Counter(min(r, 6) for _, r in hands)
            n = len(hands) or 1
            print(f"{label}: {len(hands)} hands in {a.n} matches ({time.perf_counter() - t:.0f}s)")
            print("  stake   " + "  ".join(f"{k}{'+' if k == 9 else ''}:{stakes[k] / n:5.1%}" for k in sorted(stakes)))
            print("  raises  " + "  ".join(f"{k}{'+' if k == 6 else ''}:{raises[k] / n:5.1%}" for k in sorted(raises)))
            print(f"  mean stake {sum(s for s, _ in hands) / n:.2f}, mean raises {sum(r for _, r in hands) / n:.2f}, "
                  f"hands with >=4 raises {sum(r >= 4 for _, r in hands)} ({sum(r >= 4 for _, r in hands) / n:.1%}), "
                  f"matches won from below half the target in one raised hand {wars}", flush=True)
    finally:
        if pool:
            pool.shutdown()


if __name__ == "__main__":
    sys.exit(main())
