"""Speed of the search bots: worlds/s of the sampler, playouts/s, decisions/s (CPU time of one process).

    python3 benchmarks/bot_speed.py                                   # the default bot, every game
    python3 benchmarks/bot_speed.py --bots pimc,pimc-classic -n 60 watten:euregio battn
    python3 benchmarks/bot_speed.py --before -n 30 watten:euregio     # and with the fast paths off

Instruction counts (the machine's load does not change them): run the same positions under
``valgrind --tool=callgrind`` with ``--no-parts --bots pimc``, with ``--no-parts --before-only``
and, for the fixed cost (start, positions), with ``--no-parts --bots heuristic``.

The positions are the decisions with two or more legal actions met in heuristic self-play
(matches from ``--seed``, the first ``-n`` decisions of each game after skipping the cut), the
same for every bot; each bot answers each of them once from the seat's view.  Printed per game:

* ``worlds/s`` - ``sample_worlds(view, rng, 16)`` on every position: the worlds ``pimc`` draws
  (uniform among the consistent ones; re-dealt from constraints where the game allows it);
  with ``--before`` also by replay alone and by replay with the heuristic opponent model
  (``pimc`` before the fast paths);
* ``playouts/s`` - playouts of the rest of the hand from those worlds, on the fast card-play path
  (``fastplay``) where it applies, and through the general engine (``common.rollout``);
* per bot: decisions per second of CPU time, the mean and the worst time of a decision.  With
  ``--before``, ``pimc`` is measured a second time as ``pimc (before)``: fast paths off and the
  heuristic opponent model on, as the bot was before them; and ``pimc-classic (before)``, the
  same with the heuristic's decisions (and its old raising) instead of the evaluated ones: the
  default bot as it was when issue #17 was filed, the baseline of its "4x" (printed as a ratio).
"""

from __future__ import annotations

import argparse
import json
import random
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


class Before:
    """The fast paths off (worlds by replay, playouts and solves by the engine) while it lasts."""

    def __enter__(self):
        from stich.bots.search import fastplay
        from stich.engine import worlds

        self.old = fastplay.ENABLED, worlds.REDEAL
        fastplay.ENABLED = worlds.REDEAL = False

    def __exit__(self, *exc):
        from stich.bots.search import fastplay
        from stich.engine import worlds

        fastplay.ENABLED, worlds.REDEAL = self.old


def worlds_per_second(pos, model=None, before=False):
    from stich.engine.worlds import WorldError, sample_worlds

    rng = random.Random(1)
    count = 0
    t = time.process_time()
    with Before() if before else _Nothing():
        for view, _legal in pos:
            try:
                count += len(sample_worlds(view, rng, 16, max_tries=400, model=model))
            except WorldError:
                pass
    return count / max(time.process_time() - t, 1e-9)


class _Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None


def playouts_per_second(pos):
    """Playouts of the rest of the hand from the sampled worlds: (fast path, engine) per second,
    and the share of worlds where the fast path applies."""
    from stich.bots.search import fastplay
    from stich.bots.search.common import rollout
    from stich.engine.worlds import WorldError, sample_worlds

    rng = random.Random(2)
    worlds = []
    for view, _legal in pos:
        try:
            worlds += sample_worlds(view, rng, 4, max_tries=400)
        except WorldError:
            pass
    kernels = [(w, fastplay.kernel(w)) for w in worlds]
    fast = [k for _w, k in kernels if k is not None]
    t = time.process_time()
    for k in fast:
        for _ in range(4):
            fastplay.playout(k.copy(), rng)
    fast_rate = 4 * len(fast) / max(time.process_time() - t, 1e-9) if fast else 0.0
    t = time.process_time()
    for w in worlds:
        for _ in range(4):
            rollout(w.clone(), w.hand_number, rng)
    engine_rate = 4 * len(worlds) / max(time.process_time() - t, 1e-9)
    return fast_rate, engine_rate, len(fast) / max(len(worlds), 1)


def decisions(kind, pos, budget, before=False):
    from stich.bots import make_bot

    opts = {"opponent_model": True} if before else {}
    bot = make_bot(kind, seed=1, budget=budget, **opts)
    times = []
    with Before() if before else _Nothing():
        for view, legal in pos:
            view = json.loads(json.dumps(view))   # a private copy, as a table gives
            t = time.process_time()
            bot.choose(view, legal)
            times.append(time.process_time() - t)
    return times


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=30, help="decisions per game")
    ap.add_argument("--seed", type=int, default=9000)
    ap.add_argument("--bots", default="pimc", help="comma-separated bot names")
    ap.add_argument("--budget", default=None, help="budget per decision (default: the bot's own)")
    ap.add_argument("--before", action="store_true",
                    help="also measure with the fast paths off and pimc's old opponent model")
    ap.add_argument("--before-only", action="store_true",
                    help="pimc with the fast paths off only (for instruction counts under callgrind)")
    ap.add_argument("--no-parts", action="store_true", help="decisions/s only (no worlds/s, playouts/s)")
    ap.add_argument("which", nargs="*", default=["watten:euregio", "watten:bavarian_4", "battn", "biscambiggia",
                                                   "barbu"])
    a = ap.parse_args(argv)
    from stich.bots.search.betting import lean_model

    print(f"# CPU time of one process, {a.n} decisions per game from heuristic self-play (seeds {a.seed}+)")
    for spec in a.which:
        name, _, variant = spec.partition(":")
        pos = positions(name, variant or None, a.n, a.seed)
        if not a.no_parts:
            line = f"{spec:18s} worlds/s {worlds_per_second(pos):8.0f}"
            if a.before:
                line += (f"  (replay {worlds_per_second(pos, before=True):.0f}, replay + heuristic model "
                         f"{worlds_per_second(pos, model=lean_model(), before=True):.0f})")
            fast, engine, share = playouts_per_second(pos)
            line += f"  playouts/s fast {fast:8.0f} ({share:.0%} of worlds)  engine {engine:7.0f}"
            print(line, flush=True)
        runs = [(kind, False) for kind in a.bots.split(",")]
        if a.before and "pimc" in a.bots.split(","):
            runs += [("pimc", True), ("pimc-classic", True)]
        if a.before_only:
            runs = [("pimc", True)]
        rate = {}
        for kind, before in runs:
            times = decisions(kind, pos, a.budget, before)
            total = sum(times)
            label = kind + (" (before)" if before else "")
            rate[label] = len(times) / total
            print(f"{spec:18s} {label:22s} {rate[label]:7.1f} decisions/s  mean {total / len(times):.3f}s  "
                  f"max {max(times):.2f}s", flush=True)
        if "pimc" in rate and "pimc-classic (before)" in rate:
            print(f"{spec:18s} pimc is {rate['pimc'] / rate['pimc-classic (before)']:.1f}x pimc-classic (before)",
                  flush=True)


if __name__ == "__main__":
    sys.exit(main())
