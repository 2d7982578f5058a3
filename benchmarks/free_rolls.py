"""Free rolls in three-player Watten: the raises a seat makes when losing the hand at the present
stake already loses it the match.

    python3 benchmarks/free_rolls.py LOG.jsonl [LOG.jsonl ...] [-j 2]

In such a position (its match value is 0 at the present stake and at one more, under the bets'
race model, ``stich.bots.bets``) a raise risks nothing more of the match and adds to what a won
hand brings, so a bot that plays for the match raises on almost any hand - and when the hand is
lost, it is lost at a higher stake, which the duplicate benchmark's tie-break (the final lead)
counts against it.

Replays the tested bot's matches of a ``pimc_ab.py`` / ``search_vs_heuristic.py`` log (``--log``;
three players) exactly as they were played (the same seeds and bots; a replay whose final score
differs from the log's is counted and left out), marks the tested bot's raises on a free roll,
and prints how many matches had one, how many such hands it won, how many matches ended with
one, and the benchmark's duplicate result (the match result, then the final lead) of the matches
that ended with its free roll and of the others.  (That split is selected by what happened, so
neither half is an estimate of a bot; it says where the figure comes from.)
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pimc_ab  # noqa: E402,F401  (registers pimc-old, the usual opponent of these logs)
import search_vs_heuristic as svh  # noqa: E402

from stich.arena.stats import wilson  # noqa: E402
from stich.bots import bets  # noqa: E402
from stich.bots.search import betting  # noqa: E402


def free_roll(score: bets.Score, stake: int) -> bool:
    """Raising from ``stake`` risks nothing more of the match: the hand lost at this stake or at
    one more leaves no chance to win it."""
    return score.value(lost=stake) <= 1e-9 and score.value(lost=stake + 1) <= 1e-9


def replay(row: dict) -> dict:
    """One logged match again, with the tested bot's free rolls marked, hand by hand."""
    seat = row["kinds"].index(row["bot"])
    game = svh.make_game(row["game"], row["variant"], row["full"])
    decl = bets.declared(row["game"])
    budgets = svh.opponent_budgets(row["bot"], row["opponent"], row.get("opponent_budget"))
    hands: list[dict] = []        # per hand: the seat's score before, and whether it free-rolled

    def observe(state, who, action):
        if not hands or hands[-1]["hand"] != state.hand_number:
            hands.append({"hand": state.hand_number, "before": state.scores[seat], "free": False})
        if who == seat and action == decl.raise_verb:
            score = betting.match_score(state, seat, state.view(seat))
            hands[-1]["free"] |= free_roll(score, decl.state_stake(state))

    (returns, scores), _think, _faults = svh.play(game, row["seed"], list(row["kinds"]), row["seed"],
                                                  row["budget"], row["options"], budgets, observe=observe)
    for hand, after in zip(hands, [h["before"] for h in hands[1:]] + [scores[seat]], strict=True):
        hand["won"] = after > hand["before"]
    free = [h for h in hands if h["free"]]
    return {"seed": row["seed"], "seat": seat, "same": list(scores) == list(row["scores"]),
            "free_hands": len(free), "free_won": sum(h["won"] for h in free),
            "ended_free": bool(hands and hands[-1]["free"])}


def tested_matches(rows: list[dict]) -> list[tuple[dict, dict]]:
    """(the tested bot's match, the all-opponent reference of its seed) for three-player logs."""
    refs = {(r["seed"], r["bot"], r["opponent"]): r for r in rows
            if len(r["kinds"]) == 3 and r["bot"] not in r["kinds"]}
    out = []
    for r in rows:
        ref = refs.get((r["seed"], r["bot"], r["opponent"]))
        if ref is not None and r["kinds"].count(r["bot"]) == 1:
            out.append((r, ref))
    return out


def report(pairs: list[tuple[dict, dict]], marked: list[dict]) -> list[str]:
    """The printed lines (see the module's docstring)."""
    same = [(row, ref, m) for (row, ref), m in zip(pairs, marked, strict=True) if m["same"]]
    lines = [f"replayed {len(marked)} matches, {len(same)} the same as the log"]
    if not same:
        return lines
    free = [m for _r, _f, m in same if m["free_hands"]]
    hands = sum(m["free_hands"] for m in free)
    lines.append(f"matches with a free roll of the tested bot: {len(free)} of {len(same)}; "
                 f"such hands {hands}, won {sum(m['free_won'] for m in free)}")
    for label, ended in (("ended with its free roll", True), ("the others", False)):
        results = [svh.three_seat_result((row["returns"], row["scores"]), (ref["returns"], ref["scores"]), m["seat"])
                   for row, ref, m in same if m["ended_free"] == ended]
        if not results:
            lines.append(f"{label}: none")
            continue
        lo, hi = wilson(sum(results), len(results))
        lines.append(f"{label}: {len(results)} matches, duplicate result {sum(results) / len(results):.1%} "
                     f"[{lo:.1%}, {hi:.1%}]")
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+", help="match logs (search_vs_heuristic.py / pimc_ab.py --log)")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="processes")
    a = ap.parse_args(argv)
    pairs = tested_matches(list(svh.json_lines(a.logs)))
    rows = [row for row, _ref in pairs]
    if a.jobs > 1:
        with ProcessPoolExecutor(a.jobs) as pool:
            marked = list(pool.map(replay, rows))
    else:
        marked = [replay(row) for row in rows]
    for line in report(pairs, marked):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
