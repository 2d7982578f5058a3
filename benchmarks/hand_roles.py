"""Where a bot gains against another in Watten for three: the first hand of a match, by role.

    python3 benchmarks/hand_roles.py -n 150 --seed 90000 -j 2 --log roles.jsonl
    python3 benchmarks/hand_roles.py --bot pimc-classic -n 150 --log roles-classic.jsonl
    python3 benchmarks/hand_roles.py --tally roles.jsonl
    python3 benchmarks/hand_roles.py --flips roles.jsonl     # where the duo's flipped hands parted

A match of Bavarian 3 is a long, noisy measure: the first hand from 0 : 0 : 0 is a sharper one.
Each seed's first hand is played four times with the same deal: ``--opponent`` (default
``pimc-old``, ``benchmarks/pimc_ab.py``) in every seat, then ``--bot`` (default ``pimc``) in seat
0, 1 and 2 in turn among it.  The seat's gain relative to the others (its points minus the mean
of the other two seats' points) with the bot in it, minus the same with the opponent in it, is
the bot's edge on that deal, split by the seat's role in the hand: the **solo** (forehand, who
names Schlag and trump and plays alone) or the **duo** (the other two, partners for this hand).
With the bot in the duo its partner is the opponent bot.

The tally splits each role once more: whether the bets (the Ansage, raises, answers - the duo's
two seats taken as one) went the same way as with the opponent in the seat, and whether the
winner of the hand changed.  A winner changed with the same bets is *not* always the card
play's doing: the same bets may be made at other moments (one duo seat raising before its first
card, the other after a trick).  ``--flips`` replays each such duo hand to the decision where it
parted from the reference and values both choices on 200 sampled worlds and on the true deal.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pimc_ab  # noqa: E402,F401  (registers pimc-old)

VARIANT = "bavarian_3"
BETS = ("schlag", "trump", "raise", "accept", "fold")


def lineup(bot: str, opponent: str, seat: int | None, budget, opponent_budget) -> tuple[tuple, tuple]:
    """(kinds, budgets) of seats 0-2: ``bot`` in ``seat`` among ``opponent`` (None: the opponent
    in every seat)."""
    return (tuple(bot if i == seat else opponent for i in range(3)),
            tuple(budget if i == seat else opponent_budget for i in range(3)))


def seated(seed: int, kinds: tuple, budgets) -> tuple:
    """The first hand's state of seed's match, the bots of seats 0-2 and their fallback rngs."""
    import stich
    import stich.bots.search  # noqa: F401
    from stich.arena.table import fallback_rng
    from stich.bots import make_bot

    state = stich.game("watten", variant=VARIANT).new_state(seed=seed)
    bots = [make_bot(k, seed=seed * 31 + i, budget=budgets[i]) for i, k in enumerate(kinds)]
    return state, bots, [fallback_rng(seed, s) for s in range(3)]


def first_hand(seed: int, kinds: tuple, budgets) -> dict:
    """The first hand of seed's match with ``kinds`` in seats 0-2 (``budgets``: each seat's):
    forehand, gains, bets."""
    from stich.arena.table import ask

    state, bots, rngs = seated(seed, kinds, budgets)
    hand, before, forehand, bets = state.hand_number, list(state.scores), None, []
    while not state.is_terminal() and state.hand_number == hand:
        seat = state.current_player
        action, _fault = ask(bots[seat], state, seat, rngs[seat])
        if action.split(" ", 1)[0] in BETS:
            forehand = state.forehand
            bets.append(f"{seat}:{action}")
        state.apply(action)
    return {"seed": seed, "kinds": list(kinds), "forehand": forehand, "bets": bets,
            "gain": [b - a for a, b in zip(before, state.scores, strict=True)]}


def first_difference(seed: int, seat: int, bot: str, opponent: str, budget, opponent_budget,
                     worlds: int = 200) -> dict | None:
    """Where the hand with ``bot`` in ``seat`` first parts from the hand with ``opponent`` there
    (both played in step, the other seats the same bots with the same seeds): the decision, both
    choices, and each choice's value for the seat (``solver.evaluate``: the hand's points, 16
    playouts or an exact solve) averaged on ``worlds`` uniform worlds of the seat's view and on
    the true deal.  A raise is valued as its playouts value it (they never fold), so only a
    card against a card compares fairly.  None when the two hands never part."""
    import random

    from stich.arena.table import ask
    from stich.bots.search.common import draw_worlds
    from stich.bots.search.solver import evaluate

    a, bots_a, rngs_a = seated(seed, *lineup(bot, opponent, None, budget, opponent_budget))
    b, bots_b, rngs_b = seated(seed, *lineup(bot, opponent, seat, budget, opponent_budget))
    hand = a.hand_number
    while not a.is_terminal() and a.hand_number == hand:
        who = a.current_player
        mine, _ = ask(bots_a[who], a, who, rngs_a[who])
        theirs, _ = ask(bots_b[who], b, who, rngs_b[who])
        if mine != theirs:
            rng = random.Random(seed)
            pair = [mine, theirs]
            drawn = draw_worlds(a.view(who), rng, worlds, None)
            sampled = dict.fromkeys(pair, 0.0)
            for world in drawn:
                for k, v in evaluate(world, who, pair, rng, 16, 12)[0].items():
                    sampled[k] += v / len(drawn)
            true = evaluate(a.clone(), who, pair, rng, 64, 12)[0]
            return {"seed": seed, "seat": who, "opponent_choice": mine, "bot_choice": theirs,
                    "worlds": len(drawn), "sampled": sampled, "true": true}
        a.apply(mine)
        b.apply(theirs)
    return None


def one_seed(args) -> list[dict]:
    seed, bot, opponent, budget, opponent_budget = args
    return [first_hand(seed, *lineup(bot, opponent, s, budget, opponent_budget)) for s in (None, 0, 1, 2)]


def _splits(rows: list[dict]):
    """Per seed and seat with the bot in it: ((seed, bot, opponent), seat, role, split, edge)."""
    by = defaultdict(dict)
    for r in rows:
        by[(r["seed"], r.get("bot"), r.get("opponent"))][tuple(r["kinds"])] = r
    for key, hands in by.items():
        _seed, bot, opp = key
        base = hands.get((opp,) * 3)
        for s in range(3):
            got = hands.get(tuple(bot if i == s else opp for i in range(3)))
            if base is None or got is None or got["forehand"] is None:
                continue

            def rel(r, s=s):
                return r["gain"][s] - sum(r["gain"][i] for i in range(3) if i != s) / 2

            def side(bets, solo=got["forehand"]):   # the duo's two seats as one
                return [("S" if b.split(":")[0] == str(solo) else "D") + b.split(":", 1)[1] for b in bets]

            role = "solo" if got["forehand"] == s else "duo"
            same_bets = side(got["bets"]) == side(base["bets"])
            flipped = (got["gain"][got["forehand"]] > 0) != (base["gain"][base["forehand"]] > 0)
            split = ("same bets" if same_bets else "bets differ") + (", winner changed" if flipped else "")
            yield key, s, role, split, rel(got) - rel(base)


def tally(rows: list[dict]) -> dict:
    """Per role and split: [edges] (see the module docstring)."""
    out = defaultdict(list)
    for (_seed, bot, opp), _seat, role, split, edge in _splits(rows):
        out[(bot, opp, role, "all")].append(edge)
        out[(bot, opp, role, split)].append(edge)
    return out


def flips(rows: list[dict]) -> list[tuple[int, int, str, str]]:
    """(seed, seat, bot, opponent) of the duo hands whose winner changed with the same bets."""
    out = []
    for (seed, bot, opp), seat, role, split, _edge in _splits(rows):
        if role == "duo" and split == "same bets, winner changed":
            out.append((seed, seat, bot, opp))
    return sorted(out)


def budgets(a) -> tuple:
    """The bot's and the opponent's budgets from the options ("default": the bot's own)."""
    return tuple(None if x == "default" else x for x in (a.budget, a.opponent_budget or a.budget))


def show_flips(rows: list[dict], a) -> int:
    budget, other = budgets(a)
    for seed, seat, bot, opp in flips(rows):
        d = first_difference(seed, seat, bot, opp, budget, other)
        if d is None:
            print(f"seed {seed} seat {seat}: the hands never parted (another budget than the log's?)")
            continue
        x, y = d["opponent_choice"], d["bot_choice"]
        print(f"seed {seed} seat {d['seat']}: {opp} {x}, {bot} {y}; on {d['worlds']} worlds "
              f"{d['sampled'][x]:+.3f} / {d['sampled'][y]:+.3f}, on the true deal {d['true'][x]:+.3f} / "
              f"{d['true'][y]:+.3f}", flush=True)
    return 0


def report(groups: dict) -> None:
    for (bot, opp, role, split), edges in sorted(groups.items()):
        n = len(edges)
        m = sum(edges) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in edges) / (n - 1)) if n > 1 else 0.0
        print(f"{bot} vs {opp}  {role:4s}  {split:30s}  n {n:4d}  edge {m:+.2f} ± {1.96 * sd / math.sqrt(n):.2f} "
              f"points/hand  better {sum(x > 0 for x in edges)} worse {sum(x < 0 for x in edges)}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=50, help="seeds (deals)")
    ap.add_argument("--seed", type=int, default=90000)
    ap.add_argument("--bot", default="pimc")
    ap.add_argument("--opponent", default="pimc-old")
    ap.add_argument("--budget", default="16", help="worlds per decision of both (default 16)")
    ap.add_argument("--opponent-budget", default=None, help="the opponent's (default: --budget)")
    ap.add_argument("-j", type=int, default=1, help="processes")
    ap.add_argument("--log", metavar="FILE", help="append one JSON line per hand")
    ap.add_argument("--tally", nargs="+", metavar="FILE", help="print the results of logs and exit")
    ap.add_argument("--flips", nargs="+", metavar="FILE",
                    help="for the duo hands of logs whose winner changed with the same bets: where the two "
                         "hands parted, and both choices valued on 200 worlds and on the true deal")
    a = ap.parse_args(argv)
    if a.tally:
        report(tally([json.loads(line) for path in a.tally for line in open(path)]))
        return 0
    if a.flips:
        return show_flips([json.loads(line) for path in a.flips for line in open(path)], a)
    jobs = [(seed, a.bot, a.opponent, *budgets(a)) for seed in range(a.seed, a.seed + a.n)]
    rows = []
    with ProcessPoolExecutor(a.j) as pool:
        for got in pool.map(one_seed, jobs):
            for r in got:
                r.update(bot=a.bot, opponent=a.opponent)
                rows.append(r)
                if a.log:
                    with open(a.log, "a") as f:
                        f.write(json.dumps(r) + "\n")
    report(tally(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
