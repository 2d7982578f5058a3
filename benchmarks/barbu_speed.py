"""Barbu speed: random play of one deal per contract, every decision, vs OpenSpiel hearts.

    python3 benchmarks/barbu_speed.py [seconds-per-measure [rounds]]

A "deal" is: the caller's declaration, the four doubling turns (random legal choices) and every
card until the deal is scored.  The next deal waits until the state is observed (``State._defer``),
so it is not shuffled here; the first column times states created beforehand (no shuffle at all),
the last also times ``new_state`` (one shuffle and deal per deal, as ``stich bench``).  The
option ``skip_undoubled_negative=false`` makes sure every negative deal is played out even when
nobody doubles.  OpenSpiel hearts (if installed) is driven by the same kind of Python loop: chance
outcomes for the deal, the pass, and all 52 plays.

``stich bench``'s barbu row is the trick-contract figure (a declaration drawn from the six trick
contracts, default options, a fresh ``new_state`` per deal); DOMINO is timed only here.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

import stich

CONTRACTS = ("NO_TRICKS", "NO_HEARTS", "NO_QUEENS", "BARBU", "NO_LAST_TWO", "TRUMPS S", "DOMINO 7")


def barbu_deals_per_second(contract: str, seconds: float) -> tuple[float, float, float]:
    """(deals/s in a match, actions/s, deals/s counting new_state too) for one contract.

    In a match every deal costs one shuffle-and-deal, made by ``new_state`` for the first deal: the
    first figure times batches of states created beforehand, the third times ``new_state`` as
    well."""
    g = stich.game("barbu", skip_undoubled_negative=False)
    rng = random.Random(1)
    choice = rng.choice
    declare = "contract " + contract
    deals = actions = 0
    seed = 0
    elapsed = 0.0
    while elapsed < seconds:
        batch = [g.new_state(seed + i) for i in range(50)]
        seed += 50
        t0 = time.process_time()
        for s in batch:
            s.apply(declare)
            n = 1
            while s.hand_number == 1:
                s.apply(choice(s.legal_actions()))
                n += 1
            actions += n
        elapsed += time.process_time() - t0
        deals += len(batch)
    in_match = deals / elapsed
    count = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds / 2:
        for _ in range(50):
            seed += 1
            s = g.new_state(seed)
            s.apply(declare)
            while s.hand_number == 1:
                s.apply(choice(s.legal_actions()))
        count += 50
    return in_match, actions / elapsed, count / (time.process_time() - t0)


def barbu_matches_per_second(seconds: float) -> float:
    g = stich.game("barbu")
    rng = random.Random(2)
    n = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        s = g.new_state(n)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
        n += 1
    return n / (time.process_time() - t0)


def hearts_games_per_second(seconds: float) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(1)
    n = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        n += 1
    return n / (time.process_time() - t0)


def main() -> None:
    """Interleaved rounds (hearts, then each contract), the median rate of each over the rounds,
    timed in process CPU time, so that a busy machine disturbs both sides alike."""
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 0.5
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    hearts_rates: list[float] = []
    rates: dict[str, list[tuple[float, float, float]]] = {c: [] for c in CONTRACTS}
    for _ in range(rounds):
        h = hearts_games_per_second(seconds)
        if h is not None:
            hearts_rates.append(h)
        for contract in CONTRACTS:
            rates[contract].append(barbu_deals_per_second(contract, seconds))
    hearts = statistics.median(hearts_rates) if hearts_rates else None
    best = {c: tuple(map(statistics.median, zip(*rows, strict=True))) for c, rows in rates.items()}
    print(f"OpenSpiel hearts: {hearts:8.0f} games/s" if hearts else "OpenSpiel hearts: not installed")
    print("barbu deal (contract)   deals/s  (vs hearts)  actions/s   with new_state")
    for contract in CONTRACTS:
        dps, aps, fresh = best[contract]
        ratio = f"({dps / hearts:.2f}x)" if hearts else ""
        fratio = f"({fresh / hearts:.2f}x)" if hearts else ""
        print(f"  {contract:18s} {dps:8.0f}  {ratio:10s} {aps:9.0f}   {fresh:6.0f} {fratio}")
    print(f"barbu full 28-deal match (default options): {barbu_matches_per_second(2 * seconds):6.1f} matches/s")


if __name__ == "__main__":
    main()
