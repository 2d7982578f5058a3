"""Decisions per second of a bot at its default budget (CPU time of one process).

    python3 benchmarks/bot_speed.py --bots pimc,pimc-classic -n 60 watten:euregio watten:bavarian_4 battn

The positions are the decisions with two or more legal actions met in heuristic self-play
(matches from ``--seed``, the first ``-n`` decisions of each game after skipping the cut), the
same for every bot; each bot answers each of them once from the seat's view.  Printed per game
and bot: decisions per second of CPU time, the mean and the worst time of a decision.
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def positions(name, variant, n, seed):
    import stich
    from stich.bots import make_bot

    game = stich.game(name, variant=variant) if variant else stich.game(name)
    out = []
    while len(out) < n:
        state = game.new_state(seed=seed)
        seed += 1
        bots = [make_bot("heuristic", seed=seed * 7 + i) for i in range(game.num_players)]
        while not state.is_terminal() and len(out) < n:
            seat = state.current_player
            legal = [str(a) for a in state.legal_actions()]
            view = state.view(seat)
            if len(legal) > 1 and not legal[0].startswith("cut"):
                out.append((view, legal))
            state.apply(bots[seat].choose(view, legal))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=60, help="decisions per game")
    ap.add_argument("--seed", type=int, default=9000)
    ap.add_argument("--bots", default="pimc", help="comma-separated bot names")
    ap.add_argument("--budget", default=None, help="budget per decision (default: the bot's own)")
    ap.add_argument("which", nargs="*", default=["watten:euregio", "watten:bavarian_4", "battn"])
    a = ap.parse_args(argv)
    from stich.bots import make_bot

    print(f"# decisions per CPU second, {a.n} decisions per game from heuristic self-play (seeds {a.seed}+)")
    for spec in a.which:
        name, _, variant = spec.partition(":")
        pos = positions(name, variant or None, a.n, a.seed)
        for kind in a.bots.split(","):
            bot = make_bot(kind, seed=1, budget=a.budget)
            times = []
            for view, legal in pos:
                view = json.loads(json.dumps(view))   # a private copy, as a table gives
                t = time.process_time()
                bot.choose(view, legal)
                times.append(time.process_time() - t)
            total = sum(times)
            print(f"{spec:18s} {kind:14s} {len(times) / total:7.1f} decisions/s  mean {total / len(times):.3f}s  "
                  f"max {max(times):.2f}s", flush=True)


if __name__ == "__main__":
    sys.exit(main())
