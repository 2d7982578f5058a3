"""Barbu's kernel for the fast card-play path (``stich.bots.search.fastplay``): the trick-play
fields of a hand copied out of a state and played on with the game's own rule functions.

Found through ``Game.companions["kernel"]``, so the search layer names no game.
"""

from __future__ import annotations

from stich.bots.search.fastplay import Kernel


class _BarbuThen:
    """The fields ``BarbuState._trick_rule`` reads."""

    __slots__ = ("game", "contract", "tn", "played", "led", "tmask", "trump_mask", "trump")


class BarbuKernel(Kernel):
    """Barbu's trick contracts (§2.1-2.7; the domino stays on the engine): the legal cards are the
    state's own ``_trick_rule``, the scores ``rules.raw_scores`` and ``rules.settle`` with the
    deal's doublings, the end as ``_end_trick`` says (13 tricks, or early once the contract's
    penalty cards are all out)."""

    __slots__ = ("probe", "rule", "tmask", "played", "taken", "won", "winners", "early", "trump_mask", "trump",
                 "contract", "business", "scores", "led", "simple", "suit_mask", "p")

    @classmethod
    def of(cls, state):
        from stich.rulesets.barbu.phases import TRICKS
        from stich.rulesets.barbu.state import BarbuState

        if state.phase != TRICKS:
            return None
        k = object.__new__(cls)
        k.game, k.n = state.game, 4
        k.hands = list(state.hands)
        k.turn = state.current_player
        k.contract, k.trump, k.trump_mask, k.early = state.contract, state.trump, state.trump_mask, state.early
        k.tmask, k.played, k.led = state.tmask, state.played, state.led
        k.taken, k.won, k.winners = list(state.taken), list(state.won), list(state.winners)
        k.business, k.scores = state.business, list(state.scores)
        # who played each card of the current trick: the seats before the one on turn
        k.seats = [(k.turn - state.tn + i) & 3 for i in range(state.tn)]
        k.trick = []
        m = state.tmask
        for s in k.seats:   # a seat's card in the trick: the one it was dealt
            k.trick.append((m & state.dealt[s]).bit_length() - 1)
        k.tricks, k.trick_no = [], len(state.winners)
        k.rule = BarbuState._trick_rule
        from stich.rulesets.barbu import rules as R
        from stich.rulesets.barbu import state as S

        k.suit_mask, k.p = R.SUIT_MASK, S
        # Following in NO_TRICKS, NO_QUEENS, NO_KING... and BARBU without forced_barbu, the rule is
        # just "follow suit if you can" (_trick_rule); the others ask _trick_rule itself.
        k.simple = k.contract != R.TRUMPS and not (k.contract == R.BARBU and k.game.forced_barbu)
        k.probe = _BarbuThen()
        k.probe.game, k.probe.contract, k.probe.trump, k.probe.trump_mask = k.game, k.contract, k.trump, k.trump_mask
        return k

    def copy(self):
        k = object.__new__(BarbuKernel)
        for f in ("game", "n", "turn", "contract", "trump", "trump_mask", "early", "tmask", "played", "led",
                  "business", "scores", "tricks", "trick_no", "rule", "probe", "simple", "suit_mask", "p"):
            setattr(k, f, getattr(self, f))
        k.hands = self.hands.copy()
        k.taken, k.won, k.winners = self.taken.copy(), self.won.copy(), self.winners.copy()
        k.seats, k.trick = self.seats.copy(), self.trick.copy()
        return k

    def legal(self) -> int:
        h = self.hands[self.turn]
        if self.trick and self.simple:
            return h & self.suit_mask[self.led] or h
        p = self.probe
        p.tn, p.played, p.led, p.tmask = len(self.trick), self.played, self.led, self.tmask
        return self.rule(p, h)[0]

    def side_of(self, seat: int) -> int:   # pragma: no cover - four seats, no sides
        return seat

    def play(self, card: int) -> int:
        """``BarbuState._apply`` / ``_end_trick`` on masks: 0 when the deal is over, else -1."""
        seat = self.turn
        self.hands[seat] ^= 1 << card
        if not self.trick:
            self.led = card // 13
            self.tmask = 0
        self.tmask |= 1 << card
        self.trick.append(card)
        self.seats.append(seat)
        if len(self.trick) < 4:
            self.turn = (seat + 1) & 3
            return -1
        m = self.tmask
        top = ((m & self.trump_mask) or (m & self.suit_mask[self.led])).bit_length() - 1
        w = self.seats[self.trick.index(top)]
        self.taken[w] |= m
        self.won[w] += 1
        self.winners.append(w)
        self.played |= m
        self.trick, self.seats = [], []
        self.turn = w
        early = self.early
        if len(self.winners) == 13 or (early and self.played & early == early):
            return 0
        return -1

    def end_scores(self, side: int) -> list:
        from stich.rulesets.barbu import rules as R

        _adj, final = R.settle(R.raw_scores(self.contract, self.taken, self.won, self.winners), self.business)
        return [a + b for a, b in zip(self.scores, final, strict=True)]

    def policy(self, cards: list[int], rng) -> int:
        """``BarbuState.playout_card`` on masks."""
        S = self.p
        contract = self.contract
        if not self.trick:   # leading
            if contract == S._P_TRUMPS:
                return cards[rng.randrange(len(cards))]
            low = min(c % 13 for c in cards)
            lows = [c for c in cards if c % 13 == low]
            return lows[rng.randrange(len(lows))]
        led, trump, tmask = self.led, self.trump, self.tmask
        trumps_in = tmask & (0x1FFF << (13 * trump)) if trump >= 0 else 0
        best = (trumps_in or tmask & (0x1FFF << (13 * led))).bit_length() - 1
        sb = best // 13

        def wins(c):
            s = c // 13
            return (s == sb and c > best) or (s == trump and sb != s)

        by_rank = sorted(cards, key=lambda c: c % 13)
        if contract == S._P_TRUMPS:
            for c in by_rank:
                if wins(c):
                    return c
            return by_rank[0]
        if cards[0] // 13 != led:   # void: discard
            if contract == S._P_BARBU and S._P_KH in cards:
                return S._P_KH
            if contract in (S._P_BARBU, S._P_NO_HEARTS):
                hearts = [c for c in by_rank if c // 13 == S._P_HEARTS]
                if hearts:
                    return hearts[-1]
            if contract == S._P_NO_QUEENS:
                for c in cards:
                    if c % 13 == S._P_QUEEN:
                        return c
            return by_rank[-1]
        under = [c for c in by_rank if not wins(c)]
        return under[-1] if under else by_rank[-1]


of = BarbuKernel.of
