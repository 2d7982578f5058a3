"""What search asks of a Watten state: the sides of the hand and a cheap playout policy.

The policy (used only inside search, in sampled worlds, never on the real game) reads the play
fields of :class:`~stich.rulesets.watten.play.PlayMixin`: lead a random card; when following,
let a winning partner have the trick (lowest card), else take it with the cheapest card that
wins, else throw the lowest card.
"""

from __future__ import annotations

from stich.rulesets.watten.ranking import first_winning, trick_winner


def _strength(key, rank, c):
    return key[c] * 16 + rank[c]


class SearchMixin:
    """``State.side_of`` and ``State.playout_card`` for Watten."""

    def side_of(self, seat: int) -> int:
        # 2 and 4 players: seat parity; 3 players: the forehand (side 0) against the other two
        side = self.side
        return side[seat] if side else seat % 2

    def playout_card(self, plays, rng):
        trick = self.trick
        if not trick or self.rk is None:
            return plays[rng.randrange(len(plays))]
        g = self.game
        rk = self.rk
        key = rk.key
        suit_of, rank_of = g.suit_of, g.rank_of
        seat = self.current_player
        win_i = trick_winner(rk, suit_of, rank_of, trick)
        partner_wins = self.side[self.trick_seats[win_i]] == self.side[seat]
        order = sorted(plays, key=lambda a: _strength(key, rank_of, a.value))
        if partner_wins:
            return order[0]
        values = [a.value for a in order]
        c = first_winning(rk, suit_of, rank_of, trick, values)
        return order[0] if c is None else order[values.index(c)]
