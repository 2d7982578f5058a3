"""What search asks of a Biscambiggia state: a cheap playout policy.

The policy (used only inside search, in sampled worlds, never on the real game) reads the trick
fields of :class:`~stich.rulesets.biscambiggia.state.BiscambiggiaState`; partners are unknown, so:
take a trick worth 10 points or more with the cheapest winning card, else throw the card with
the fewest points.
"""

from __future__ import annotations


class SearchMixin:
    """``State.playout_card`` for Biscambiggia."""

    def playout_card(self, plays, rng):
        if not self.trick_count:
            return plays[rng.randrange(len(plays))]
        g = self.game
        strength = self.strength
        points = g.points
        order = sorted(plays, key=lambda a: (points[a.value], strength[a.value]))
        if self.trick_points >= 10:   # worth taking: the cheapest card that wins
            for a in order:
                if strength[a.value] > self.best_key:
                    return a
        return order[0]
