"""How well ``pimc``'s chance to win a hand (``p``) predicts the hands it really wins, and the
recalibration fitted on it (``src/stich/bots/search/calibration.py``).

    python3 benchmarks/calibrate_bets.py -n 40 -j 2 --log /tmp/cal.jsonl watten:guate battn
    python3 benchmarks/calibrate_bets.py --fit /tmp/cal.jsonl          # the tables and the fits
    python3 benchmarks/calibrate_bets.py --fit /tmp/cal.jsonl --write  # ... into calibration.json

Full-length matches of ``pimc`` (seated like ``search_vs_heuristic.py``: on one side of four, in one
seat otherwise) against ``--opponent`` (default ``pimc-classic``).  At each of pimc's bet decisions
(``betting.choose``: raise or play on, answer a raise, play on or give) it records the raw ``p``
(``bot.last_raw_p``), the opponents' raises so far in the hand, and, when the hand is over,
whether pimc's side won it (its zero-sum score change is positive) and whether it ended by a
give-away (a fold, a concession, a refusal).  ``--fit`` fits ``logit(won) = slope * logit(p) +
intercept + per_raise * raises`` (logistic regression, Newton's method) per game, variant and kind
on the hands played to the end, and prints the calibration tables before and after; ``--write``
puts the fits into ``src/stich/bots/search/calibration.json``, replacing those of the same game,
variant and kind and keeping the others (groups of fewer than
:data:`LEAST` decisions are left out).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import search_vs_heuristic as svh  # noqa: E402

import stich  # noqa: E402
from stich.bots.search.calibration import logit, sigmoid  # noqa: E402  (the bot's own: the fit's p is the bot's)


def one_seed(args):
    import stich.bots.heuristic  # noqa: F401
    import stich.bots.search  # noqa: F401
    from stich.bots import bets, make_bot
    from stich.bots.search.betting import their_raises
    from stich.bots.search.common import score_vector, utilities

    name, variant, seed, opponent, budget, log = args
    game = svh.make_game(name, variant, True)
    n = game.num_players
    decl = bets.declared(name)
    gives = set(decl.gives.values())
    layouts = [[s % 2 == side for s in range(4)] for side in (0, 1)] if n == 4 else \
        [[s == seat for s in range(n)] for seat in range(n)]
    rows = []
    for mine in layouts:
        bots = [make_bot("pimc" if m else opponent, seed=seed * 31 + i, budget=budget) for i, m in enumerate(mine)]
        state = game.new_state(seed=seed)
        pending, hand, before, last = [], state.hand_number, score_vector(state), None
        while not state.is_terminal():
            seat = state.current_player
            legal = [str(a) for a in state.legal_actions()]
            bot = bots[seat]
            bot.last_bet = None
            view = state.view(seat)
            action = bot.choose(view, legal)
            if mine[seat] and bot.last_bet is not None:
                kind, p, stake, answer = bot.last_bet
                raises = their_raises(state, view)   # what the bot discounted p by
                pending.append({"game": name, "variant": variant, "seed": seed, "seat": seat, "kind": kind,
                                "raw_p": round(bot.last_raw_p, 4), "p": round(p, 4), "raises": raises,
                                "stake": stake, "answer": answer})
            state.apply(action)
            last = action.split(" ", 1)[0]
            if state.is_terminal() or state.hand_number != hand:
                after = score_vector(state)
                u = utilities(game, before, after)
                for r in pending:
                    r["won"] = 1.0 if u[r["seat"]] > 0 else (0.5 if u[r["seat"]] == 0 else 0.0)
                    r["given"] = last in gives
                    rows.append(r)
                pending, hand, before = [], state.hand_number, after
    if log:
        for r in rows:
            svh.append_json_line(log, r)
    return rows


def fit(rows, steps=50, ridge=1e-3):
    """Logistic regression of ``won`` on (logit p, 1, raises): (slope, intercept, per_raise)."""
    w = [1.0, 0.0, 0.0]
    xs = [(logit(r["raw_p"]), 1.0, float(r["raises"])) for r in rows]
    ys = [r["won"] for r in rows]
    for _ in range(steps):
        g = [0.0] * 3
        h = [[ridge if i == j else 0.0 for j in range(3)] for i in range(3)]
        for x, y in zip(xs, ys, strict=True):
            q = sigmoid(sum(a * b for a, b in zip(w, x, strict=True)))
            for i in range(3):
                g[i] += (y - q) * x[i]
                for j in range(3):
                    h[i][j] += q * (1 - q) * x[i] * x[j]
        step = _solve(h, g)
        big = max(abs(v) for v in step)
        if big > 1.0:   # damped: a group that a feature nearly separates must not overshoot
            step = [v / big for v in step]
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-8:
            break
    return tuple(w)


def _solve(a, b):
    """Gaussian elimination for a small symmetric system."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        if abs(m[c][c]) < 1e-12:
            return [0.0] * n
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def table(rows, p_of):
    out = []
    for k in range(10):
        sel = [r for r in rows if min(int(p_of(r) * 10), 9) == k]
        if sel:
            out.append(f"    p {k / 10:.1f}-{(k + 1) / 10:.1f}: {len(sel):5d} decisions, mean p "
                       f"{sum(p_of(r) for r in sel) / len(sel):.2f}, won {sum(r['won'] for r in sel) / len(sel):.2f}")
    return out


def brier(rows, p_of):
    return sum((p_of(r) - r["won"]) ** 2 for r in rows) / len(rows)


#: the fewest decisions a fit rests on
LEAST = 150


def show_fit(paths, write=False):
    groups: dict = {}
    for r in svh.json_lines(paths):
        if not r["given"]:
            groups.setdefault((r["game"], r["variant"], r["kind"]), []).append(r)
    entries = []
    for key, rows in sorted(groups.items(), key=str):
        print(f"# {key[0]}:{key[1]} {key[2]}: {len(rows)} decisions in hands played to the end")
        if len(rows) < LEAST:
            print("    too few to fit")
            continue
        slope, intercept, per_raise = fit(rows)

        def fitted(r, s=slope, i=intercept, c=per_raise):
            return sigmoid(s * logit(r["raw_p"]) + i + c * r["raises"])

        print(f"  raw p (Brier {brier(rows, lambda r: r['raw_p']):.3f}):")
        print("\n".join(table(rows, lambda r: r["raw_p"])))
        print(f"  calibrated (Brier {brier(rows, fitted):.3f}):")
        print("\n".join(table(rows, fitted)))
        entries.append({"game": key[0], "variant": key[1], "kind": key[2], "slope": round(slope, 4),
                        "intercept": round(intercept, 4), "per_raise": round(per_raise, 4),
                        "decisions": len(rows)})
        print(f"  slope {slope:.3f}, intercept {intercept:.3f}, per raise {per_raise:.3f}")
    if write:
        from stich.bots.search import calibration

        # the groups fitted now replace theirs; the other games' and variants' fits stay
        fresh = {(e["game"], e["variant"], e["kind"]) for e in entries}
        try:
            kept = json.loads(calibration.PATH.read_text(encoding="utf-8"))["fitted"]
        except FileNotFoundError:
            kept = []
        entries = sorted([e for e in kept if (e["game"], e["variant"], e["kind"]) not in fresh] + entries,
                         key=lambda e: (e["game"], e["variant"] or "", e["kind"]))
        doc = {"about": "benchmarks/calibrate_bets.py --fit ... --write: logit(p') = slope * logit(p) + "
                        "intercept + per_raise * raises", "fitted": entries}
        tmp = calibration.PATH.with_suffix(".tmp")
        tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        tmp.replace(calibration.PATH)
        print(f"written: {calibration.PATH} ({len(entries)} fits)")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=20, help="seeds per game/variant")
    ap.add_argument("--seed", type=int, default=40000, help="first seed")
    ap.add_argument("--opponent", default="pimc-classic")
    ap.add_argument("--budget", default="16", help="per decision of the search bots (default 16 worlds)")
    ap.add_argument("-j", type=int, default=1, help="processes")
    ap.add_argument("--log", metavar="FILE", help="append one JSON line per bet decision")
    ap.add_argument("--fit", nargs="+", metavar="FILE", help="fit and print the tables of logs, and exit")
    ap.add_argument("--write", action="store_true", help="with --fit: write the fits to calibration.json")
    ap.add_argument("which", nargs="*", help="game or game:variant (default: the games that raise)")
    a = ap.parse_args(argv)
    if a.fit:
        show_fit(a.fit, a.write)
        return 0
    configs = [(g, v) for g, v in svh.CONFIGS if g in ("watten", "battn") and g in stich.games()]
    if a.which:
        configs = [(g, v) for g, v in svh.CONFIGS if g in a.which or f"{g}:{v}" in a.which]
    jobs = [(g, v, a.seed + i, a.opponent, a.budget, a.log) for g, v in configs for i in range(a.n)]
    with ProcessPoolExecutor(a.j) as pool:
        rows = [r for out in pool.map(one_seed, jobs) for r in out]
    print(f"{len(rows)} bet decisions" + (f", logged to {a.log}" if a.log else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
