"""Heuristic bot against the random bot: match-win rates with 95 % confidence intervals.

    python3 benchmarks/heuristic_vs_random.py                 # every game and variant, N=200
    python3 benchmarks/heuristic_vs_random.py -n 400 watten:euregio barbu
    python3 benchmarks/heuristic_vs_random.py --opponent pimc battn      # another opponent

Duplicate deals: each seed is played twice, the heuristic side on seats {0, 2} and then on
{1, 3} (4 players), so both sides get the same deals.  Games with another number of players put
one heuristic bot among random bots, once in every seat per seed:

* 2 players (watten bavarian_2): the heuristic wins the match or not;
* 3 players (watten bavarian_3): a win = the heuristic seat is a match winner (returns > 0);
* 5 players (biscambiggia): a win = the heuristic seat ends with more marche than the random
  bot that held the same seat on the same deals (ties count one half); the rate of finishing
  first (alone or shared) is printed too;
* 4-player individual scores (barbu): a win = the two heuristic seats together finish ahead
  of the two random seats.

A 4-player team game (watten, battn) counts a win for the side with returns > 0.
"""

from __future__ import annotations

import argparse
import sys
import time

import stich
import stich.bots.heuristic  # noqa: F401  (registers "heuristic")
from stich.arena.stats import wilson
from stich.bots import make_bot

CONFIGS = [("watten", v) for v in ("euregio", "bavarian_4", "bavarian_3", "bavarian_2",
                                   "tyrolean", "guate", "blind")]
CONFIGS += [("battn", None), ("biscambiggia", None), ("barbu", None)]


OPPONENT = "random"


def play(game, seed, kinds, bot_seed):
    state = game.new_state(seed=seed)
    bots = [make_bot(OPPONENT if k == "random" else k, seed=bot_seed * 31 + i) for i, k in enumerate(kinds)]
    while not state.is_terminal():
        seat = state.current_player
        legal = [str(a) for a in state.legal_actions()]
        state.apply(bots[seat].choose(state.view(seat), legal))
    return state.returns()


def measure(name, variant, n, seed0=1000):
    game = stich.game(name, variant=variant) if variant else stich.game(name)
    np_ = game.num_players
    wins = 0.0
    trials = 0
    firsts = 0.0
    for i in range(n):
        seed = seed0 + i
        if np_ == 4:
            for side in (0, 1):
                kinds = ["heuristic" if s % 2 == side else "random" for s in range(4)]
                ret = play(game, seed, kinds, seed)
                mine = sum(ret[s] for s in range(4) if s % 2 == side)
                wins += 1.0 if mine > 0 else (0.5 if mine == 0 else 0.0)
                trials += 1
        elif np_ == 5:
            base = play(game, seed, ["random"] * 5, seed)
            for seat in range(5):
                kinds = ["heuristic" if s == seat else "random" for s in range(5)]
                ret = play(game, seed, kinds, seed)
                wins += 1.0 if ret[seat] > base[seat] else (0.5 if ret[seat] == base[seat] else 0.0)
                top = max(ret)
                if ret[seat] == top:
                    firsts += 1.0 / sum(1 for r in ret if r == top)
                trials += 1
        else:
            for seat in range(np_):
                kinds = ["heuristic" if s == seat else "random" for s in range(np_)]
                ret = play(game, seed, kinds, seed)
                wins += 1.0 if ret[seat] > 0 else (0.5 if ret[seat] == 0 and np_ == 2 else 0.0)
                trials += 1
    lo, hi = wilson(wins, trials)
    extra = f"  first place {firsts / trials:.1%}" if np_ == 5 else ""
    return wins / trials, lo, hi, trials, extra


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=200, help="seeds per game/variant")
    ap.add_argument("--seed", type=int, default=1000, help="first seed")
    ap.add_argument("--opponent", default="random", help="the bot the heuristic plays against")
    ap.add_argument("which", nargs="*", help="game or game:variant (default: all)")
    a = ap.parse_args(argv)
    global OPPONENT
    OPPONENT = a.opponent
    configs = CONFIGS
    if a.which:
        configs = [(g, v) for g, v in CONFIGS
                   if g in a.which or f"{g}:{v}" in a.which]
    for name, variant in configs:
        t = time.perf_counter()
        rate, lo, hi, trials, extra = measure(name, variant, a.n, a.seed)
        label = f"{name}:{variant}" if variant else name
        print(f"{label:22s} win {rate:6.1%}  95% CI [{lo:.1%}, {hi:.1%}]  matches {trials:5d}"
              f"{extra}  ({time.perf_counter() - t:.0f}s)", flush=True)


if __name__ == "__main__":
    sys.exit(main())
