"""The default bot of two versions of stich on the same positions: decisions per CPU second.

    git archive b2745e3 src | tar -x -C /tmp/old            # the version to compare with
    python3 benchmarks/same_positions.py dump pos/ watten:blind battn
    python3 benchmarks/same_positions.py time pos/ watten:blind --reps 3
    PYTHONPATH=/tmp/old/src python3 benchmarks/same_positions.py time pos/ watten:blind --reps 3

``dump`` writes, per game, the first ``-n`` decisions with two or more legal actions met in
heuristic self-play (matches from ``--seed``, the cut skipped; ``benchmarks/bot_speed.py``'s
positions) as ``DIR/<game>.json``: the seat's view and the legal actions.  ``time`` lets
``make_bot("pimc", seed=1)`` answer each of them once, ``--reps`` times, and prints the
decisions per CPU second of each repetition and the version's path.  The script uses only
``stich.game``, ``make_bot`` and the views, so an older tree runs it too (by ``PYTHONPATH``).

A shared machine moves CPU times by a quarter between runs; instruction counts do not move.
``--reps 0`` does everything but the decisions, so that

    valgrind --tool=callgrind python3 benchmarks/same_positions.py time pos/ watten:blind --reps 1 -n 100

minus the same with ``--reps 0`` is what 100 decisions cost, in instructions, the same on any
run (``docs/bots.md``, "Counted, not timed").  A version reads the views of its own time: where
an older one cannot read today's (its decisions take a fraction of a millisecond: its fallback),
dump its own positions with it and compare those.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bot_speed import decisions, positions  # noqa: E402  (stich.game and make_bot only: any version runs them)


def path(folder: str, spec: str) -> str:
    return os.path.join(folder, spec.replace(":", "_") + ".json")


def timed(pos: list, reps: int) -> list[float]:
    """Decisions per CPU second of ``pimc`` at its default (``bot_speed.decisions``: a fresh bot
    each repetition, each view a private copy), ``reps`` times."""
    import stich.bots.search  # noqa: F401  (registers pimc)

    return [len(pos) / max(sum(decisions("pimc", pos, None)), 1e-9) for _ in range(reps)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("dump", "time"))
    ap.add_argument("folder")
    ap.add_argument("games", nargs="+", help="game or game:variant")
    ap.add_argument("-n", type=int, default=200, help="positions per game")
    ap.add_argument("--seed", type=int, default=9000)
    ap.add_argument("--reps", type=int, default=3)
    a = ap.parse_args(argv)
    import stich

    for spec in a.games:
        name, _, variant = spec.partition(":")
        if a.what == "dump":
            os.makedirs(a.folder, exist_ok=True)
            with open(path(a.folder, spec), "w") as f:
                json.dump(positions(name, variant or None, a.n, a.seed), f)
            continue
        with open(path(a.folder, spec)) as f:
            pos = json.load(f)[:a.n]
        rates = timed(pos, a.reps)
        print(f"{spec:20s} {len(pos)} positions  {' '.join(f'{r:.1f}' for r in rates)} decisions/s  "
              f"({os.path.dirname(stich.__file__)})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
