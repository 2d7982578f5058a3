"""The cost and the sanity of a match's analysis (issue #38): a whole Euregio match analysed for one
seat, wall time, and the share of the seat's decisions marked for a ``random`` seat and a ``strong``
one.

    python3 benchmarks/analysis.py                     # 3 full-length Euregio matches, 24 worlds
    python3 benchmarks/analysis.py -n 5 --worlds 24 --seed 100

Each seed is played twice at full length (the variant's own target): ``random`` in seats 1 and 3
against ``strong`` in seats 2 and 4 (a mixed match, where seat 1, random, and seat 2, strong, are
analysed), and ``strong`` in every seat (an even match, the long one a person plays against strong
bots; seat 1 analysed); each analysis with
``stich.bots.analysis.analyse`` - what ``stich analyse`` and the server run, one decision after
the other as the server's worker does.  Printed per seat kind: decisions, the share marked
(inaccuracy or worse) and per mark, the expected points lost per decision, and the time of one
seat's analysis of one match: wall seconds (median and maximum) and CPU seconds (median; the
figure to trust on a machine shared with other work).
"""

from __future__ import annotations

import argparse
import statistics
import time

import stich
from stich.bots import make_bot
from stich.bots.analysis import MARKS, analyse

#: the seats analysed (0-based) and their match: random in seats 0 and 2 against strong in 1 and 3
#: ("mixed"), or strong everywhere ("even": the long match a person plays against strong bots)
SEATS = {"random": ("mixed", 0), "strong": ("mixed", 1), "strong, even": ("even", 0)}


def play(seed: int, game: str, variant: str, even: bool = False) -> dict:
    g = stich.game(game, variant=variant)
    state = g.new_state(seed)
    bots = [make_bot("random" if seat % 2 == 0 and not even else "strong", seed=seed * 10 + seat)
            for seat in range(g.num_players)]
    while not state.is_terminal():
        seat = state.current_player
        state.apply(bots[seat].choose(state.view(seat), [str(a) for a in state.legal_actions()]))
    for bot in bots:
        bot.close()
    return state.record()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=3, help="matches (default 3)")
    ap.add_argument("--seed", type=int, default=100, help="the first match's seed (default 100)")
    ap.add_argument("--worlds", type=int, default=24, help="sampled worlds per decision (default 24, the server's)")
    ap.add_argument("--game", default="watten")
    ap.add_argument("--variant", default="euregio")
    args = ap.parse_args(argv)
    if args.n < 1 or args.worlds < 1:
        ap.error("-n and --worlds are at least 1")
    stats = {kind: {"decisions": 0, "marks": dict.fromkeys((m for m, _ in MARKS), 0), "loss": 0.0,
                    "seconds": [], "cpu": []} for kind in SEATS}
    actions = {"mixed": [], "even": []}
    for i in range(args.n):
        records = {match: play(args.seed + i, args.game, args.variant, match == "even") for match in actions}
        for match, record in records.items():
            actions[match].append(len(record["actions"]))
        for kind, (match, seat) in SEATS.items():
            record = records[match]
            started, cpu = time.perf_counter(), time.process_time()
            res = analyse(record, seat, worlds=args.worlds)
            s = stats[kind]
            s["seconds"].append(time.perf_counter() - started)
            s["cpu"].append(time.process_time() - cpu)
            s["decisions"] += len(res["decisions"])
            s["loss"] += res["total_loss"]
            for m in s["marks"]:
                s["marks"][m] += res["marks"][m]
    print(f"{args.game}:{args.variant}, {args.n} matches (seeds {args.seed}-{args.seed + args.n - 1}), "
          f"{statistics.mean(actions['mixed']):.0f} actions a mixed match, {statistics.mean(actions['even']):.0f} "
          f"an even one, {args.worlds} worlds a decision")
    print(f"{'seat':<12} {'decisions':>9} {'marked':>7} {'inacc.':>7} {'mistake':>7} {'blunder':>7} "
          f"{'loss/dec':>8} {'wall s':>7} {'max':>6} {'cpu s':>6}")
    for kind, s in stats.items():
        d = max(1, s["decisions"])
        marked = sum(s["marks"].values())
        print(f"{kind:<12} {s['decisions']:>9} {marked / d:>7.0%} {s['marks']['inaccuracy'] / d:>7.0%} "
              f"{s['marks']['mistake'] / d:>7.0%} {s['marks']['blunder'] / d:>7.0%} {s['loss'] / d:>8.2f} "
              f"{statistics.median(s['seconds']):>7.1f} {max(s['seconds']):>6.1f} {statistics.median(s['cpu']):>6.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
