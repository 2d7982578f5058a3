"""The evaluation under PIMC: a world's actions valued exactly (alpha-beta over the remaining card play
of a two-sided hand, ``Game.two_sided``, when few enough cards are left) or by playouts, and the
average over the sampled worlds.  Used by the ``pimc`` bot (pimc.py) and by its bets (betting.py),
which is why it stands in a module of its own."""

from __future__ import annotations

import random

from stich.bots.search import fastplay
from stich.bots.search.common import (
    Clock,
    hand_over,
    rollout,
    score_vector,
    utilities,
)
from stich.roles.kernel import improve

#: the most worlds drawn for one decision under an iteration budget
MAX_WORLDS = 256

#: nodes one exact solve may visit before it estimates the rest by a playout
SOLVE_NODES = 50_000


def solve(state, seat: int, hand: int, start: list[float], alpha: float, beta: float, budget: list[int]) -> float:
    """Alpha-beta value for ``seat``'s side of the rest of the hand (card plays only; any other
    decision is taken by the rollout rules: accept, no raise).  Where only cards remain, the fast
    path (``fastplay``) solves on bit masks instead of engine states."""
    game = state.game
    if hand_over(state, hand):
        return utilities(game, start, score_vector(state))[seat]
    k = fastplay.kernel(state)
    if k is not None:
        return fastplay.solve(k, seat, start, budget, alpha, beta)
    budget[0] -= 1
    if budget[0] < 0:   # out of nodes: estimate by one playout
        s = state.clone()
        rollout(s, hand, random.Random(budget[0]))
        return utilities(game, start, score_vector(s))[seat]
    legal = state.legal_actions()
    card = game.card_verb
    plays = []   # loops, not comprehensions: those would build a closure over the verbs every node
    for a in legal:
        if a.verb == card:
            plays.append(a)
    if not plays:
        calm = legal[0]
        calm_verbs = game.calm_verbs
        for a in legal:
            if a.verb in calm_verbs:
                calm = a
                break
        child = state.clone()
        child.apply(calm)
        return solve(child, seat, hand, start, alpha, beta, budget)
    maximizing = state.side_of(state.current_player) == state.side_of(seat)
    best = -1e300 if maximizing else 1e300
    for a in plays:
        child = state.clone()
        child.apply(a)
        v = solve(child, seat, hand, start, alpha, beta, budget)
        best, alpha, beta = improve(maximizing, v, best, alpha, beta)
        if alpha >= beta:
            break
    return best


def playout_scores(state, hand: int, rng) -> list:
    """The match scores after one playout of the rest of ``state``'s hand (``state`` is not
    changed): on the fast card-play path (``fastplay``) where it applies, else through the engine."""
    k = None if hand_over(state, hand) else fastplay.kernel(state)
    if k is not None:
        return fastplay.playout(k, rng)
    s = state.clone()
    rollout(s, hand, rng)
    return score_vector(s)


def cards_left(state) -> int:
    hands = state.hands
    if not hands:
        return 10**9
    return sum(h.bit_count() if isinstance(h, int) else len(h) for h in hands)


def won_share(u: float) -> float:
    """A hand's outcome as a win: a positive utility wins, a zero one counts half."""
    return 1.0 if u > 0 else (0.5 if u == 0 else 0.0)


def evaluate(world, seat: int, legal: list[str], rng, rollouts: int, exact_cards: int, wins: dict | None = None):
    """The value of each legal action in one world, and whether all of them are exact.

    ``wins`` (a dict), when given, receives each action's share of won outcomes in this world (a
    positive utility wins, a zero one counts half): the chance to win the hand that the bets
    need comes with the card search at no extra playout (``betting.choose``)."""
    game = world.game
    hand = world.hand_number
    start = score_vector(world)
    exact = game.two_sided and cards_left(world) <= exact_cards
    out = {}
    all_exact = exact
    for text in legal:
        first = world.clone()
        first.apply(text)
        if exact and all(a.verb == game.card_verb for a in world.legal_actions() if str(a) == text):
            out[text] = v = solve(first, seat, hand, start, -1e300, 1e300, [SOLVE_NODES])
            if wins is not None:
                wins[text] = won_share(v)
            continue
        all_exact = False
        total = won = 0.0
        k = None if hand_over(first, hand) else fastplay.kernel(first)
        for _ in range(rollouts):
            if k is not None:   # the fast path: the same playout policy on bit masks
                u = utilities(game, start, fastplay.playout(k.copy(), rng))[seat]
            else:
                s = first.clone()
                rollout(s, hand, rng)
                u = utilities(game, start, score_vector(s))[seat]
            total += u
            won += won_share(u)
        out[text] = total / rollouts
        if wins is not None:
            wins[text] = won / rollouts
    return out, all_exact


def pimc_choose(worlds, seat: int, legal: list[str], clock: Clock, rng, rollouts: int, exact_cards: int) -> str:
    """Average the values over the worlds, cycling through them (fresh rollouts) while the budget
    lasts; an iteration is one world's evaluation."""
    return pimc_search(worlds, seat, legal, clock, rng, rollouts, exact_cards)[0]


def pimc_search(worlds, seat: int, legal: list[str], clock: Clock, rng, rollouts: int, exact_cards: int,
                weights: list[float] | None = None) -> tuple[str, float]:
    """:func:`pimc_choose`'s action, and its chance to win the hand: the share of won outcomes
    of that action over the evaluations, each world counting by its ``weights`` (the bets' world
    likelihoods; the action itself is chosen by the plain average, as ever)."""
    totals = dict.fromkeys(legal, 0.0)
    won = dict.fromkeys(legal, 0.0)
    weight = 0.0
    used = 0
    exact: dict[int, tuple[dict, dict]] = {}   # an exact value does not change: solved once, counted every round
    while used == 0 or not clock.done(used):
        i = used % len(worlds)
        if len(exact) == len(worlds) and i == 0 and used:
            break   # all exact: more rounds would not change the averages
        cached = exact.get(i)
        if cached is None:
            wins: dict = {}
            values, is_exact = evaluate(worlds[i], seat, legal, rng, rollouts, exact_cards, wins)
            if is_exact:
                exact[i] = (values, wins)
        else:
            values, wins = cached
        w = 1.0 if weights is None else weights[i]
        for k, v in values.items():
            totals[k] += v
            won[k] += w * wins[k]
        weight += w
        used += 1
        if clock.iterations is None and clock.deadline is None and used >= len(worlds):
            break
    best = max(legal, key=lambda a: totals[a])
    return best, (won[best] / weight if weight > 0 else 0.5)
