"""Watten's kernel for the fast card-play path (``stich.bots.search.fastplay``): the trick-play
fields of a hand copied out of a state and played on with the game's own rule functions.

Found through ``Game.companions["kernel"]``, so the search layer names no game.
"""

from __future__ import annotations

from stich.cards import bits_of
from stich.roles.kernel import GREEDY, Kernel, estimate, improve
from stich.rulesets.watten.ranking import PLAIN, first_winning


class WattenKernel(Kernel):
    """Watten's play phase (all variants): the follow rule is the state's own ``_playable``."""

    __slots__ = ("rk", "forehand", "dealer", "side", "stake", "scores", "step", "_playable", "_winner",
                 "_key", "_suit", "_rank")

    def _share(self, o) -> None:
        self.rk, self.forehand, self.dealer, self.step = o.rk, o.forehand, o.dealer, o.step
        self.side, self.stake, self.scores = o.side, o.stake, o.scores
        self._playable, self._winner = o._playable, o._winner
        self._key, self._suit, self._rank = o._key, o._suit, o._rank

    @classmethod
    def of(cls, state):
        from stich.rulesets.watten.deal import PLAY
        from stich.rulesets.watten.play import PlayMixin
        from stich.rulesets.watten.ranking import trick_winner

        if (state.phase != PLAY or state.decision is not None or state.rk is None
                or state.current_player != state.turn):
            return None
        k = object.__new__(cls)
        g = state.game
        k.game, k.rk, k.forehand, k.dealer = g, state.rk, state.forehand, state.dealer
        k.n = g.num_players
        k.step = g.step   # the direction of play (state._nxt)
        k.side = state.side
        k.stake = state.stake
        k.scores = list(state.scores)
        k.hands = list(state.hands)
        k.trick = list(state.trick)
        k.seats = list(state.trick_seats)
        k.turn = state.turn
        k.tricks = list(state.tricks)
        k.trick_no = state.trick_no
        k._playable = PlayMixin._playable   # read from the kernel's fields (same names as the state's)
        k._winner = trick_winner
        k._key, k._suit, k._rank = state.rk.key, g.suit_of, g.rank_of
        return k

    def legal(self) -> int:
        return self._playable(self, self.turn)

    def side_of(self, seat: int) -> int:
        return self.side[seat]

    def play(self, card: int) -> int:
        seat = self.turn
        self.hands[seat] ^= 1 << card
        trick = self.trick
        trick.append(card)
        self.seats.append(seat)
        n = self.n
        if len(trick) < n:
            self.turn = (seat + self.step) % n
            return -1
        w = self.seats[self._winner(self.rk, self._suit, self._rank, trick)]
        side = self.side[w]
        self.tricks[side] += 1
        if self.tricks[side] >= 3:
            return side
        self.trick = []
        self.seats = []
        self.trick_no += 1
        self.turn = w
        return -1

    def run(self, rng) -> list:
        """``fastplay.playout`` on this kernel, in one loop (the same cards for the same random
        numbers as ``legal``, ``policy`` and ``play``: ``tests/bots/test_fastplay.py``).  The
        trick's winner is kept as its cards fall (the strongest card so far, a tie to the earlier
        one, as ``ranking.trick_winner`` decides) instead of deciding the trick again for each
        card, and the policy's sort is a ``min``: the playouts were two thirds of a decision."""
        hands, trick, seats, side, tricks = self.hands, self.trick, self.seats, self.side, self.tricks
        key, suit, rank = self._key, self._suit, self._rank
        rand, randrange, playable = rng.random, rng.randrange, self._playable
        n, step = self.n, self.step
        plain = PLAIN * 16

        def order(c):   # the policy's "cheapest": as its sort, key then rank
            return key[c] * 16 + rank[c]

        best = best_i = -1   # the strongest card of the trick so far and its place
        for i, c in enumerate(trick):
            k = key[c] or (plain + rank[c] if suit[c] == suit[trick[0]] else 0)
            if k > best:
                best, best_i = k, i
        turn = self.turn
        while True:
            m = playable(self, turn)
            if m & (m - 1):
                cards = bits_of(m)
                if rand() < GREEDY:
                    if not trick:
                        c = cards[randrange(len(cards))]
                    elif side[seats[best_i]] == side[turn]:
                        c = min(cards, key=order)          # the partner has it: the cheapest
                    else:
                        led = suit[trick[0]]
                        wins = [x for x in cards if (key[x] or (plain + rank[x] if suit[x] == led else 0)) > best]
                        c = min(wins or cards, key=order)  # the cheapest that wins, else the cheapest
                else:
                    c = cards[randrange(len(cards))]
            else:
                c = m.bit_length() - 1
            hands[turn] ^= 1 << c
            k = key[c] or (plain + rank[c] if not trick or suit[c] == suit[trick[0]] else 0)
            if k > best:
                best, best_i = k, len(trick)
            trick.append(c)
            seats.append(turn)
            if len(trick) < n:
                turn = self.turn = (turn + step) % n
                continue
            w = seats[best_i]
            won = side[w]
            tricks[won] += 1
            if tricks[won] >= 3:
                return self.end_scores(won)
            trick.clear()
            seats.clear()
            self.trick_no += 1
            turn = self.turn = w
            best = best_i = -1

    def ab(self, me: int, value: dict, alpha: float, beta: float, budget: list[int]) -> float:
        """``fastplay._ab`` on this kernel: the same nodes in the same order, so the same value,
        but each card is played on the kernel itself and taken back after, where ``_ab`` copied
        the kernel for every card (the copies were 40 % of a solve)."""
        budget[0] -= 1
        if budget[0] < 0:
            return estimate(self, value, budget[0])
        hands, tricks, seat = self.hands, self.tricks, self.turn
        trick, seats, trick_no, counts = self.trick, self.seats, self.trick_no, tricks.copy()
        maximizing = self.side[seat] == me
        best = -1e300 if maximizing else 1e300
        for c in bits_of(self._playable(self, seat)):
            side = self.play(c)
            v = value[side] if side >= 0 else self.ab(me, value, alpha, beta, budget)
            hands[seat] ^= 1 << c               # take the card back: play() appended it to this
            trick.pop()                         # node's trick, and may have begun a new one
            seats.pop()
            self.trick, self.seats, self.turn, self.trick_no = trick, seats, seat, trick_no
            tricks[:] = counts
            best, alpha, beta = improve(maximizing, v, best, alpha, beta)
            if alpha >= beta:
                break
        return best

    def end_scores(self, side: int) -> list:
        scores = list(self.scores)
        if self.n == 4:
            scores[side] += self.stake
        else:
            for s in range(self.n):
                if self.side[s] == side:
                    scores[s] += self.stake
        return scores

    def policy(self, cards: list[int], rng) -> int:
        """``WattenState.playout_card`` on masks."""
        trick = self.trick
        if not trick:
            return cards[rng.randrange(len(cards))]
        key, rank = self._key, self._rank
        order = sorted(cards, key=lambda c: key[c] * 16 + rank[c])
        win_i = self._winner(self.rk, self._suit, rank, trick)
        if self.side[self.seats[win_i]] == self.side[self.turn]:
            return order[0]
        c = first_winning(self.rk, self._suit, rank, trick, order)
        return order[0] if c is None else c


of = WattenKernel.of
