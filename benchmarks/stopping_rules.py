"""Time management for ``pimc``'s card search, measured offline: worlds used against decision quality.

    python3 benchmarks/stopping_rules.py -n 300 watten:euregio battn barbu

Issue #38 asked for bots that spend their time where it matters: stop a decision early once one
card leads clearly, spend more where the cards are close.  This measures whether that pays before
a bot is built on it.  For ``-n`` card decisions with two or more cards (from ``pimc`` self-play,
full-length matches from ``--seed``), ``pimc``'s own evaluation (``solver.evaluate``: 4 playouts
per card and world, or the exact solve with at most 12 cards left) is run on ``--worlds`` sampled
worlds, in order, and on ``--truth`` further worlds whose average stands for each card's true value.
Each rule then reads the first worlds one at a time and picks the card with the best mean when it
stops; its **regret** is the truth's best value minus the truth's value of its card (in the
utility's points: a side's score change in the hand minus the opponents'), averaged over the
decisions, and **worlds** is how many it read.  Rules:

* ``fixed k`` - today's bot: ``k`` worlds whatever the decision;
* ``z Z, first F, cap C`` - after ``F`` worlds, stop once the leader beats every other card by
  more than ``Z`` standard errors of the paired difference (all cards are valued in the same
  worlds), or every card had the same value in every world so far; else go on, to ``C`` at most;
* ``loss E, first F, cap C`` - stop once the expected loss of playing the leader now (a normal
  approximation of each paired difference: ``s φ(m/s) - m Φ(-m/s)``, the largest over the
  other cards) is at most ``E`` points.

The rules share the worlds and the truth, so their differences are paired.
"""

from __future__ import annotations

import argparse
import math
import random
import sys


def decisions(name: str, variant: str | None, n: int, seed: int, worlds: int, truth: int) -> list:
    """``[(cards, [[value of each card] per world])]``: the first ``worlds`` rows for the rules, the
    rest for the truth."""
    import stich
    from stich.bots import make_bot
    from stich.bots.search.common import draw_worlds
    from stich.bots.search.solver import evaluate

    game = stich.game(name, variant=variant) if variant else stich.game(name)
    out = []
    while len(out) < n:
        state = game.new_state(seed=seed)
        seed += 1
        bots = [make_bot("pimc", seed=seed * 7 + i) for i in range(game.num_players)]
        while not state.is_terminal() and len(out) < n:
            seat = state.current_player
            legal = [str(a) for a in state.legal_actions()]
            view = state.view(seat)
            cards = [a for a in legal if a.split(" ", 1)[0] == game.card_verb]
            if len(cards) > 1:
                rng = random.Random(len(out))
                drawn = draw_worlds(view, rng, worlds, None) + draw_worlds(view, rng, truth, None)
                rows = []
                for w in drawn:
                    values, _exact = evaluate(w, seat, cards, rng, 4, 12)
                    rows.append([values[a] for a in cards])
                out.append((cards, rows[:worlds], rows[worlds:]))
            state.apply(bots[seat].choose(view, legal))
    return out


def _phi(x: float) -> float:
    return math.exp(-x * x / 2) / math.sqrt(2 * math.pi)


def _cdf(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def _diffs(rows: list, n: int, lead: int, j: int) -> tuple[float, float]:
    d = [rows[i][lead] - rows[i][j] for i in range(n)]
    mean = math.fsum(d) / n
    var = math.fsum((x - mean) ** 2 for x in d) / (n - 1)
    return mean, math.sqrt(var / n)


def run_rule(rows: list, kind: str, param: float, first: int, cap: int) -> tuple[int, int]:
    """``(card index, worlds read)`` of one rule on one decision."""
    k = len(rows[0])
    cap = min(cap, len(rows))
    for n in range(min(first, cap), cap + 1):
        sums = [math.fsum(rows[i][j] for i in range(n)) for j in range(k)]
        lead = max(range(k), key=lambda j: sums[j])
        if n == cap or kind == "fixed" or n < 2:
            if n == cap or kind == "fixed":
                return lead, n
            continue
        if kind == "z":
            if all(rows[i][j] == rows[i][lead] for i in range(n) for j in range(k)):
                return lead, n
            stop = True
            for j in range(k):
                if j != lead:
                    m, s = _diffs(rows, n, lead, j)
                    if m <= 0 or m <= param * s:
                        stop = False
                        break
        else:
            loss = 0.0
            for j in range(k):
                if j != lead:
                    m, s = _diffs(rows, n, lead, j)
                    loss = max(loss, (max(0.0, -m) if s == 0 else s * _phi(m / s) - m * _cdf(-m / s)))
            stop = loss <= param
        if stop:
            return lead, n
    return lead, cap


RULES = [("fixed", 0, 16, 16), ("fixed", 0, 8, 8), ("fixed", 0, 24, 24), ("fixed", 0, 32, 32),
         ("z", 2.5, 6, 16), ("z", 2.0, 6, 16), ("z", 1.5, 6, 16), ("z", 2.0, 4, 16), ("z", 2.0, 8, 32),
         ("loss", 0.01, 6, 16), ("loss", 0.02, 8, 24), ("loss", 0.04, 8, 24), ("loss", 0.04, 6, 32),
         ("loss", 0.08, 8, 32)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=300, help="card decisions per game")
    ap.add_argument("--seed", type=int, default=900, help="first match seed")
    ap.add_argument("--worlds", type=int, default=32, help="worlds the rules may read")
    ap.add_argument("--truth", type=int, default=48, help="further worlds that stand for the truth")
    ap.add_argument("which", nargs="+", help="game or game:variant")
    a = ap.parse_args(argv)
    for which in a.which:
        name, _, variant = which.partition(":")
        data = decisions(name, variant or None, a.n, a.seed, a.worlds, a.truth)
        print(f"{which}: {len(data)} card decisions, rules on up to {a.worlds} worlds, truth from {a.truth} more")
        for kind, param, first, cap in RULES:
            regret = used = 0.0
            for _cards, rows, true_rows in data:
                k = len(rows[0])
                true = [math.fsum(r[j] for r in true_rows) / len(true_rows) for j in range(k)]
                card, n = run_rule(rows, kind, param, first, cap)
                regret += max(true) - true[card]
                used += n
            label = f"fixed {cap}" if kind == "fixed" else f"{kind} {param:g}, first {first}, cap {cap}"
            print(f"  {label:28s} worlds {used / len(data):5.2f}  regret {regret / len(data):.4f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
