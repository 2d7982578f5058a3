"""Battn's kernel for the fast card-play path (``stich.bots.search.fastplay``): the trick-play
fields of a hand copied out of a state and played on with the game's own rule functions.

Found through ``Game.companions["kernel"]``, so the search layer names no game.
"""

from __future__ import annotations

from stich.roles.kernel import Kernel


class BattnKernel(Kernel):
    """Battn's tricks (the raise polls are passed): the follow rule and the winner are the
    turn's ``ranking.Table``."""

    __slots__ = ("table", "opts", "stake", "scores", "leader", "points")

    def _share(self, o) -> None:
        self.table, self.opts, self.stake, self.scores = o.table, o.opts, o.stake, o.scores
        self.points = o.points

    @classmethod
    def of(cls, state):
        from stich.rulesets.battn.phases import MOVE, POLL

        if (state.phase not in (MOVE, POLL) or state.pending is not None or state.svista is not None
                or state.table is None):
            return None
        k = object.__new__(cls)
        k.game, k.n = state.game, 4
        k.table, k.opts, k.stake = state.table, state.opts, state.stake
        k.scores = list(state.scores)
        # BT-16.5: a misraised Orbi team scoring at stake 3 gets 2 (state._end_by_tricks)
        k.points = [2 if state.misraised[t] and state.orbi_team is not None and state.stake == 3 else state.stake
                    for t in range(2)]
        k.hands = list(state.hands)
        k.trick = list(state.trick)
        k.leader = state.leader
        k.turn = (state.leader + len(state.trick)) & 3
        k.seats = [(state.leader + i) & 3 for i in range(len(state.trick))]
        k.tricks = list(state.tricks)
        k.trick_no = state.trick_no
        return k

    def copy(self):
        k = super().copy()
        k.leader = self.leader
        return k

    def legal(self) -> int:
        return self.table.legal(self.hands[self.turn], self.trick, self.trick_no, self.opts)

    def side_of(self, seat: int) -> int:
        return seat & 1

    def play(self, card: int) -> int:
        seat = self.turn
        self.hands[seat] &= ~(1 << card)
        trick = self.trick
        trick.append(card)
        self.seats.append(seat)
        if len(trick) < 4:
            self.turn = (seat + 1) & 3
            return -1
        w = (self.leader + self.table.winner(trick)) & 3
        t = w & 1
        self.tricks[t] += 1
        if self.tricks[t] == 3:
            return t
        self.trick = []
        self.seats = []
        self.leader = self.turn = w
        self.trick_no += 1
        return -1

    def end_scores(self, side: int) -> list:
        scores = list(self.scores)
        scores[side] += self.points[side]
        return scores

    def policy(self, cards: list[int], rng) -> int:
        """``BattnState.playout_card`` on masks."""
        trick = self.trick
        if not trick:
            return cards[rng.randrange(len(cards))]
        table = self.table
        strength = table.strength
        order = sorted(cards, key=lambda c: strength(c, 0, c))
        best = table.winner(trick)
        if (self.leader + best) & 1 == self.turn & 1:
            return order[0]
        # the lowest card that would win the trick: one stronger than the card winning it now (a
        # tie goes to the earlier card), without deciding the whole trick again for every card
        lead, pos = trick[0], len(trick)
        beat = strength(trick[best], best, lead)
        for c in order:
            if strength(c, pos, lead) > beat:
                return c
        return order[0]


of = BattnKernel.of
