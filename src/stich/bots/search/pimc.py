"""Perfect-information Monte Carlo (PIMC): sample worlds, evaluate every action in each, average.

For each world drawn from the view (``stich.engine.worlds``) and each legal action, the action is
applied and the rest of the hand is evaluated with perfect information:

* exactly, by alpha-beta over the remaining card play, when only card plays remain in a hand
  of two sides and few enough cards are left (``exact_cards``; e.g. Watten's last tricks);
* otherwise by ``rollouts`` playouts with the rollout policy (random cards, calm decisions).

The utility is the seat's side's score change in this hand (``common.utilities``), averaged over
the worlds; the best average wins (ties: the first legal action).
"""

from __future__ import annotations

import random

from stich.bots.base import Bot
from stich.bots.search.common import (
    Clock,
    ModelMixin,
    draw_worlds,
    fallback,
    hand_over,
    rollout,
    score_vector,
    utilities,
)

#: the most worlds drawn for one decision under an iteration budget
MAX_WORLDS = 256

#: nodes one exact solve may visit before it estimates the rest by a playout
SOLVE_NODES = 50_000


def two_sided(game) -> bool:
    """Whether every hand is fought by two sides (so alpha-beta applies): Watten (2 and 4 players:
    seat parity; 3 players: the forehand against the other two, ``state.side``) and Battn."""
    return game.name == "battn" or (game.name == "watten" and game.num_players in (2, 3, 4))


def _side(state, seat):
    side = getattr(state, "side", None)
    return side[seat] if side else seat % 2


def solve(state, seat: int, hand: int, start: list[float], alpha: float, beta: float, budget: list[int]) -> float:
    """Alpha-beta value for ``seat``'s side of the rest of the hand (card plays only; any other
    decision is taken by the rollout rules: accept, no raise)."""
    game = state.game
    if hand_over(state, hand):
        return utilities(game, start, score_vector(state))[seat]
    budget[0] -= 1
    if budget[0] < 0:   # out of nodes: estimate by one playout
        s = state.clone()
        rollout(s, hand, random.Random(budget[0]))
        return utilities(game, start, score_vector(s))[seat]
    legal = state.legal_actions()
    plays = [a for a in legal if a.verb == "play"]
    if not plays:
        calm = [a for a in legal if a.verb in ("accept", "hold", "x_play", "orbi_accept", "pass")] or legal
        child = state.clone()
        child.apply(calm[0])
        return solve(child, seat, hand, start, alpha, beta, budget)
    maximizing = _side(state, state.current_player) == _side(state, seat)
    best = -1e300 if maximizing else 1e300
    for a in plays:
        child = state.clone()
        child.apply(a)
        v = solve(child, seat, hand, start, alpha, beta, budget)
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


def cards_left(state) -> int:
    hands = getattr(state, "hands", None)
    if not hands:
        return 10**9
    return sum(h.bit_count() if isinstance(h, int) else len(h) for h in hands)


def evaluate(world, seat: int, legal: list[str], rng, rollouts: int, exact_cards: int):
    """The value of each legal action in one world, and whether all of them are exact."""
    game = world.game
    hand = world.hand_number
    start = score_vector(world)
    exact = two_sided(game) and cards_left(world) <= exact_cards
    out = {}
    all_exact = exact
    for text in legal:
        first = world.clone()
        first.apply(text)
        if exact and all(a.verb == "play" for a in world.legal_actions() if str(a) == text):
            out[text] = solve(first, seat, hand, start, -1e300, 1e300, [SOLVE_NODES])
            continue
        all_exact = False
        total = 0.0
        for _ in range(rollouts):
            s = first.clone()
            rollout(s, hand, rng)
            total += utilities(game, start, score_vector(s))[seat]
        out[text] = total / rollouts
    return out, all_exact


def pimc_choose(worlds, seat: int, legal: list[str], clock: Clock, rng, rollouts: int, exact_cards: int) -> str:
    """Average the values over the worlds, cycling through them (fresh rollouts) while the budget
    lasts; an iteration is one world's evaluation."""
    totals = dict.fromkeys(legal, 0.0)
    used = 0
    exact: dict[int, dict] = {}   # an exact value does not change: solved once, counted every round
    while used == 0 or not clock.done(used):
        i = used % len(worlds)
        if len(exact) == len(worlds) and i == 0 and used:
            break   # all exact: more rounds would not change the averages
        values = exact.get(i)
        if values is None:
            values, is_exact = evaluate(worlds[i], seat, legal, rng, rollouts, exact_cards)
            if is_exact:
                exact[i] = values
        for k, v in values.items():
            totals[k] += v
        used += 1
        if clock.iterations is None and clock.deadline is None and used >= len(worlds):
            break
    return max(legal, key=lambda a: totals[a])


class PIMCBot(ModelMixin, Bot):
    """Perfect-information Monte Carlo from the seat's view only (``budget``: seconds or
    iterations = world evaluations, one world each up to ``MAX_WORLDS``; default 16 worlds,
    4 rollouts per action and world)."""

    default_iterations = 16
    rollouts = 4
    exact_cards = 12
    #: "evaluate": raise, accept, fold, hold and the Orbi / X answers by the bet arithmetic on the
    #: sampled worlds (``betting.py``); "heuristic": taken from the heuristic bot, as before
    decisions = "evaluate"

    def __init__(self, seed=None, budget=None, decisions: str | None = None, **options):
        super().__init__(seed=seed, budget=budget, **options)
        if decisions is not None:
            if decisions not in ("evaluate", "heuristic"):
                raise ValueError(f"decisions is 'evaluate' or 'heuristic', not {decisions!r}")
            self.decisions = decisions

    def _model(self):
        if self.decisions != "evaluate" or not self.opponent_model:
            return super()._model()
        if self._model_fn is None:   # the bets weight the worlds instead (betting.lean_model)
            from stich.bots.search.betting import lean_model

            self._model_fn = lean_model()
        return self._model_fn

    def choose(self, view: dict, legal: list[str]) -> str:
        if self.decisions == "evaluate":
            from stich.bots.search import betting

            answer = betting.choose(self, view, legal)
            if answer is not None:
                return answer
        quick, legal = self._plan(view, legal)
        if quick is not None:
            return quick
        clock = Clock(self.budget, self.default_iterations)
        # an iteration budget is that many world evaluations: as many worlds (at most MAX_WORLDS),
        # so that more iterations also help where every evaluation is exact
        count = min(clock.iterations, MAX_WORLDS) if clock.iterations is not None else 400
        worlds = draw_worlds(view, self.rng, count, clock.deadline and clock.start + 0.3 * clock.seconds,
                             self._model())
        if not worlds:
            return fallback(view, legal, self.rng)
        return pimc_choose(worlds, view["seat"], legal, clock, self.rng, self.rollouts, self.exact_cards)


class ClassicPIMCBot(PIMCBot):
    """``pimc`` as it was before the bets were evaluated: raises, accepts and folds (and its
    opponent model) from the heuristic with the fixed thresholds (``heuristic-classic``)."""

    decisions = "heuristic"

    def choose(self, view: dict, legal: list[str]) -> str:
        from stich.bots.heuristic.raising import CLASSIC

        token = CLASSIC.set(True)
        try:
            return super().choose(view, legal)
        finally:
            CLASSIC.reset(token)
