"""The base of a game's ``"kernel"`` companion: the fast card-play path of the search bots.

The search bots (``stich.bots.search.fastplay``) ask a game's kernel module for ``of(state)``, a
:class:`Kernel` with the few fields the tricks depend on (the hands as masks, the trick, the
tricks won, the stake), and play on it with the game's own rule functions.  The class and the
pieces a kernel's own search uses (:data:`GREEDY`, :func:`improve`, :func:`estimate`) live here,
below the games, so that a game's package can hold its kernel without importing the bots.
"""

from __future__ import annotations

import random

from stich.cards import bits_of

#: how often a playout takes the game's playout policy rather than a random card (the engine's
#: rollout policy, ``stich.bots.search.common.rollout_action``, and every kernel's playout)
GREEDY = 0.8


class Kernel:
    """The trick-play fields of one hand (see the module docstring); ``copy`` is cheap."""

    __slots__ = ("game", "n", "hands", "trick", "seats", "turn", "tricks", "trick_no")

    #: optional: ``run(rng) -> scores``, a playout loop of the kernel's own (Barbu's: one loop, no
    #: method calls per card) that plays the same cards as ``fastplay.step_playout``; None: that one
    run = None
    #: optional: ``ab(me, value, alpha, beta, budget)``, an alpha-beta search of the kernel's own
    #: (Watten's: cards taken back, not copies); None: ``fastplay``'s search on copies
    ab = None

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


def improve(maximizing: bool, v: float, best: float, alpha: float, beta: float) -> tuple[float, float, float]:
    """A child's value ``v`` taken into its node's ``best`` and alpha-beta window (the caller
    stops at ``alpha >= beta``): the one update of every alpha-beta search here."""
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
    return best, alpha, beta


def estimate(k: Kernel, value: dict, left: int) -> float:
    """The value of a node beyond the search's budget: one playout of a copy of ``k`` with the
    policy, seeded by the budget left (``left``, negative), so a search is repeatable."""
    r = k.copy()
    rng = random.Random(left)
    while True:
        cards = bits_of(r.legal())
        c = r.policy(cards, rng) if len(cards) > 1 and rng.random() < GREEDY else cards[rng.randrange(len(cards))]
        side = r.play(c)
        if side >= 0:
            return value[side]
