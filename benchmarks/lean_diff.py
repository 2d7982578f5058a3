"""The lean simulation path against the full engine, at length: for every game and variant, random
matches played through ``new_state(lean=True)`` with action numbers (``step``) and through the full
state with the same seeds and choices must be in the same position at every step (every field of
the state, every seat's legal actions, the returns and the public hand summary;
``stich.testing.check_lean``).  The CI test (tests/test_lean.py) compares a small sample; this
compares 100,000 positions per game and variant by default:

    python benchmarks/lean_diff.py [POSITIONS [GAME[:VARIANT]]]
"""

from __future__ import annotations

import sys
import time

import stich
from stich.testing import check_lean


def main(positions: int, only: str | None = None) -> None:
    name_only, _, variant_only = (only or "").partition(":")
    for name in stich.games():
        if name_only and name != name_only:
            continue
        for variant in stich.engine.game_class(name).variants:
            if variant_only and variant != variant_only:
                continue
            start = time.perf_counter()
            done = check_lean(stich.game(name, variant), positions)
            print(f"{name:13s} {variant:11s} {done:8,d} positions the same ({time.perf_counter() - start:.1f} s)",
                  flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000, sys.argv[2] if len(sys.argv) > 2 else None)
