"""What the search bots share: worlds from a view, the hand's utility, the rollout policy.

Search looks ahead to the **end of the current hand** (``hand_number`` moves on): the utility of
a seat is its side's change of match score over the rest of the hand, minus the average change
of the other sides (zero-sum: per-side scores of two sides give ``own - other``, per-seat scores
``own - mean(others)``).
"""

from __future__ import annotations

import random
import time

from stich.bots import fallbacks
from stich.engine import OptionError, game_class
from stich.engine.worlds import WorldError, WorldSpecError, cached_game, sample_worlds, supports_worlds
from stich.roles.kernel import GREEDY


def score_vector(state) -> list[float]:
    return [float(x) for x in state.scores]


def utilities(game, start: list[float], end: list[float]) -> list[float]:
    """Per seat, the zero-sum utility of the score change ``end - start`` (see the module docstring)."""
    n = game.num_players
    d = [b - a for a, b in zip(start, end, strict=True)]
    if len(d) == n:
        if n == 1:
            return d
        total = sum(d)
        return [x - (total - x) / (n - 1) for x in d]
    if len(d) == 2:
        return [d[s % 2] - d[1 - s % 2] for s in range(n)]
    return [0.0] * n


def hand_over(state, hand: int) -> bool:
    return state.current_player < 0 or state.hand_number != hand


def rollout_action(legal, rng: random.Random, state):
    """A cheap policy for playouts: a card by the state's playout policy (``State.playout_card``)
    or at random when cards may be played (``Game.card_verb``), otherwise a random calm action:
    none of the game's ``Game.rollout_avoid`` verbs (no raise, no fold...) unless nothing else is
    legal (the lowest bid when a bid is compulsory)."""
    card = state.game.card_verb
    plays = []   # a loop, not a comprehension: that would build a closure over ``card`` every call
    for a in legal:
        if a.verb == card:
            plays.append(a)
    if plays:
        if len(plays) > 1 and rng.random() < GREEDY:
            return state.playout_card(plays, rng)
        return plays[rng.randrange(len(plays))]
    avoid = state.game.rollout_avoid
    calm = [a for a in legal if a.verb not in avoid]
    if calm:
        return calm[rng.randrange(len(calm))]
    return legal[0]


def rollout(state, hand: int, rng: random.Random, limit: int = 2000) -> None:
    """Play ``state`` on (in place) with :func:`rollout_action` until the hand is over."""
    steps = 0
    while not hand_over(state, hand) and steps < limit:
        state.apply(rollout_action(state.legal_actions(), rng, state))
        steps += 1


def game_supported(name: str) -> bool:
    import stich

    try:
        return supports_worlds(stich.game(name))
    except OptionError:   # no such game here
        return False


def can_search(view: dict) -> bool:
    """Whether worlds can be drawn for ``view``: its game is here and has a ``world_spec`` that
    reads the view.  A ``world_spec`` that raises is the game's bug: a counted fallback (raised in
    tests), where it used to make pimc play like the heuristic without a word."""
    try:   # the cached game: building one per decision cost more than some decisions
        return supports_worlds(cached_game(view))
    except OptionError:   # a game (or options) not installed here: nothing to search
        return False
    except Exception as exc:  # noqa: BLE001 - the safety net of a live table: counted, raised in tests
        fallbacks.fell_back("sampler", exc)
        return False


def draw_worlds(view: dict, rng: random.Random, count: int, deadline: float | None, model=None) -> list:
    """Up to ``count`` consistent worlds (an empty list when the view cannot be determinized).

    With an opponent ``model`` (see :func:`heuristic_model`) the worlds are filtered by it; if it
    leaves too few, plain consistent worlds fill up the pool."""
    try:
        worlds = []
        if model is not None:
            worlds = sample_worlds(view, rng, count, max_tries=max(100, 10 * count), deadline=deadline,
                                   model=model, strict_deadline=True)
        if len(worlds) < max(1, count // 4):
            worlds += sample_worlds(view, rng, count - len(worlds), max_tries=max(200, 40 * count),
                                    deadline=deadline)
        return worlds
    except WorldSpecError as exc:   # the game's sampler is broken: not "no world"
        fallbacks.fell_back("sampler", exc)
        return []
    except WorldError:   # no consistent world in the tries allowed: the caller falls back, as designed
        return []


def heuristic_model(eps: float = 0.2):
    """An opponent model for :func:`~stich.engine.worlds.sample_worlds`: a world is kept with
    probability 1 if the ``heuristic`` bot, in the acting seat's shoes in that world, would have
    taken the action really taken (a bid, an Ansage, a raise, an answer...), else ``eps``.
    (The heuristic bot is always there: ``stich.bots.heuristic``; a game without a heuristic
    companion gets its first legal action, which the model then expects.)"""
    from stich.bots.heuristic import HeuristicBot

    bot = HeuristicBot(seed=0)

    def model(world, who, text):
        legal = [str(a) for a in world.legal_actions()]
        if len(legal) <= 1:
            return 1.0
        bot.rng.seed(0)
        # HeuristicBot.choose has its own counted fallback: nothing to catch here
        choice = bot.choose(world.view(who), legal)
        return 1.0 if choice == text else eps
    return model


def fallback(view: dict, legal: list[str], rng: random.Random) -> str:
    """The heuristic bot's choice: a decision search leaves to it, or one no world can be drawn
    for (``HeuristicBot.choose`` counts its own fallbacks)."""
    from stich.bots.heuristic import HeuristicBot

    return HeuristicBot(seed=rng.randrange(2**31)).choose(view, legal)


class Clock:
    """A budget in seconds and/or iterations (``Budget``), with a default number of iterations."""

    def __init__(self, budget, default_iterations: int):
        self.start = time.perf_counter()
        self.seconds = getattr(budget, "seconds", None)
        its = getattr(budget, "iterations", None)
        self.iterations = its if its is not None else (None if self.seconds is not None else default_iterations)
        self.deadline = None if self.seconds is None else self.start + self.seconds

    def done(self, iterations: int) -> bool:
        if self.iterations is not None and iterations >= self.iterations:
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline


#: the tuning knobs a search bot accepts as keyword arguments (class attributes of the bots)
TUNABLE = ("pool_size", "exploration", "rollouts", "exact_cards", "default_iterations")


class ModelMixin:
    """Options of the search bots (keyword arguments of the constructor, also ``make_bot``):

    * ``opponent_model`` (True): filter the worlds with :func:`heuristic_model`;
    * ``search_only`` (``"auto"``): a list of verbs to search (e.g. ``["play"]``); the other
      decisions go to the ``heuristic`` bot (when installed).  ``"auto"``: the game's
      ``Game.search_verbs``; None: search every decision.
    * ``hybrid`` (True): in a decision that offers searched and other verbs (a card or a raise),
      the heuristic is asked first; if it takes another verb (it raises), that is played, else
      the search chooses among the searched actions only.  False: such a decision is searched
      whole.
    * the knobs of :data:`TUNABLE` (``pool_size``, ``rollouts``...) override the class defaults.
    """

    opponent_model = True
    search_only = "auto"
    hybrid = True
    _model_fn = None

    def __init__(self, seed=None, budget=None, opponent_model: bool = True, search_only="auto",
                 hybrid: bool = True, **params):
        super().__init__(seed=seed, budget=budget)
        self.opponent_model = opponent_model
        if isinstance(search_only, str) and search_only != "auto":
            search_only = [v for v in search_only.split(",") if v]
        self.search_only = search_only if search_only in (None, "auto") else list(search_only)
        self.hybrid = hybrid
        for key, value in params.items():
            if key not in TUNABLE or not hasattr(self, key):
                knobs = ", ".join(k for k in TUNABLE if hasattr(self, k))
                raise TypeError(f"{type(self).__name__}: unknown option {key!r} (options: opponent_model, "
                                f"search_only, hybrid, {knobs})")
            setattr(self, key, type(getattr(self, key))(value))

    @classmethod
    def supports(cls, game: str) -> bool:
        """Games whose rule set has the determinization hook (``world_spec``)."""
        return game_supported(game)

    def searched_verbs(self, game: str):
        """The verbs searched in ``game`` (None: all)."""
        if self.search_only == "auto":
            try:
                verbs = game_class(game).search_verbs
            except OptionError:
                return None
            return None if verbs is None else list(verbs)
        return self.search_only

    def _plan(self, view: dict, legal: list[str]) -> tuple[str | None, list[str]]:
        """``(answer, None)`` when no search is needed or possible (a single legal action, a
        decision delegated to the heuristic, a view no world can be sampled from), else
        ``(None, actions to search)``."""
        if len(legal) == 1:
            return legal[0], legal
        verbs = self.searched_verbs(view.get("game"))
        searched = legal
        if verbs is not None:
            searched = [a for a in legal if a.split(" ")[0] in verbs]
            if not searched:
                return fallback(view, legal, self.rng), legal
            if len(searched) < len(legal) and self.hybrid:
                own = fallback(view, legal, self.rng)
                if own not in searched:
                    return own, legal
            elif len(searched) < len(legal):
                searched = legal
            if len(searched) == 1:
                return searched[0], legal
        if not can_search(view):
            return fallback(view, legal, self.rng), legal
        return None, searched

    def _model(self):
        if not self.opponent_model:
            return None
        if self._model_fn is None:
            self._model_fn = heuristic_model()
        return self._model_fn
