"""Biscambiggia's kernel for the fast card-play path (``stich.bots.search.fastplay``): the trick-play
fields of a hand copied out of a state and played on with the game's own rule functions.

Found through ``Game.companions["kernel"]``, so the search layer names no game.
"""

from __future__ import annotations

from stich.roles.kernel import Kernel


class BiscambiggiaKernel(Kernel):
    """Biscambiggia's tricks (BB-5) and the marche of the hand (BB-6, ``rules.marche``): the trick
    strengths, card points and suit masks are the game's own tables (``strength`` per trump and
    suit led).  Five seats, no sides: no exact solve, playouts only."""

    __slots__ = ("g", "follow", "trump", "led", "strength", "best_key", "best_seat", "points", "taken", "caller",
                 "holder", "contract", "cappotto", "scores")

    @classmethod
    def of(cls, state):
        from stich.rulesets.biscambiggia.phases import PLAY

        if state.phase != PLAY:
            return None
        g = state.game
        k = object.__new__(cls)
        k.game, k.n, k.g = g, 5, g
        k.follow = bool(g.options.follow_suit)
        k.hands = list(state.hands)
        k.turn = state.current_player
        k.trick_no = state.tricks_played
        k.trump, k.led = state.trump, state.led
        k.strength = state.strength
        k.best_key, k.best_seat, k.points = state.best_key, state.best_seat, state.trick_points
        k.trick = [0] * state.trick_count   # only its length counts here
        k.taken = list(state.taken)
        k.caller, k.holder, k.contract = state.caller, state.holder, state.contract
        k.cappotto = bool(g.options.cappotto_double)
        k.scores = list(state.scores)
        k.seats, k.tricks = [], []
        return k

    def copy(self):
        k = object.__new__(BiscambiggiaKernel)
        for f in ("game", "n", "g", "follow", "trump", "turn", "trick_no", "led", "strength", "best_key", "best_seat",
                  "points", "caller", "holder", "contract", "cappotto", "scores", "seats", "tricks"):
            setattr(k, f, getattr(self, f))
        k.hands = self.hands.copy()
        k.trick = self.trick.copy()
        k.taken = self.taken.copy()
        return k

    def legal(self) -> int:
        hand = self.hands[self.turn]
        if self.trick and self.follow:
            same = hand & self.g.suit_masks[self.led]   # B4-1 option: follow suit when able
            if same:
                return same
        return hand

    def side_of(self, seat: int) -> int:   # pragma: no cover - five seats, no sides
        return seat

    def play(self, card: int) -> int:
        """``BiscambiggiaState._play`` on masks: 0 when the hand is over, else -1."""
        g = self.g
        seat = self.turn
        self.hands[seat] ^= 1 << card
        if not self.trick:
            self.led = card // 10
            self.strength = g.strengths[self.trump][self.led]
        key = self.strength[card]
        if key > self.best_key:
            self.best_key, self.best_seat = key, seat
        self.points += g.points[card]
        self.trick.append(card)
        if len(self.trick) < 5:
            self.turn = (seat + 1) % 5
            return -1
        w = self.best_seat
        self.taken[w] += self.points
        self.trick_no += 1
        self.trick = []
        self.best_key, self.best_seat, self.points = -1, -1, 0
        if self.trick_no < 8:    # BB-5.6: eight tricks
            self.turn = w
            return -1
        return 0

    def end_scores(self, side: int) -> list:
        """BB-6.1-6.3 (``BiscambiggiaState._score_hand``)."""
        from stich.rulesets.biscambiggia.rules import TOTAL_POINTS, marche

        alone = self.holder == self.caller
        team = self.taken[self.caller] + (0 if alone else self.taken[self.holder])
        delta = marche(self.caller, None if alone else self.holder, team >= self.contract,
                       self.cappotto and team in (0, TOTAL_POINTS))
        return [a + b for a, b in zip(self.scores, delta, strict=True)]

    def policy(self, cards: list[int], rng) -> int:
        """``BiscambiggiaState.playout_card`` on masks."""
        if not self.trick:
            return cards[rng.randrange(len(cards))]
        points, strength = self.g.points, self.strength
        order = sorted(cards, key=lambda c: (points[c], strength[c]))
        if self.points >= 10:   # worth taking: the cheapest card that wins
            for c in order:
                if strength[c] > self.best_key:
                    return c
        return order[0]


of = BiscambiggiaKernel.of
