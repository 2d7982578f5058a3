"""OpenSpiel example: the ISMCTS bot against random players on Watten (< 1 min on a CPU).

    python examples/openspiel_ismcts.py [--variant bavarian_4] [--hands 24] [--simulations 16]

Each OpenSpiel episode is one hand (see docs/research.md).  ISMCTS plays seats 0 and 2 (one
side), uniform random seats 1 and 3 (in two-player variants seat 0 against seat 1); chance nodes
deal the cards.  Prints the ISMCTS side's mean hand return (zero-sum, scaled by the target).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.bots.uniform_random import UniformRandomBot

import stich.openspiel  # noqa: F401  (registers the python_stich_* games)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="bavarian_4")
    ap.add_argument("--hands", type=int, default=24)
    ap.add_argument("--simulations", type=int, default=16)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    game = pyspiel.load_game(f"python_stich_watten_{args.variant}")
    n = game.num_players()
    rs = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    searcher = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=args.simulations, random_state=rs)
    team = {0, 2} if n == 4 else {0}
    bots = [searcher if p in team else UniformRandomBot(p, rs) for p in range(n)]
    t0 = time.time()
    results = []
    for _ in range(args.hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rs.choice(outcomes, p=probs)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        results.append(state.returns()[0])
    print(f"{game}: ISMCTS ({args.simulations} simulations) vs random over {args.hands} hands: "
          f"mean return {np.mean(results):+.3f} (won {sum(r > 0 for r in results)}, "
          f"lost {sum(r < 0 for r in results)}) in {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
