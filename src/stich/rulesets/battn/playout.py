"""What search asks of a Battn state: the sides (the two teams) and a cheap playout policy.

The policy (used only inside search, in sampled worlds, never on the real game) reads the trick
fields of :class:`~stich.rulesets.battn.state.BattnState`: lead a random card; when following,
let a winning partner have the trick (lowest card), else take it with the cheapest card that
wins, else throw the lowest card.
"""

from __future__ import annotations


class SearchMixin:
    """``State.side_of`` and ``State.playout_card`` for Battn."""

    def side_of(self, seat: int) -> int:
        return seat % 2   # teams A = seats {0, 2}, B = seats {1, 3} (BT-1.4)

    def playout_card(self, plays, rng):
        trick = self.trick
        table = self.table
        if not trick or table is None:
            return plays[rng.randrange(len(plays))]
        seat = self.current_player
        win_pos = table.winner(trick)
        order = sorted(plays, key=lambda a: table.strength(a.value, 0, a.value))
        if (self.leader + win_pos) & 1 == seat & 1:
            return order[0]
        # the lowest card that wins the trick: stronger than the winning card (a tie goes to the earlier)
        lead, pos = trick[0], len(trick)
        beat = table.strength(trick[win_pos], win_pos, lead)
        for a in order:
            if table.strength(a.value, pos, lead) > beat:
                return a
        return order[0]
