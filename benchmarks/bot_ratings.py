"""The bots' levels on the players' rating scale (docs/ratings.md, "The bots on the scale").

For each rating key, the levels play rated-like arena matches against each other: the key's variant
with its standard options, a round robin of pairs, each pair's bots seated alternately (in a
partnership game each side is one level).  Every level starts where a new player starts (Weng-Lin
mu 25, sigma 25/3: 1500 +- 350) and each match moves the two levels with the same model the server
rates people with (OpenSkill's Plackett-Luce), the match's winner ranked first (a draw: shared).  The
result is written to ``src/stich/web/bot_ratings.json``, which the leaderboards show.

    python benchmarks/bot_ratings.py                      # every key, the levels, 10 matches a pair
    python benchmarks/bot_ratings.py --keys barbu,biscambiggia --levels random,beginner,club,strong

A key measured again replaces its entry; the others stay."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from stich.arena.runner import Arena, parse_bots, run_arena
from stich.arena.stats import match_outcome
from stich.web import ratings

OUT = Path(__file__).resolve().parents[1] / "src" / "stich" / "web" / "bot_ratings.json"
#: each key's variant: the one its rated tables play most (its player count's standard variant)
VARIANTS = {"watten/4": ("watten", "euregio"), "watten/3": ("watten", "bavarian_3"),
            "watten/2": ("watten", "bavarian_2"), "battn": ("battn", None),
            "biscambiggia": ("biscambiggia", None), "barbu": ("barbu", None)}


def rate(records: list[dict], labels: list[str]) -> dict[str, dict]:
    """Each level's rating after the matches, in the schedule's order (deal, pair, seating)."""
    model = ratings._model()
    current = {lab: model.rating() for lab in labels}
    played = dict.fromkeys(labels, 0)
    for rec in sorted(records, key=lambda r: (r["deal"], r["pair"], r["seating"])):
        a, b = rec["pair"]
        outcome = match_outcome(rec)
        ra, rb = outcome[a]["result"], outcome[b]["result"]
        ranks = [1, 1] if ra == rb else ([1, 2] if ra > rb else [2, 1])
        [[current[a]], [current[b]]] = model.rate([[current[a]], [current[b]]], ranks=ranks)
        played[a] += 1
        played[b] += 1
    return {lab: {"rating": ratings.display(r.mu), "deviation": ratings.deviation(r.sigma), "matches": played[lab]}
            for lab, r in current.items()}


def measure(key: str, levels: list[str], matches: int, jobs: int, seed: int) -> dict:
    game, variant = VARIANTS[key]
    arena = Arena(game, parse_bots(",".join(levels)), games=matches, variant=variant, seed=seed)
    started = time.time()
    out = Path(f"bot-ratings-{key.replace('/', '-')}.jsonl")
    records = run_arena(arena, out=str(out), jobs=jobs)
    return {"variant": arena.variant, "levels": rate(records, [b.label for b in arena.bots]),
            "matches_per_pair": matches, "measured": time.strftime("%Y-%m-%d"),
            "seconds": round(time.time() - started)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keys", default=",".join(VARIANTS), help="rating keys, comma-separated")
    ap.add_argument("--levels", default="random,beginner,club,strong", help="bot levels, comma-separated")
    ap.add_argument("--matches", type=int, default=10, help="matches per pair of levels")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=36)
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args(argv)
    path = Path(args.out)
    table = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    for key in args.keys.split(","):
        table[key] = measure(key, args.levels.split(","), args.matches, args.jobs, args.seed)
        path.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(key, json.dumps(table[key]["levels"]), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
