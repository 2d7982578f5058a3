"""A fast path for the card play of a hand: playouts and exact solves on bit masks.

The general engine plays a card through ``State.apply`` (an ``Action``, the legal list, the
events, the history...), which is most of a search bot's time.  Once only cards remain to be
played in the hand, none of that is needed: a :class:`Kernel` copies the few fields the tricks
depend on (the hands as masks, the trick, the tricks won, the stake) out of a state and plays on
them with the game's **own** rule functions - Watten's ``PlayMixin._playable`` and
``ranking.trick_winner``, Battn's ``ranking.Table.legal`` / ``Table.winner`` - so the rules are
not written twice; ``tests/bots/test_fastplay.py`` plays thousands of random positions through
both and checks the same legal cards at every step, the same trick winners and the same points.

:func:`kernel` returns None wherever the fast path does not apply (another game, a decision other
than a card pending, a fixed-value hand's decision still to come, Battn's manual *svista*): the
callers then use the general engine, exactly as before.  ``ENABLED = False`` turns the fast path
off (the benchmarks measure both).

The playouts choose cards exactly like the engine's rollout policy (``common.rollout_action``:
the game's ``playout_card`` with probability ``GREEDY``, else a random card; raises, folds and
the other ``rollout_avoid`` verbs are never taken, and Battn's raise poll is passed).
"""

from __future__ import annotations

import random

from stich.bots.search.common import GREEDY, utilities

#: switch for measurements: False sends every playout and solve through the general engine
ENABLED = True


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Kernel:
    """The trick-play fields of one hand (see the module docstring); ``copy`` is cheap."""

    __slots__ = ("game", "n", "hands", "trick", "seats", "turn", "tricks", "trick_no")

    def legal(self) -> int:   # pragma: no cover - per game
        raise NotImplementedError

    def play(self, card: int) -> int:
        """Play ``card`` for the seat on turn; the side that won the hand, or -1 while it goes on."""
        raise NotImplementedError   # pragma: no cover - per game

    def end_scores(self, side: int) -> list:
        """The match scores after ``side`` won the hand."""
        raise NotImplementedError   # pragma: no cover - per game

    def side_of(self, seat: int) -> int:
        raise NotImplementedError   # pragma: no cover - per game

    def policy(self, cards: list[int], rng) -> int:
        raise NotImplementedError   # pragma: no cover - per game

    def copy(self):
        k = object.__new__(type(self))
        k.game, k.n = self.game, self.n
        k._share(self)
        k.hands = self.hands.copy()
        k.trick = self.trick.copy()
        k.seats = self.seats.copy()
        k.turn = self.turn
        k.tricks = self.tricks.copy()
        k.trick_no = self.trick_no
        return k


# --- Watten -------------------------------------------------------------------------------------
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
        pos = len(trick)
        for c in order:
            if self._winner(self.rk, self._suit, rank, trick + [c]) == pos:
                return c
        return order[0]


# --- Battn --------------------------------------------------------------------------------------
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
        order = sorted(cards, key=lambda c: table.strength(c, 0, c))
        if (self.leader + table.winner(trick)) & 1 == self.turn & 1:
            return order[0]
        pos = len(trick)
        for c in order:
            if table.winner(trick + [c]) == pos:
                return c
        return order[0]


# --- Biscambiggia -------------------------------------------------------------------------------
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


# --- Barbu ---------------------------------------------------------------------------------------
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


_KERNELS = {"watten": WattenKernel.of, "battn": BattnKernel.of, "biscambiggia": BiscambiggiaKernel.of,
            "barbu": BarbuKernel.of}


def kernel(state):
    """The fast path's kernel of ``state``, or None where it does not apply (see the module docstring)."""
    if not ENABLED:
        return None
    make = _KERNELS.get(state.game.name)
    return None if make is None else make(state)


def playout(k: Kernel, rng) -> list:
    """Play the hand out on ``k`` (in place) with the rollout policy; the match scores after it."""
    while True:
        m = k.legal()
        if m & (m - 1):
            cards = _bits(m)
            c = k.policy(cards, rng) if rng.random() < GREEDY else cards[rng.randrange(len(cards))]
        else:   # one card: no list, no draw
            c = m.bit_length() - 1
        side = k.play(c)
        if side >= 0:
            return k.end_scores(side)


def rollout_scores(state, rng) -> list | None:
    """The match scores after a playout of ``state``'s hand on the fast path (``state`` is not
    changed), or None where the fast path does not apply."""
    k = kernel(state)
    if k is None:
        return None
    return playout(k, rng)


def solve(k: Kernel, seat: int, start: list, budget: list[int], alpha: float = -1e300,
          beta: float = 1e300) -> float:
    """Alpha-beta value of the rest of the hand for ``seat`` (the utility of
    ``common.utilities``), with at most ``budget[0]`` inner nodes; beyond them a playout
    estimates (as ``solver.solve`` does)."""
    value = {side: _utility(k, seat, start, side) for side in (0, 1)}
    return _ab(k, k.side_of(seat), value, alpha, beta, budget)


def _utility(k: Kernel, seat: int, start: list, side: int) -> float:
    return utilities(k.game, start, [float(x) for x in k.end_scores(side)])[seat]


def _ab(k: Kernel, me: int, value: dict, alpha: float, beta: float, budget: list[int]) -> float:
    budget[0] -= 1
    if budget[0] < 0:
        r = k.copy()
        rng = random.Random(budget[0])
        while True:
            cards = _bits(r.legal())
            c = r.policy(cards, rng) if len(cards) > 1 and rng.random() < GREEDY else cards[rng.randrange(len(cards))]
            side = r.play(c)
            if side >= 0:
                return value[side]
    maximizing = k.side_of(k.turn) == me
    best = -1e300 if maximizing else 1e300
    for c in _bits(k.legal()):
        child = k.copy()
        side = child.play(c)
        v = value[side] if side >= 0 else _ab(child, me, value, alpha, beta, budget)
        if maximizing:
            if v > best:
                best = v
            if best > alpha:
                alpha = best
        else:
            if v < best:
                best = v
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    return best
