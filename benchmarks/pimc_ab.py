"""Duplicate matches between two configurations of ``pimc``: the fast paths and world sampling
of ``docs/search.md`` ("Speed") against the bot as it was, at the same budget.

    python3 benchmarks/pimc_ab.py --bot pimc --opponent pimc-engine --budget 16 -n 20 watten:euregio battn

Registers, for this process only, the bots named below, then runs
``benchmarks/search_vs_heuristic.py`` (duplicate deals, Wilson intervals; its options apply):

* ``pimc-engine`` - ``pimc`` with the fast paths off: worlds by replay filtered by the heuristic
  opponent model, playouts and solves through the general engine (the bot before this work);
* ``pimc-model`` - ``pimc`` with the fast card play but the worlds drawn as before (replay and the
  heuristic opponent model);
* ``pimc-old`` - the default bot as it was when issue #17 was filed, as near as this tree has it:
  ``pimc-classic`` (the heuristic's bets, Ansage, bids, calls and contracts with its old fixed
  raising thresholds) with the fast paths off and the heuristic opponent model on.  Its think
  time is the old bot's, so ``--bot pimc --opponent pimc-old`` at the same budget compares the
  new default with the old at the old one's time or less (the benchmark prints both).
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import search_vs_heuristic  # noqa: E402

from stich.bots.base import register_bot  # noqa: E402
from stich.bots.search import fastplay  # noqa: E402
from stich.bots.search.pimc import ClassicPIMCBot, PIMCBot  # noqa: E402
from stich.engine import worlds  # noqa: E402


class _Switched(PIMCBot):
    fast_cards = True

    def __init__(self, seed=None, budget=None, **options):
        options.setdefault("opponent_model", True)
        super().__init__(seed=seed, budget=budget, **options)

    def choose(self, view, legal):
        old = fastplay.ENABLED, worlds.REDEAL
        fastplay.ENABLED, worlds.REDEAL = self.fast_cards, False
        try:
            return super().choose(view, legal)   # the next class in the MRO: PIMCBot, or ClassicPIMCBot
        finally:
            fastplay.ENABLED, worlds.REDEAL = old


class EnginePIMC(_Switched):
    fast_cards = False


class ModelPIMC(_Switched):
    pass


class OldPIMC(_Switched, ClassicPIMCBot):
    fast_cards = False


register_bot("pimc-engine", EnginePIMC)
register_bot("pimc-old", OldPIMC)
register_bot("pimc-model", ModelPIMC)

if __name__ == "__main__":
    sys.exit(search_vs_heuristic.main())
