"""Search bots against the heuristic bot: match-win rates with 95 % (Wilson) confidence intervals.

    python3 benchmarks/search_vs_heuristic.py                          # ismcts vs heuristic, all games
    python3 benchmarks/search_vs_heuristic.py --bot pimc --budget 0.2s -n 50 watten:euregio
    python3 benchmarks/search_vs_heuristic.py --bot cheat --budget 200 watten:bavarian_4
    python3 benchmarks/search_vs_heuristic.py --bot heuristic --opponent random battn
    python3 benchmarks/search_vs_heuristic.py --full-length ...         # the rules' match length

Duplicate deals, as in ``heuristic_vs_random.py``: each seed is played with the tested bot on
seats {0, 2} and again on {1, 3} (4 players); with 2 players the tested bot sits once in each
seat; with 3 or 5 players it sits once in every seat among opponents and is compared with the
opponent bot that held the same seat on the same deals (all opponents): a win = a better match
result (5 players: more marche; 3 players: the returns, then the final lead over the best other
seat), equal counts one half.  (With 3 players the share of matches the tested bot finishes first
is printed too, beside the opponent bot's share in the same seats (an equal player finishes first
about a third of the time), and how many seats' match results alone the tested bot won and lost.)

Matches are long, so by default they are **shortened** (printed in the output): Watten and Battn
to ``target`` 5 (Watten's lock_at follows as target - 2), Biscambiggia ``hands_per_match`` 5,
Barbu as it is (if present; 28 deals are slow).  The budget is per decision (``--budget``: "1s",
"0.25s", "200" iterations).  Several processes (``-j``) play different seeds in parallel; the
time per decision is measured per process (one core each).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import stich
from stich.arena.stats import wilson

CONFIGS = [("watten", v) for v in ("euregio", "bavarian_4", "bavarian_3", "bavarian_2",
                                   "tyrolean", "guate", "blind")]
CONFIGS += [("battn", None), ("biscambiggia", None), ("barbu", None)]
SHORT = {"watten": {"target": 5}, "battn": {"target": 5}, "biscambiggia": {"hands_per_match": 5}, "barbu": {}}


def make_game(name, variant, full):
    opts = {} if full else SHORT.get(name, {})
    return stich.game(name, variant=variant, **opts) if variant else stich.game(name, **opts)


OPTIONS: dict = {}


def play(game, seed, kinds, bot_seed, budget, options=None, budgets=None, observe=None):
    """One match; ``observe(state, seat, action)``, if given, sees every action before it is
    applied (``free_rolls.py`` replays logged matches through it)."""
    import stich.bots.heuristic  # noqa: F401  (registers "heuristic")
    import stich.bots.search  # noqa: F401  (registers the search bots)
    from stich.arena.table import ask, fallback_rng
    from stich.bots import make_bot

    state = game.new_state(seed=seed)
    # Every search bot gets the budget (pimc-classic too: the comparison is at equal budgets)
    # unless ``budgets`` names its own (--opponent-budget); the options are the tested bot's knobs.
    # "default": the bot's own default (``pimc``: 16 worlds, more where the game declares SEARCH_WORLDS).
    budgets = {k: (None if b == "default" else b) for k, b in (budgets or {}).items()}
    budget = None if budget == "default" else budget
    bots = [make_bot(k, seed=bot_seed * 31 + i, budget=budgets.get(k, budget) if _searches(k) else None,
                     **(options or {} if k in ("pimc", "ismcts") else {}))
            for i, k in enumerate(kinds)]
    rngs = [fallback_rng(seed, s) for s in range(game.num_players)]
    think: dict[str, list] = {}   # per bot name: [CPU seconds, decisions, slowest]
    faults = 0
    while not state.is_terminal():
        seat = state.current_player
        t = time.process_time()
        action, fault = ask(bots[seat], state, seat, rngs[seat])
        dt = time.process_time() - t
        if _searches(kinds[seat]):
            th = think.setdefault(kinds[seat], [0.0, 0, 0.0])
            th[0] += dt
            th[1] += 1
            th[2] = max(th[2], dt)
        faults += fault is not None
        if observe is not None:
            observe(state, seat, action)
        state.apply(action)
    return (state.returns(), list(state.scores)), think, faults


def _searches(kind: str) -> bool:
    """A search bot (it takes a budget): pimc and its variants, ismcts, cheat."""
    return kind.split("-", 1)[0] in ("pimc", "ismcts", "cheat")


def _margin(scores, seat):
    """A seat's final lead over the best other seat (per-seat scores)."""
    return scores[seat] - max(x for s, x in enumerate(scores) if s != seat)


def three_seat_result(got, base, seat) -> float:
    """With three players, a seat's duplicate result against the opponent bot that held it on the
    same deals: the match result, then the final lead; equal counts one half.  ``got`` and
    ``base`` are ``(returns, scores)``."""
    mine = (got[0][seat], _margin(got[1], seat))
    theirs = (base[0][seat], _margin(base[1], seat))
    return 1.0 if mine > theirs else (0.5 if mine == theirs else 0.0)


def opponent_budgets(bot, opponent, opp_budget):
    """The ``budgets`` of :func:`play`: the opponent's own budget (--opponent-budget), if any."""
    return {opponent: opp_budget} if opp_budget and opponent != bot else None


def duplicate_results(n, bot, opponent, match):
    """The tested bot's duplicate results on one seed: ``match(kinds)`` plays (or looks up) the match
    with those bots in seats 0..n-1 and returns ``(returns, scores)``, or None when a chunked run
    was cut off before it.  Returns (results, firsts): win scores 0/0.5/1, and with 3 players
    whether the tested seat finished first, and whether the opponent bot did in that seat on
    the same deals: ``(mine, theirs)``."""
    results, firsts = [], []
    if n == 4:
        for side in (0, 1):
            got = match(tuple(bot if s % 2 == side else opponent for s in range(4)))
            if got is not None:
                mine = sum(got[0][s] for s in range(4) if s % 2 == side)
                results.append(1.0 if mine > 0 else (0.5 if mine == 0 else 0.0))
    elif n in (3, 5):
        # The tested bot in a seat against the opponent bot that held the same seat on the same
        # deals (all opponents).  5 players: more marche wins; 3 players: the match result, then
        # the final lead over the best other seat; equal counts one half.
        base = match((opponent,) * n)
        for seat in range(n):
            got = match(tuple(bot if s == seat else opponent for s in range(n)))
            if base is None or got is None:
                continue
            if n == 5:
                mine, theirs = got[0][seat], base[0][seat]
                results.append(1.0 if mine > theirs else (0.5 if mine == theirs else 0.0))
            else:
                firsts.append(tuple(1.0 if r[seat] > 0 else (0.5 if r[seat] == 0 else 0.0) for r in (got[0], base[0])))
                results.append(three_seat_result(got, base, seat))
    else:
        for seat in range(n):
            got = match(tuple(bot if s == seat else opponent for s in range(n)))
            if got is not None:
                results.append(1.0 if got[0][seat] > 0 else (0.5 if got[0][seat] == 0 else 0.0))
    return results, firsts


def one_seed(args):
    name, variant, full, seed, bot, opponent, budget, options, log, opp_budget = args
    budgets = opponent_budgets(bot, opponent, opp_budget)
    game = make_game(name, variant, full)
    think: dict[str, list] = {}
    faults = 0
    played = {}

    def match(kinds):
        nonlocal faults
        if kinds not in played:
            (ret, scores), th, f = play(game, seed, list(kinds), seed, budget, options, budgets)
            add_think(think, th)
            faults += f
            played[kinds] = (ret, scores)
            if log:
                _log_match(log, name, variant, full, seed, bot, opponent, budget, options, kinds,
                           ret, scores, th, f, opp_budget)
        return played[kinds]

    results, firsts = duplicate_results(game.num_players, bot, opponent, match)
    return results, think, faults, firsts


def add_think(total: dict, more: dict) -> None:
    for kind, (s, n, w) in more.items():
        t = total.setdefault(kind, [0.0, 0, 0.0])
        t[0] += s
        t[1] += n
        t[2] = max(t[2], w)


def think_text(think: dict, bot: str, opponent: str) -> str:
    """``think 0.201s/decision (max 0.95s)`` for the tested bot, and the opponent's when it searches."""
    out = []
    for kind in dict.fromkeys((bot, opponent)):
        if kind in think:
            s, n, w = think[kind]
            who = "" if kind == bot else f"{kind} "
            out.append(f"{who}{s / max(n, 1):.3f}s/decision (max {w:.2f}s)")
    return "think " + ", ".join(out) if out else "think -"


def _log_match(path, name, variant, full, seed, bot, opponent, budget, options, kinds, ret, scores, th, f,
               opp_budget=None):
    """One JSON line per finished match, appended at once: a chunked or cut-off run keeps every
    match it finished, and ``--tally`` pools the lines of several runs (and machines)."""
    row = {"game": name, "variant": variant, "full": full, "seed": seed, "bot": bot,
           "opponent": opponent, "budget": budget, "opponent_budget": opp_budget or budget,
           "options": options, "kinds": list(kinds),
           "returns": list(ret), "scores": list(scores),
           "think": {k: [round(s, 3), n, round(w, 3)] for k, (s, n, w) in th.items()},
           "faults": f, "host": f"{platform.node()}/{os.cpu_count()}cpu"}
    append_json_line(path, row)


def append_json_line(path, row: dict) -> None:
    """Append one JSON line at once (the logs of chunked runs, here and in vs_openspiel_ismcts.py)."""
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")


def json_lines(paths):
    """The rows of JSON-lines files, in order (blank lines skipped)."""
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    yield json.loads(line)


def print_result(label, results, firsts, think, bot, opponent, faults, tail=""):
    """One game's line (win rate, interval, matches, think times, faults) and, with 3 players, the
    share of matches finished first and how the final lead decided the seats whose match result
    was the same."""
    wins = sum(results)
    lo, hi = wilson(wins, len(results))
    print(f"{label:22s} win {wins / len(results):6.1%}  95% CI [{lo:.1%}, {hi:.1%}]  "
          f"matches {len(results):4d}  {think_text(think, bot, opponent)}  faults {faults}{tail}", flush=True)
    if firsts:
        mine, theirs = (sum(f[i] for f in firsts) / len(firsts) for i in (0, 1))
        won, lost = (sum(f[i] > f[1 - i] for f in firsts) for i in (0, 1))
        print(f"{'':22s} (finished first, ties shared: {mine:.1%} of {len(firsts)}, {opponent} in the same seats "
              f"{theirs:.1%}, an equal player about 1/3; the match result alone: {won} won, {lost} lost, "
              f"{len(firsts) - won - lost} the same)", flush=True)
        # Where the match result is the same the final lead decides the seat (duplicate_results):
        # how often it was the larger, the smaller or equal, split by both lost / both won.
        split = {0.0: [0, 0, 0], 1.0: [0, 0, 0]}
        for (mine_first, their_first), result in zip(firsts, results, strict=True):
            if mine_first == their_first and mine_first in split:
                split[mine_first][{1.0: 0, 0.0: 1, 0.5: 2}[result]] += 1
        (wl, ws, we), (ll, ls, le) = split[1.0], split[0.0]
        print(f"{'':22s} (where both lost, its final lead the larger {ll}, the smaller {ls}, equal {le}; "
              f"where both won, the larger {wl}, the smaller {ws}, equal {we})", flush=True)


def tally(paths):
    """Duplicate results from match logs (``--log``), per game, bots, budget and length."""
    groups: dict = {}
    for r in json_lines(paths):
        key = (r["game"], r["variant"], r["bot"], r["opponent"], r["budget"],
               r.get("opponent_budget") or r["budget"], json.dumps(r["options"], sort_keys=True), r["full"])
        groups.setdefault(key, {}).setdefault(r["seed"], {})[tuple(r["kinds"])] = r
    for (name, variant, bot, opponent, budget, opp_budget, options, full), seeds in sorted(groups.items(), key=str):
        n = len(next(iter(next(iter(seeds.values())).values()))["kinds"])
        results, firsts, think, faults = [], [], {}, 0
        for played in seeds.values():
            got, first = duplicate_results(
                n, bot, opponent,
                lambda kinds, played=played: (played[kinds]["returns"], played[kinds]["scores"])
                if kinds in played else None)
            results += got
            firsts += first
            for r in played.values():
                # logs before the opponent's think time was kept: the tested bot's only
                add_think(think, r.get("think") or {bot: [r["think_s"], r["think_n"], r["worst_s"]]})
                faults += r["faults"]
        if not results:
            continue
        hosts = sorted({r["host"] for played in seeds.values() for r in played.values()})
        length = "rules' match length" if full else "shortened"
        budgets = budget if opp_budget == budget else f"{budget} ({opponent} {opp_budget})"
        print(f"# {bot} vs {opponent}, budget {budgets}, options {options}, {length}, {len(seeds)} seeds, "
              f"hosts {', '.join(hosts)}")
        print_result(f"{name}:{variant}" if variant else name, results, firsts, think, bot, opponent, faults)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=20, help="seeds per game/variant")
    ap.add_argument("--seed", type=int, default=5000, help="first seed")
    ap.add_argument("--bot", default="ismcts", help="the bot under test (pimc, ismcts, cheat, heuristic)")
    ap.add_argument("--opponent", default="heuristic", help="the opponents (default heuristic)")
    ap.add_argument("--budget", default="0.25s",
                    help="per decision of the search bots: '1s', '0.25s', '200', or 'default' (the bot's own)")
    ap.add_argument("--opponent-budget", default=None,
                    help="the opponent's budget when it searches and differs (default: --budget); compare at "
                         "equal mean think time, which both bots' printed think times show")
    ap.add_argument("--full-length", action="store_true", help="the rules' match length (slow)")
    ap.add_argument("--search-only", default=None,
                    help="comma-separated verbs the search bot searches (e.g. play), or 'all'; it asks the "
                         "heuristic for the other decisions (default: the bot's own default per game)")
    ap.add_argument("--no-model", action="store_true", help="uniform worlds (no heuristic opponent model)")
    ap.add_argument("--model", action="store_true",
                    help="the opponent model on (pimc: the Ansage, bids and calls filter the worlds; default off)")
    ap.add_argument("--no-hybrid", action="store_true",
                    help="search a decision that offers a searched verb whole (the heuristic is not asked first)")
    ap.add_argument("--opt", action="append", default=[], metavar="KEY=VALUE",
                    help="a tuning knob of the search bot (pool_size, rollouts, exact_cards, exploration)")
    ap.add_argument("-j", type=int, default=1, help="processes")
    ap.add_argument("--log", metavar="FILE", help="append one JSON line per finished match (for --tally)")
    ap.add_argument("--tally", nargs="+", metavar="FILE", help="print the duplicate results of match logs and exit")
    ap.add_argument("which", nargs="*", help="game or game:variant (default: all)")
    a = ap.parse_args(argv)
    if a.opponent_budget and a.opponent == a.bot and a.opponent_budget != a.budget:
        # the budgets are given per bot name: one name cannot have two (it played both sides at
        # --budget, silently, and measured the bot against itself)
        ap.error(f"--opponent-budget needs an opponent other than --bot ({a.bot}); for one bot at two "
                 f"budgets use stich arena GAME --bots {a.bot}@{a.budget},{a.bot}@{a.opponent_budget} --duplicate")
    if a.tally:
        tally(a.tally)
        return 0
    configs = CONFIGS
    if a.which:
        configs = [(g, v) for g, v in CONFIGS if g in a.which or f"{g}:{v}" in a.which]
    configs = [(g, v) for g, v in configs if g in stich.games()]
    length = "rules' match length" if a.full_length else \
        "SHORTENED matches: " + ", ".join(f"{g} {o}" for g, o in SHORT.items() if o)
    extra = (f", searching only {a.search_only} (heuristic for the rest)" if a.search_only
             else ", search_only auto (the bot's default per game)") + \
        (", uniform worlds" if a.no_model else "") + (", not hybrid" if a.no_hybrid else "") + \
        "".join(f", {o}" for o in a.opt)
    budgets = a.budget if not a.opponent_budget else f"{a.budget} ({a.opponent} {a.opponent_budget})"
    print(f"# {a.bot} vs {a.opponent}, budget {budgets} per decision{extra}, {a.n} seeds (duplicate), {length}",
          flush=True)
    pool = ProcessPoolExecutor(a.j) if a.j > 1 else None
    try:
        for name, variant in configs:
            t = time.perf_counter()
            options = {}
            if a.search_only:
                options["search_only"] = None if a.search_only == "all" else a.search_only.split(",")
            if a.no_hybrid:
                options["hybrid"] = False
            for o in a.opt:
                key, _, value = o.partition("=")
                options[key] = float(value) if "." in value else int(value)
            if a.no_model:
                options["opponent_model"] = False
            if a.model:
                options["opponent_model"] = True
            jobs = [(name, variant, a.full_length, a.seed + i, a.bot, a.opponent, a.budget, options, a.log,
                     a.opponent_budget)
                    for i in range(a.n)]
            outs = list(pool.map(one_seed, jobs)) if pool else [one_seed(j) for j in jobs]
            results = [r for o in outs for r in o[0]]
            think: dict[str, list] = {}
            for o in outs:
                add_think(think, o[1])
            faults = sum(o[2] for o in outs)
            firsts = [r for o in outs for r in o[3]]
            print_result(f"{name}:{variant}" if variant else name, results, firsts, think, a.bot, a.opponent,
                         faults, f"  ({time.perf_counter() - t:.0f}s)")
    finally:
        if pool:
            pool.shutdown()


if __name__ == "__main__":
    sys.exit(main())
