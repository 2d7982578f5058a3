"""A fixed random-play workload for instruction counts (speed comparisons that do not depend on
the load of the machine):

    valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out python benchmarks/random_play.py
    callgrind_annotate /tmp/cg.out | head    # "PROGRAM TOTALS": instructions (Ir)

It plays uniformly random legal actions (only ``new_state``, ``legal_actions`` and ``apply``, so it
runs against any version of stich) for a fixed number of hands per game and prints the number of
actions per game, so that runs of versions whose random play differs can be compared per action.
"""

from __future__ import annotations

import random
import sys

import stich

TABLES = [("watten", "euregio"), ("watten", "tyrolean"), ("watten", "bavarian_4"), ("battn", None),
          ("biscambiggia", None), ("barbu", None)]


def play(name: str, variant, hands: int, seed: int = 1) -> int:
    g = stich.game(name, variant=variant)
    rng = random.Random(seed)
    choice = rng.choice
    actions = 0
    done = 0
    while done < hands:
        s = g.new_state(seed=rng.randrange(2**31))
        start = s.hand_number
        while not s.is_terminal() and s.hand_number - start < hands - done:
            s.apply(choice(s.legal_actions()))
            actions += 1
        done += max(1, s.hand_number - start)
    return actions


if __name__ == "__main__":
    # python benchmarks/random_play.py [HANDS [GAME[:VARIANT]]]  (default: 200 hands of every table)
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    tables = TABLES
    if len(sys.argv) > 2:
        name, _, variant = sys.argv[2].partition(":")
        tables = [(name, variant or None)]
    for name, variant in tables:
        print(name, variant or "", play(name, variant, hands) if hands else 0)
