"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012), for every game.

One tree over the deciding seat's information: nodes are keyed by the sequence of action texts
from the root; every iteration takes one determinization (a world drawn from the view by
``stich.engine.worlds``), descends the tree with UCB1 over the children that are legal *in that
world* (counting availability, so a child that is rarely legal is not starved), expands one new
action, plays the hand out with the rollout policy and backs up each mover's own utility
(``common.utilities``: its side's score change in this hand, zero-sum).  The root action chosen
is the most visited one.

Worlds are expensive to draw (a replay of the hand), so a pool of them is drawn first (filtered
by the opponent model, see ``common.heuristic_model``) and the iterations cycle through it.
Playouts use ``common.rollout_action`` (the game's playout policy for cards, calm decisions).
"""

from __future__ import annotations

import math

from stich.bots.base import Bot
from stich.bots.search.common import (
    Clock,
    ModelMixin,
    draw_worlds,
    fallback,
    hand_over,
    rollout_action,
    score_vector,
    utilities,
)


class _Node:
    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self):
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


def search(worlds: list, seat: int, legal: list[str], clock: Clock, rng, c: float = 0.7,
           max_iterations: int | None = None) -> dict[str, int]:
    """ISMCTS over ``worlds`` (used in turn); returns the visits of each root action."""
    game = worlds[0].game
    root = _Node()
    scale = 1.0
    it = 0
    legal_set = set(legal)
    while not clock.done(it) and (max_iterations is None or it < max_iterations):
        base = worlds[it % len(worlds)]
        it += 1
        state = base.clone()
        hand = state.hand_number
        start = score_vector(state)
        node = root
        path: list[tuple[_Node, int]] = []   # (child node, mover)
        expanded = False
        while not hand_over(state, hand):
            acts = state.legal_actions()
            mover = state.current_player
            if node is root:
                acts = [a for a in acts if str(a) in legal_set] or acts
            children = node.children
            untried = []
            for a in acts:
                ch = children.get(str(a))
                if ch is None:
                    untried.append(a)
                else:
                    ch.avail += 1
            if untried and not expanded:
                a = untried[rng.randrange(len(untried))]
                child = children[str(a)] = _Node()
                child.avail = 1
                expanded = True
            elif expanded:
                break
            else:
                best, a = -1e300, None
                for x in acts:
                    ch = children[str(x)]
                    v = ch.total / ch.visits + c * scale * math.sqrt(math.log(ch.avail) / ch.visits)
                    if v > best:
                        best, a = v, x
                child = children[str(a)]
            state.apply(a)
            path.append((child, mover))
            node = child
        steps = 0
        while not hand_over(state, hand) and steps < 2000:
            state.apply(rollout_action(state.legal_actions(), rng, state))
            steps += 1
        u = utilities(game, start, score_vector(state))
        m = max(abs(x) for x in u)
        if m > scale:
            scale = m
        for child, mover in path:
            child.visits += 1
            child.total += u[mover]
        root.visits += 1
    return {k: ch.visits for k, ch in root.children.items()}


class ISMCTSBot(ModelMixin, Bot):
    """Information-set MCTS from the seat's view only (``budget``: seconds or iterations;
    default 400 iterations).  Seeded: the same seed and iteration budget give the same choices."""

    default_iterations = 400
    pool_size = 48
    exploration = 0.7

    def choose(self, view: dict, legal: list[str]) -> str:
        quick, legal = self._plan(view, legal)
        if quick is not None:
            return quick
        clock = Clock(self.budget, self.default_iterations)
        pool = self.pool_size if clock.iterations is None else min(self.pool_size, clock.iterations)
        sample_deadline = None if clock.deadline is None else clock.start + 0.3 * clock.seconds
        worlds = draw_worlds(view, self.rng, pool, sample_deadline, self._model())
        if not worlds:
            return fallback(view, legal, self.rng)
        visits = search(worlds, view["seat"], legal, clock, self.rng, self.exploration)
        return _most_visited(visits, legal)

    def choose_with_state(self, state, seat: int, legal: list[str]) -> str:
        raise NotImplementedError("ismcts sees only views")


def _most_visited(visits: dict[str, int], legal: list[str]) -> str:
    best = max(legal, key=lambda a: visits.get(a, -1))
    return best
