"""A fast path for the card play of a hand: playouts and exact solves on bit masks.

The general engine plays a card through ``State.apply`` (an ``Action``, the legal list, the
events, the history...), which is most of a search bot's time.  Once only cards remain to be
played in the hand, none of that is needed: a :class:`Kernel` copies the few fields the tricks
depend on (the hands as masks, the trick, the tricks won, the stake) out of a state and plays on
them with the game's **own** rule functions - Watten's ``PlayMixin._playable`` and
``ranking.trick_winner``, Battn's ``ranking.Table.legal`` / ``Table.winner`` - so the rules are
not written twice; ``tests/bots/test_fastplay.py`` plays thousands of random positions through
both and checks the same legal cards at every step, the same trick winners and the same points.

:func:`kernel` returns None wherever the fast path does not apply (a game whose ``companions`` name
no ``"kernel"`` module (each game's is ``stich.rulesets.<game>.kernel``, built on
:class:`stich.roles.kernel.Kernel`), a decision other
than a card pending, a fixed-value hand's decision still to come, Battn's manual *svista*): the
callers then use the general engine, exactly as before.  ``ENABLED = False`` turns the fast path
off (the benchmarks measure both).

The playouts choose cards exactly like the engine's rollout policy (``common.rollout_action``:
the game's ``playout_card`` with probability ``GREEDY``, else a random card; raises, folds and
the other ``rollout_avoid`` verbs are never taken, and Battn's raise poll is passed).
"""

from __future__ import annotations

from stich.bots.search.common import utilities
from stich.cards import bits_of
from stich.engine import companion
from stich.roles.kernel import GREEDY, Kernel, estimate, improve

#: switch for measurements: False sends every playout and solve through the general engine
ENABLED = True


def kernel(state):
    """The fast path's kernel of ``state``, or None where it does not apply (see the module docstring)."""
    if not ENABLED:
        return None
    module = companion(state.game, "kernel")
    return None if module is None else module.of(state)


def playout(k: Kernel, rng) -> list:
    """Play the hand out on ``k`` (in place) with the rollout policy; the match scores after it.
    A kernel with a ``run(rng)`` method of its own (Barbu's: one loop, no method calls per card)
    plays it there: the same cards for the same random numbers as :func:`step_playout`."""
    run = k.run
    if run is not None:
        return run(rng)
    return step_playout(k, rng)


def step_playout(k: Kernel, rng) -> list:
    """:func:`playout` by the kernel's ``legal``, ``policy`` and ``play``, one card at a time."""
    while True:
        m = k.legal()
        if m & (m - 1):
            cards = bits_of(m)
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
    ab = k.ab   # a kernel's own search (Kernel.ab), or None
    if ab is not None:
        return ab(k.side_of(seat), value, alpha, beta, budget)
    return _ab(k, k.side_of(seat), value, alpha, beta, budget)


def _utility(k: Kernel, seat: int, start: list, side: int) -> float:
    return utilities(k.game, start, [float(x) for x in k.end_scores(side)])[seat]


def _ab(k: Kernel, me: int, value: dict, alpha: float, beta: float, budget: list[int]) -> float:
    budget[0] -= 1
    if budget[0] < 0:
        return estimate(k, value, budget[0])
    maximizing = k.side_of(k.turn) == me
    best = -1e300 if maximizing else 1e300
    for c in bits_of(k.legal()):
        child = k.copy()
        side = child.play(c)
        v = value[side] if side >= 0 else _ab(child, me, value, alpha, beta, budget)
        best, alpha, beta = improve(maximizing, v, best, alpha, beta)
        if alpha >= beta:
            break
    return best
