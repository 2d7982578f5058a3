"""``cheat``: an UPPER BOUND FOR MEASUREMENT ONLY.  It sees every hidden card.

The table gives this bot (``sees_everything = True``) a clone of the full state instead of a
view; it runs the ISMCTS search on the true world alone (plain MCTS with perfect information).
It is never a fair opponent: use it to measure how much the hidden information is worth.
"""

from __future__ import annotations

from stich.bots.base import Bot
from stich.bots.search.common import Clock
from stich.bots.search.ismcts import _most_visited, search


class CheatBot(Bot):
    """CHEATS: sees all hidden cards (upper bound for measurement only, never a real opponent)."""

    sees_everything = True
    label = "cheat (sees hidden cards: upper bound only)"
    default_iterations = 400
    exploration = 0.7

    @classmethod
    def supports(cls, game: str) -> bool:
        return True

    def choose(self, view: dict, legal: list[str]) -> str:
        raise NotImplementedError("cheat needs the full state: the table calls choose_with_state")

    def choose_with_state(self, state, seat: int, legal: list[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        clock = Clock(self.budget, self.default_iterations)
        visits = search([state], seat, legal, clock, self.rng, self.exploration)
        return _most_visited(visits, legal)
