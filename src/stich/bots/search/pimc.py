"""Perfect-information Monte Carlo (PIMC): sample worlds, evaluate every action in each, average.

For each world drawn from the view (``stich.engine.worlds``) and each legal action, the action is
applied and the rest of the hand is evaluated with perfect information:

* exactly, by alpha-beta over the remaining card play, when only card plays remain in a hand
  of two sides (``Game.two_sided``) and few enough cards are left (``exact_cards``);
* otherwise by ``rollouts`` playouts with the rollout policy (random cards, calm decisions).

The utility is the seat's side's score change in this hand (``common.utilities``), averaged over
the worlds; the best average wins (ties: the first legal action).
"""

from __future__ import annotations

import stich.engine
from stich.bots import bets
from stich.bots.base import Bot
from stich.bots.search.common import (
    Clock,
    ModelMixin,
    draw_worlds,
    fallback,
)
from stich.bots.search.solver import (  # noqa: F401  (the solver's names, as before the split)
    MAX_WORLDS,
    SOLVE_NODES,
    cards_left,
    evaluate,
    pimc_choose,
    solve,
)


class PIMCBot(ModelMixin, Bot):
    """Perfect-information Monte Carlo from the seat's view only (``budget``: seconds or
    iterations = world evaluations, one world each up to ``MAX_WORLDS``; default 16 worlds, more
    where the game declares it (``Declaration.worlds``); 4 rollouts per action and world)."""

    default_iterations = 16
    rollouts = 4
    exact_cards = 12
    #: "evaluate": the bets (raise, answers, play on or give) by the bet arithmetic on the sampled
    #: worlds (``betting.py``) and the decisions the game declares ``DECIDED`` by evaluating each
    #: candidate on them (``decide.py``); "heuristic": both taken from the heuristic bot, as before
    decisions = "evaluate"

    def __init__(self, seed=None, budget=None, decisions: str | None = None, **options):
        # Speed (docs/search.md): the worlds are uniform among the consistent ones, most of them
        # drawn from constraints (engine.worlds.redeal_worlds) instead of replaying the heuristic
        # in each; opponent_model=True brings that filter back (at several times the cost).
        options.setdefault("opponent_model", False)
        super().__init__(seed=seed, budget=budget, **options)
        if decisions is not None:
            if decisions not in ("evaluate", "heuristic"):
                raise ValueError(f"decisions is 'evaluate' or 'heuristic', not {decisions!r}")
            self.decisions = decisions

    def default_worlds(self, view: dict) -> int:
        """The worlds a decision draws when the budget names none: ``default_iterations`` when set
        as a knob (``make_bot("pimc", default_iterations=32)``), else the number the game declares
        for its variant (``SEARCH_WORLDS`` in ``rulesets/<game>/bets.py``), else
        ``default_iterations`` (16)."""
        if "default_iterations" in vars(self):
            return self.default_iterations
        name, variant = view.get("game"), view.get("variant")
        # the game of the variant (its default options: only the variant's lineage is read), so that
        # a variant without a number of its own draws its base's
        game = stich.engine.game(name, variant) if name is not None and variant is not None else None
        return bets.declared(name).worlds(variant, game) or self.default_iterations

    def draw(self, view: dict, model) -> tuple[Clock, list]:
        """The clock of a decision and its worlds drawn with ``model`` (the card search, the bets
        and the evaluated decisions alike): an iteration budget is that many world evaluations,
        so as many worlds (at most ``MAX_WORLDS``) - more iterations also help where every
        evaluation is exact; a time budget draws for up to 30 % of it."""
        clock = Clock(self.budget, self.default_worlds(view))
        count = min(clock.iterations, MAX_WORLDS) if clock.iterations is not None else 400
        return clock, draw_worlds(view, self.rng, count, clock.deadline and clock.start + 0.3 * clock.seconds,
                                  model)

    def _model(self):
        if self.decisions != "evaluate" or not self.opponent_model:
            return super()._model()
        if self._model_fn is None:   # the bets weight the worlds instead (betting.lean_model)
            from stich.bots.search.betting import lean_model

            self._model_fn = lean_model(floor=0.0)   # a filter: the card search takes no weights
        return self._model_fn

    def choose(self, view: dict, legal: list[str]) -> str:
        if self.decisions == "evaluate":
            from stich.bots.search import betting

            answer = betting.choose(self, view, legal)
            if answer is not None:
                return answer
            from stich.bots.search import decide

            answer = decide.choose(self, view, legal)
            if answer is not None:
                return answer
        quick, legal = self._plan(view, legal)
        if quick is not None:
            return quick
        clock, worlds = self.draw(view, self._model())
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
