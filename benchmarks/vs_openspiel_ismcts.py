"""stich's default bot (``pimc``) against OpenSpiel's own ``ISMCTSBot`` at equal time, hand by hand.

    python3 benchmarks/vs_openspiel_ismcts.py                             # every game, 0.25 s per decision
    python3 benchmarks/vs_openspiel_ismcts.py -n 20 --seed 7000 --log ismcts.jsonl watten:euregio
    python3 benchmarks/vs_openspiel_ismcts.py --simulations 40 battn      # no calibration pass
    python3 benchmarks/vs_openspiel_ismcts.py --hands 10 biscambiggia     # a match of ten hands per comparison
    python3 benchmarks/vs_openspiel_ismcts.py --tally ismcts.jsonl        # results of (several) logs

The games are loaded through ``stich.openspiel`` (``pyspiel.load_game("python_stich_<game>_<variant>")``),
so **the unit is one hand** (an OpenSpiel episode, the first hand of a match from 0 : 0;
docs/research.md); its returns are the adapter's per-hand rewards (zero-sum).  The deal is drawn at
the hand's chance nodes (dealer, engine seed, pack) from ``numpy.random.RandomState(seed)``, so a
seed is the same deal with the same chance outcomes whoever sits where.

``--hands K`` makes a comparison of K hands, each on its own deal (chance seed ``seed * 100 +
hand``), the seats' returns summed.  Where a match is a fixed number of hands whose scores simply
add up - Biscambiggia: ten hands of marche (its rules, BB-1.3), no target that play depends on -
``--hands 10`` is the full-length match, up to the dealer, which each hand's chance node draws
instead of passing it round.  In the games played to a target (Watten, Battn, Barbu's 28 deals
score by contract) the bids and bets depend on the match score, which an episode does not carry.

* ISMCTS: ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with ``mcts.RandomRolloutEvaluator``
  (one rollout, ``uct_c`` 2), as ``examples/openspiel_ismcts.py`` seats it, one bot per seat with
  its own ``RandomState``; its worlds come from the adapter's ``resample_from_infostate`` driven by
  that ``RandomState`` (OpenSpiel's default sampler is seeded from the clock, which would make runs
  irreproducible).  It answers every poll (a seat that may act out of turn, ``wait`` among its
  choices), as OpenSpiel walks the game.
* pimc: ``stich.bots.make_bot("pimc", budget=...)``, asked with ``stich.arena.table.ask`` from a
  private copy of its seat's view, exactly as at an arena table; like there, a bot that does not
  answer polls waits at them and acts on its own turns.
* A decision with one choice is applied without asking either bot (neither has anything to
  think about); the think times are CPU seconds (``time.process_time``) per decision with a choice.

**Equal time.**  ISMCTS has only ``max_simulations``.  Unless ``--simulations`` is given, each game
starts with a short calibration pass (one hand on seed ``--seed`` - 1, ISMCTS at 16 simulations):
it measures pimc's mean CPU time per decision at the budget and ISMCTS's CPU time per simulation,
and chooses ``ceil(1.1 * pimc_mean / per_simulation)`` simulations so that ISMCTS thinks at least
as long on average (both means are printed; check them).

**Duplicate deals.**  With 2 or 4 players each seed is played twice with the sides swapped (pimc on
seats {0, 2}, then ISMCTS there; with 2 players seat 0, then seat 1).  One comparison per seed: pimc
"wins" when its side's return on the first hand beats what ISMCTS got from the same seats on the
second (equal: one half).  With 3 or 5 players (Bavarian 3-player Watten, Biscambiggia) the scheme
of ``search_vs_heuristic.py``: a hand with ISMCTS in every seat, then one hand per seat with pimc in
that seat among ISMCTS; pimc's return in the seat is compared with ISMCTS's in the same seat.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from search_vs_heuristic import add_think, append_json_line, json_lines  # noqa: E402

CONFIGS = [("watten", v) for v in ("euregio", "bavarian_4", "bavarian_3", "bavarian_2",
                                   "tyrolean", "guate", "blind")]
CONFIGS += [("battn", "standard"), ("biscambiggia", "standard"), ("barbu", "standard")]
PROBE_SIMULATIONS = 16   # ISMCTS simulations of the calibration pass
MARGIN = 1.1             # ISMCTS gets this much more than pimc's measured mean time


def load(name, variant):
    import pyspiel

    import stich.openspiel  # noqa: F401  (registers the python_stich_* games)
    return pyspiel.load_game(f"python_stich_{name}_{variant}")


def _ismcts(game, seed, seat, simulations):
    """OpenSpiel's ISMCTSBot for one seat, seeded; its worlds drawn with its own RandomState."""
    from open_spiel.python.algorithms import ismcts, mcts

    rs = np.random.RandomState([seed % 2**31, seat, 17])
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0,
                           max_simulations=simulations, random_state=rs)
    # The adapter seeds its rejection sampler from the sampler it is given; OpenSpiel's default
    # (UniformProbabilitySampler) is seeded from the clock, so give it this bot's RandomState.
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rs.uniform))
    return bot


def play_hand(game, seed, kinds, budget, simulations):
    """One hand (an OpenSpiel episode) of ``game`` with ``kinds[seat]`` ("pimc" or "ismcts") per seat.

    Returns a dict: returns, deal (dealer, engine seed, pack: the chance outcomes), think per kind
    ``[cpu seconds, decisions, slowest]``, faults (pimc answers the table replaced), decisions.
    """
    import stich.bots.search  # noqa: F401  (registers pimc)
    from stich.arena.table import ask, fallback_rng
    from stich.bots import make_bot
    from stich.engine.turns import WAIT

    n = game.num_players()
    own = None if budget == "default" else budget   # "default": the bot's own budget for the game
    bots = [make_bot("pimc", seed=seed * 31 + s, budget=own) if k == "pimc" else _ismcts(game, seed, s, simulations)
            for s, k in enumerate(kinds)]
    rngs = [fallback_rng(seed, s) for s in range(n)]
    chance = np.random.RandomState(seed % 2**32)
    state = game.new_initial_state()
    think = {k: [0.0, 0, 0.0] for k in set(kinds)}
    faults = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(chance.choice(outcomes, p=probs)))
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        turns, st = state.turns, state.stich_state
        if kinds[seat] == "pimc":
            g = st.game
            if seat != st.current_player and not bots[seat].answers_polls:
                state.apply_action(g.action_index[WAIT])   # as at an arena table: it acts on its turns
                continue
            texts = [str(a) for a in turns.legal_actions()]
            t = time.process_time()
            text, fault = ask(bots[seat], st, seat, rngs[seat], texts)
            dt = time.process_time() - t
            faults += fault is not None
            action = g.action_index[text]
        else:
            t = time.process_time()
            action = int(bots[seat].step(state))
            dt = time.process_time() - t
        th = think[kinds[seat]]
        th[0] += dt
        th[1] += 1
        th[2] = max(th[2], dt)
        state.apply_action(action)
    return {"returns": [float(r) for r in state.returns()],
            "deal": {"dealer": state.dealer, "seed": state.seed, "pack": list(state.pack)},
            "think": think, "faults": faults, "decisions": len(state.actions),
            "history": [f"{s + 1}:{a}" for s, a in state.stich_state.history]}


def hand_seed(seed: int, hand: int, hands: int) -> int:
    """The chance seed of hand ``hand`` of ``seed``'s ``hands`` (one hand: the seed itself, as
    the logs before ``--hands``; several: ``seed * 100 + hand``, disjoint between seeds)."""
    return seed if hands == 1 else seed * 100 + hand


def seat_plans(n):
    """The hands of one seed: ``[kinds, ...]`` (see the module docstring)."""
    if n in (2, 4):
        return [tuple("pimc" if s % 2 == side else "ismcts" for s in range(n)) for side in (0, 1)]
    return [("ismcts",) * n] + [tuple("pimc" if s == seat else "ismcts" for s in range(n)) for seat in range(n)]


def paired(n, hands):
    """The comparisons of one seed, ``hands[kinds] = returns`` (a hand missing from a cut-off run
    leaves its comparison out): ``[(pimc's return, ISMCTS's return from the same seats), ...]``,
    per seat (a side's return divided by its seats)."""
    out = []
    if n in (2, 4):
        a, b = seat_plans(n)
        if a in hands and b in hands:
            seats = [s for s in range(n) if a[s] == "pimc"]
            out.append((sum(hands[a][s] for s in seats) / len(seats),
                        sum(hands[b][s] for s in seats) / len(seats)))   # ISMCTS on the same seats
        return out
    base = hands.get(("ismcts",) * n)
    for seat in range(n):
        got = hands.get(tuple("pimc" if s == seat else "ismcts" for s in range(n)))
        if base is not None and got is not None:
            out.append((got[seat], base[seat]))
    return out


def compare(n, hands):
    """pimc's duplicate results on one seed: 1 (a better return than ISMCTS's), 0.5 (equal) or 0."""
    return [1.0 if mine > theirs else 0.5 if mine == theirs else 0.0 for mine, theirs in paired(n, hands)]


def calibrate(game, seed, budget):
    """(simulations, pimc mean, ISMCTS seconds per simulation) from one measured hand."""
    n = game.num_players()
    r = play_hand(game, seed, seat_plans(n)[0 if n in (2, 4) else 1], budget, PROBE_SIMULATIONS)
    ps, pn, _ = r["think"]["pimc"]
    iss, isn, _ = r["think"]["ismcts"]
    pimc_mean = ps / max(pn, 1)
    per_sim = iss / max(isn, 1) / PROBE_SIMULATIONS
    return max(2, math.ceil(MARGIN * pimc_mean / max(per_sim, 1e-6))), pimc_mean, per_sim


def report(label, seeds, n, think, simulations, budget, faults, extra="", hands=1):
    """Print one game's line; ``seeds[seed][kinds] = returns`` (summed over ``hands`` hands)."""
    from stich.arena.stats import wilson

    results = [r for hands in seeds.values() for r in compare(n, hands)]
    nhands = hands * sum(len(h) for h in seeds.values())
    if not results:
        print(f"{label:22s} no complete comparison ({nhands} hands)", flush=True)
        return None
    wins = sum(results)
    lo, hi = wilson(wins, len(results))
    pairs = [p for hands in seeds.values() for p in paired(n, hands)]
    pimc_ret, ism_ret = [p[0] for p in pairs], [p[1] for p in pairs]

    def per(kind):
        s, c, w = think.get(kind, (0.0, 0, 0.0))
        return f"{s / max(c, 1):.3f}s (max {w:.2f}s, {c})"

    print(f"{label:22s} pimc win {wins / len(results):6.1%}  95% CI [{lo:.1%}, {hi:.1%}]  "
          f"deals {len(results):3d} (equal {results.count(0.5)})  hands {nhands:3d}  "
          f"think pimc {per('pimc')}  ismcts {per('ismcts')}  "
          f"simulations {simulations}  return/hand/seat pimc {np.mean(pimc_ret) / hands:+.3f} "
          f"ismcts {np.mean(ism_ret) / hands:+.3f}  "
          f"budget {budget}  faults {faults}{extra}", flush=True)
    return wins / len(results), lo, hi, len(results)


def tally(paths):
    groups: dict = {}
    for r in json_lines(paths):
        key = (r["game"], r["variant"], r["budget"], r["simulations"], r.get("hands", 1))
        groups.setdefault(key, []).append(r)
    for (name, variant, budget, sims, hands), rows in sorted(groups.items(), key=str):
        played: dict = {}   # seed -> kinds -> hand -> returns
        think: dict = {}
        for r in rows:
            played.setdefault(r["seed"], {}).setdefault(tuple(r["kinds"]), {})[r.get("hand", 0)] = r["returns"]
            add_think(think, r["think"])
        # a comparison counts its seats' returns summed over all its hands; one cut off is left out
        seeds = {seed: {kinds: [sum(x) for x in zip(*got.values(), strict=True)]
                        for kinds, got in by_kinds.items() if len(got) == hands}
                 for seed, by_kinds in played.items()}
        hosts = sorted({r["host"] for r in rows})
        per = f"  {hands} hands per comparison" if hands > 1 else ""
        report(f"{name}:{variant}", seeds, len(rows[0]["kinds"]), think, sims, budget,
               sum(r["faults"] for r in rows), f"{per}  seeds {min(seeds)}-{max(seeds)}  hosts {', '.join(hosts)}",
               hands)


def _simulations_for(spec, name, variant):
    """``--simulations``: a number for every game, or ``game[:variant]=N,...``."""
    if spec is None:
        return None
    if spec.isdigit():
        return int(spec)
    for part in spec.split(","):
        key, _, value = part.partition("=")
        if key in (name, f"{name}:{variant}"):
            return int(value)
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=10, help="seeds (deals) per game/variant")
    ap.add_argument("--seed", type=int, default=7000, help="first seed")
    ap.add_argument("--budget", default="0.25s", help="pimc's budget per decision: '0.25s', iterations '16' or "
                         "'default' (the bot's own, per game)")
    ap.add_argument("--simulations", default=None,
                    help="ISMCTS max_simulations: N for every game or 'watten:euregio=40,battn=30'; "
                         "default: calibrated per game to pimc's mean think time")
    ap.add_argument("--hands", type=int, default=1,
                    help="hands per comparison (at most 100), their returns summed: 10 is Biscambiggia's match")
    ap.add_argument("--log", metavar="FILE", help="append one JSON line per finished hand (for --tally)")
    ap.add_argument("--tally", nargs="+", metavar="FILE", help="print the results of hand logs and exit")
    ap.add_argument("which", nargs="*", help="game or game:variant (default: all)")
    a = ap.parse_args(argv)
    if not 1 <= a.hands <= 100:
        ap.error(f"--hands is 1 to 100, not {a.hands}")
    if a.tally:
        tally(a.tally)
        return 0
    configs = [(g, v) for g, v in CONFIGS if not a.which or g in a.which or f"{g}:{v}" in a.which]
    if not configs:
        ap.error(f"no game matches {' '.join(a.which)} (known: {', '.join(f'{g}:{v}' for g, v in CONFIGS)})")
    host = f"{platform.node()}/{os.cpu_count()}cpu"
    print(f"# pimc (budget {a.budget}) vs OpenSpiel ISMCTSBot (random rollouts), {a.hands} hand(s) per comparison, "
          f"{a.n} seeds from {a.seed}, duplicate; {host}, load {os.getloadavg()[0]:.1f}", flush=True)
    for name, variant in configs:
        game = load(name, variant)
        n = game.num_players()
        label = f"{name}:{variant}"
        sims = _simulations_for(a.simulations, name, variant)
        if sims is None:
            sims, pm, per_sim = calibrate(game, a.seed - 1, a.budget)
            print(f"# {label}: calibration: pimc {pm:.3f}s/decision, ISMCTS {per_sim * 1000:.1f} ms/simulation "
                  f"-> {sims} simulations", flush=True)
        seeds: dict = {}
        think: dict = {}
        faults = 0
        t0 = time.perf_counter()
        for seed in range(a.seed, a.seed + a.n):
            for kinds in seat_plans(n):
                total = [0.0] * n
                for h in range(a.hands):
                    r = play_hand(game, hand_seed(seed, h, a.hands), kinds, a.budget, sims)
                    total = [x + y for x, y in zip(total, r["returns"], strict=True)]
                    add_think(think, r["think"])
                    faults += r["faults"]
                    if a.log:
                        # one JSON line per finished hand: a cut-off run keeps what it finished
                        append_json_line(a.log, _row(name, variant, seed, h, a, sims, kinds, r, host))
                seeds.setdefault(seed, {})[kinds] = total
        report(label, seeds, n, think, sims, a.budget, faults, f"  ({time.perf_counter() - t0:.0f}s)", a.hands)
    return 0


def _row(name, variant, seed, h, a, sims, kinds, r, host):
    """The log line of one finished hand (``hand`` of the ``hands`` of its seed's comparison)."""
    return {"game": name, "variant": variant, "seed": seed, "hand": h, "hands": a.hands, "budget": a.budget,
            "simulations": sims, "kinds": list(kinds), "returns": r["returns"],
            "deal": r["deal"], "decisions": r["decisions"], "history": r["history"],
            "think": {k: [round(s, 4), c, round(w, 4)] for k, (s, c, w) in r["think"].items()},
            "faults": r["faults"], "host": host, "load": round(os.getloadavg()[0], 2),
            "date": time.strftime("%Y-%m-%d %H:%M", time.gmtime())}


if __name__ == "__main__":
    sys.exit(main())
