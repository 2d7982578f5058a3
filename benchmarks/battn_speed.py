"""Random full turns of Battn per second (one core, pure Python, CPU time).

    python3 benchmarks/battn_speed.py [seconds]

Plays whole matches (to 21) with uniformly random legal actions through the public API
(``legal_actions`` / ``apply``) and reports turns/s (a turn = one deal, from the cut to the
scoring), actions/s and matches/s, for the default rules and for a quiet table (no Orbi
window, no Scheanara), where fewer decisions are taken per turn.
"""

from __future__ import annotations

import random
import sys
import time

import stich


def run(seconds: float = 3.0, **options) -> tuple[float, float, float]:
    game = stich.game("battn", **options)
    rng = random.Random(1)
    turns = actions = matches = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_state(seed=matches)
        while state.current_player >= 0:
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])
            actions += 1
        turns += state.hand_number
        matches += 1
    elapsed = time.process_time() - start
    return turns / elapsed, actions / elapsed, matches / elapsed


if __name__ == "__main__":
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    for label, opts in (("standard", {}), ("quiet", {"orbi_enabled": False, "scheanara_max": 0})):
        tps, aps, mps = run(secs, **opts)
        print(f"battn {label}: {tps:,.0f} random full turns/s, {aps:,.0f} actions/s, {mps:,.0f} matches/s")
