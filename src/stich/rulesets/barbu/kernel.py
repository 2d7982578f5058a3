"""Barbu's kernels for the fast card-play path (``stich.bots.search.fastplay``): the trick-play
fields of a hand copied out of a state and played on with the game's own rule functions, and the
domino's layout on masks.

Found through ``Game.companions["kernel"]``, so the search layer names no game.
"""

from __future__ import annotations

from stich.cards import bits_of
from stich.roles.kernel import GREEDY, Kernel


class BarbuKernel(Kernel):
    """Barbu's trick contracts (§2.1-2.7; the domino: :class:`DominoKernel`): the legal cards are the
    state's own ``BarbuState._trick_rule`` - the kernel carries the fields it reads under the
    state's names (``game``, ``contract``, ``tn``, ``played``, ``led``, ``tmask``, ``trump_mask``,
    ``trump``), so the rule is called on the kernel itself, as Watten's kernel calls ``_playable``
    -, the scores ``rules.raw_scores`` and ``rules.settle`` with the deal's doublings, the end as
    ``_end_trick`` says (13 tricks, or early once the contract's penalty cards are all out)."""

    __slots__ = ("rule", "tn", "tmask", "played", "taken", "won", "winners", "early", "trump_mask", "trump",
                 "contract", "business", "scores", "led", "suit_mask", "negative", "kh", "hearts", "queen",
                 "penalty")

    @classmethod
    def of(cls, state):
        if state.phase != _TRICKS:
            return None
        k = object.__new__(cls)
        k.game, k.n = state.game, 4
        k.hands = list(state.hands)
        k.turn = state.current_player
        k.contract, k.trump, k.trump_mask, k.early = state.contract, state.trump, state.trump_mask, state.early
        k.tn, k.tmask, k.played, k.led = state.tn, state.tmask, state.played, state.led
        k.taken, k.won, k.winners = list(state.taken), list(state.won), list(state.winners)
        k.business, k.scores = state.business, list(state.scores)
        # who played each card of the current trick: the seats before the one on turn
        k.seats = [(k.turn - state.tn + i) & 3 for i in range(state.tn)]
        m = state.tmask
        k.trick = [(m & state.dealt[s]).bit_length() - 1 for s in k.seats]   # a seat's card: the one it was dealt
        k.tricks, k.trick_no = [], len(state.winners)
        k.rule = _RULE
        k.suit_mask = _SUIT_MASK
        c = k.contract
        # the playout policy's facts (BarbuState.playout_card): which penalty cards a void player
        # throws first
        k.negative = c != _P_TRUMPS
        k.kh = c == _P_BARBU
        k.hearts = c == _P_BARBU or c == _P_NO_HEARTS
        k.queen = c == _P_NO_QUEENS
        k.penalty = k.kh or k.hearts or k.queen
        return k

    def copy(self):
        k = object.__new__(BarbuKernel)
        k.game, k.n, k.turn, k.contract, k.trump = self.game, 4, self.turn, self.contract, self.trump
        k.trump_mask, k.early, k.tn, k.tmask, k.played = self.trump_mask, self.early, self.tn, self.tmask, self.played
        k.led, k.business, k.scores = self.led, self.business, self.scores
        k.tricks, k.trick_no = self.tricks, self.trick_no
        k.rule, k.suit_mask, k.negative, k.kh = self.rule, self.suit_mask, self.negative, self.kh
        k.hearts, k.queen, k.penalty = self.hearts, self.queen, self.penalty
        k.hands = self.hands.copy()
        k.taken, k.won, k.winners = self.taken.copy(), self.won.copy(), self.winners.copy()
        k.seats, k.trick = self.seats.copy(), self.trick.copy()
        return k

    def legal(self) -> int:
        return self.rule(self, self.hands[self.turn])[0]

    def side_of(self, seat: int) -> int:   # pragma: no cover - four seats, no sides
        return seat

    def play(self, card: int) -> int:
        """``BarbuState._apply`` / ``_end_trick`` on masks: 0 when the deal is over, else -1."""
        seat = self.turn
        self.hands[seat] ^= 1 << card
        if not self.tn:
            self.led = card // 13
            self.tmask = 0
        self.tmask |= 1 << card
        self.trick.append(card)
        self.seats.append(seat)
        if self.tn < 3:
            self.tn += 1
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
        self.tn = 0
        self.turn = w
        early = self.early
        if len(self.winners) == 13 or (early and self.played & early == early):
            return 0
        return -1

    def end_scores(self, side: int) -> list:
        _adj, final = _settle(_raw_scores(self.contract, self.taken, self.won, self.winners), self.business)
        return [a + b for a, b in zip(self.scores, final, strict=True)]

    def policy(self, cards: list[int], rng) -> int:
        """``BarbuState.playout_card`` (``tests/bots/test_fastplay.py`` checks it picks the same
        card with the same random numbers): :meth:`pick` on the cards' mask."""
        m = 0
        for c in cards:
            m |= 1 << c
        return self.pick(m, rng)

    def pick(self, m: int, rng) -> int:
        """``BarbuState.playout_card`` on a mask of legal cards, without lists or sorts: lead the
        lowest card (TRUMPS: any); follow a negative contract with the highest card below the
        trick's best (none: the highest), void discard the contract's penalty cards first (K♥,
        hearts from the top, a queen), else the highest rank; in TRUMPS take the trick with the
        cheapest card that wins it, else throw the cheapest.  Ties of rank: the lower suit first
        for "cheapest", the higher for "highest", as the state's stable sorts have it."""
        if not self.tn:   # leading
            if not self.negative:
                cards = bits_of(m)
                return cards[rng.randrange(len(cards))]
            for r in _RANKS:
                lows = m & r
                if lows:
                    cards = bits_of(lows)
                    return cards[rng.randrange(len(cards))]
        led, tmask = self.led, self.tmask
        best = (tmask & self.trump_mask or tmask & _SUIT_MASK[led]).bit_length() - 1
        if self.negative:   # no trumps: a card wins iff it is of the suit led and above ``best``
            if not m & _SUIT_MASK[led]:   # void: the penalty cards first, else the highest rank
                if self.penalty:
                    if self.kh and m >> _P_KH & 1:
                        return _P_KH
                    if self.hearts and m & _HEARTS:
                        return (m & _HEARTS).bit_length() - 1
                    if self.queen and m & _QUEENS:
                        q = m & _QUEENS
                        return (q & -q).bit_length() - 1
                for r in _RANKS_DOWN:
                    if m & r:
                        return (m & r).bit_length() - 1
            below = m & ((1 << best) - 1)   # following: every legal card is of the suit led
            return (below or m).bit_length() - 1
        trumps = self.trump_mask
        higher = ~((2 << best) - 1)
        if best // 13 == self.trump:   # a trump leads the trick: only a higher trump wins
            wins = m & trumps & higher
        else:
            wins = (m & _SUIT_MASK[led] & higher) | (m & trumps)
        pool = wins or m
        for r in _RANKS:
            x = pool & r
            if x:
                return (x & -x).bit_length() - 1
        raise AssertionError("no legal card")   # pragma: no cover

    def run(self, rng) -> list:
        """``fastplay.playout`` on this kernel, in one loop (the same cards for the same random
        numbers: ``tests/bots/test_fastplay.py``): the legal cards by the shared ``_trick_rule``,
        the trick's end inlined."""
        rule, hands, seats, trick = self.rule, self.hands, self.seats, self.trick
        rand, randrange, pick = rng.random, rng.randrange, self.pick
        turn = self.turn
        while True:
            m = rule(self, hands[turn])[0]
            if m & (m - 1):
                if rand() < GREEDY:
                    self.turn = turn
                    c = pick(m, rng)
                else:
                    cards = bits_of(m)
                    c = cards[randrange(len(cards))]
            else:
                c = m.bit_length() - 1
            bit = 1 << c
            hands[turn] ^= bit
            tn = self.tn
            if not tn:
                self.led = c // 13
                self.tmask = bit
            else:
                self.tmask |= bit
            trick.append(c)
            seats.append(turn)
            if tn < 3:
                self.tn = tn + 1
                turn = (turn + 1) & 3
                continue
            t = self.tmask
            top = ((t & self.trump_mask) or (t & _SUIT_MASK[self.led])).bit_length() - 1
            w = seats[trick.index(top)]
            self.taken[w] |= t
            self.won[w] += 1
            winners = self.winners
            winners.append(w)
            played = self.played = self.played | t
            trick.clear()
            seats.clear()
            self.tn = 0
            turn = w
            early = self.early
            if len(winners) == 13 or (early and played & early == early):
                self.turn = turn
                return self.end_scores(0)


class DominoKernel:
    """Barbu's domino (§2.8) on masks: ``BarbuState._play_domino`` without events.  A seat plays a
    card of its hand that fits the layout (``ends``: the cards that fit now; a card played opens
    its outer neighbour, ``opens``) or passes when none fits; a seat out of cards is skipped and
    takes the next place; the deal ends when three are out; with the option ``domino_ace_replay``
    an ace gives another turn.  The playout policy is the engine's for the domino: a fitting card
    at random (``BarbuState.playout_card`` keeps the domino random).  Not a trick-play
    :class:`~stich.roles.kernel.Kernel`: it has no tricks to solve (Barbu is not two-sided,
    so nothing solves it), only :meth:`run` for ``fastplay.playout``."""

    __slots__ = ("game", "hands", "turn", "ends", "opens", "out", "ace_replay", "business", "scores")

    ab = None   # (Kernel's optional search: nothing solves the domino)

    @classmethod
    def of(cls, state):
        k = object.__new__(cls)
        k.game = state.game
        k.hands = list(state.hands)
        k.turn = state.current_player
        k.ends, k.opens, k.out = state.ends, state.opens, list(state.out)
        k.ace_replay = state.game.ace_replay
        k.business, k.scores = state.business, list(state.scores)
        return k

    def copy(self):
        k = object.__new__(DominoKernel)
        k.game, k.turn, k.ends, k.opens, k.ace_replay = self.game, self.turn, self.ends, self.opens, self.ace_replay
        k.business, k.scores = self.business, self.scores
        k.hands, k.out = self.hands.copy(), self.out.copy()
        return k

    def legal(self) -> int:
        """The cards the seat on turn may play (0: it must pass)."""
        return self.hands[self.turn] & self.ends

    def play(self, card: int | None) -> int:
        """Play ``card`` (None: pass) for the seat on turn; 0 when the deal is over, else -1."""
        p = self.turn
        hands = self.hands
        if card is not None:
            h = hands[p] ^ (1 << card)
            hands[p] = h
            self.ends = (self.ends ^ (1 << card)) | self.opens[card]
            if not h:
                out = self.out
                out.append(p)
                if len(out) == 3:
                    out.append(6 - sum(out))
                    return 0
            elif card % 13 == 12 and self.ace_replay:
                return -1
        q = (p + 1) & 3
        while not hands[q]:
            q = (q + 1) & 3
        self.turn = q
        return -1

    def end_scores(self, side: int = 0) -> list:
        _adj, final = _settle(_domino_scores(self.out), self.business)
        return [a + b for a, b in zip(self.scores, final, strict=True)]

    def run(self, rng) -> list:
        """``fastplay.playout``: a fitting card at random, or a pass, until three seats are out."""
        randrange, play = rng.randrange, self.play
        while True:
            m = self.hands[self.turn] & self.ends
            if not m:
                c = None
            elif m & (m - 1):
                cards = bits_of(m)
                c = cards[randrange(len(cards))]
            else:
                c = m.bit_length() - 1
            if play(c) >= 0:
                return self.end_scores()


def of(state):
    """The kernel of a Barbu state in a trick contract or the domino; None elsewhere."""
    if state.phase == _DOMINO:
        return DominoKernel.of(state)
    return BarbuKernel.of(state)


def _init():
    from stich.rulesets.barbu import rules as R
    from stich.rulesets.barbu import state as S
    from stich.rulesets.barbu.phases import DOMINO, TRICKS
    from stich.rulesets.barbu.state import BarbuState

    return (TRICKS, DOMINO, BarbuState._trick_rule, R.SUIT_MASK, R.settle, R.raw_scores, R.domino_scores,
            S._P_TRUMPS, S._P_BARBU, S._P_NO_HEARTS, S._P_NO_QUEENS, S._P_KH, S._P_HEARTS, S._P_QUEEN)


(_TRICKS, _DOMINO, _RULE, _SUIT_MASK, _settle, _raw_scores, _domino_scores, _P_TRUMPS, _P_BARBU, _P_NO_HEARTS,
 _P_NO_QUEENS, _P_KH, _P_HEARTS, _P_QUEEN) = _init()
#: the cards of each rank (all suits), lowest rank first, and highest first
_RANKS = tuple(sum(1 << (13 * s + r) for s in range(4)) for r in range(13))
_RANKS_DOWN = _RANKS[::-1]
_HEARTS = _SUIT_MASK[_P_HEARTS]
_QUEENS = _RANKS[_P_QUEEN]
