"""Random-play speed of Watten: hands per second per variant (uniformly random legal actions).

A hand runs from its first action (the cut) until it is scored; the figure is CPU time of this
process, best of 5 runs (the machine may be shared).  Run:
    python3 benchmarks/watten_speed.py [seconds per variant]
"""

from __future__ import annotations

import random
import sys
import time

import stich


def hands_per_second(variant: str, seconds: float = 2.0, **options) -> float:
    g = stich.game("watten", variant=variant, **options)
    rng = random.Random(0)
    choice = rng.choice
    hands = 0
    seed = 0
    # CPU time of this process: robust against other processes sharing the core.
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        s = g.new_state(seed)
        seed += 1
        apply = s.apply
        legal = s.legal_actions
        while s.current_player >= 0:
            h = s.hand_number
            apply(choice(legal()))
            if s.hand_number != h or s.current_player < 0:
                hands += 1
    return hands / (time.process_time() - start)


if __name__ == "__main__":
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    for v in stich.game("watten").variants:
        best = max(hands_per_second(v, secs / 5) for _ in range(5))
        print(f"{v:12s} {best:8.0f} hands/s")
