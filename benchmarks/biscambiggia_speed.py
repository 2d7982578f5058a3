"""Random full hands of Biscambiggia chiamata per second (one core, pure Python, CPU time).

    python3 benchmarks/biscambiggia_speed.py [seconds]

Plays matches of one hand each with uniformly random legal actions, through the public API
(``legal_actions`` / ``apply``), and reports hands/s and actions/s.
"""

from __future__ import annotations

import random
import sys
import time

import stich


def run(seconds: float = 3.0) -> tuple[float, float]:
    game = stich.game("biscambiggia", hands_per_match=1)
    rng = random.Random(1)
    hands = actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_state(seed=hands)
        while state.current_player >= 0:
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])
            actions += 1
        hands += 1
    elapsed = time.process_time() - start
    return hands / elapsed, actions / elapsed


if __name__ == "__main__":
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    hps, aps = run(secs)
    print(f"biscambiggia: {hps:,.0f} random full hands/s, {aps:,.0f} actions/s")
