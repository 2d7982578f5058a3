"""The other decisions by evaluation, for ``pimc``: each candidate valued on sampled worlds.

The card play and the bets (``betting.py``) are searched; the decisions a game declares as
``DECIDED`` in its bets declaration (``rulesets/<game>/bets.py``: the Ansage - Schlag and trump or
the shown card -, the Schlòk and Trumpf and the Orbi call, the auction and the called card, the
contract and the doubles) are decided here the same way, instead of being asked of the heuristic:

* **candidates**: the legal actions of those verbs, ranked by the heuristic (its game module's
  ``rank(view, legal)`` when it has one, else its choice first); the top :data:`TOP` are
  evaluated (Watten's 8 Schlag ranks, Biscambiggia's 60 bids or 40 called cards would spend the
  budget on hopeless ones);
* **worlds**: drawn from the view as for the card play, weighted by how likely the others'
  observed decisions are under the opponent model (``betting.world_weights``);
* **value**: in each world each candidate is applied and the hand played out - cards by the
  playout policy, every later decision that is no card play by the heuristic in that seat's shoes
  in the world (so a Schlag is answered by a trump that fits the dealer's hand there, a bid by
  the others' bids), never a bet (``Game.rollout_avoid``).  The outcome is valued with the match
  score (``bets.Score.value``: the chance to win the match after the hand, when the match has a
  target and two sides), else by the zero-sum change of score (``common.utilities``).  All
  candidates of one world share the random numbers of their playouts (common random numbers), so
  their differences are measured more precisely than their values;
* **choice**: the best weighted mean - but the heuristic's own choice stays unless another
  candidate beats it by more than :data:`CONFIDENCE` standard errors of the paired difference
  (a few dozen noisy playouts must not overturn a sound rule of thumb by chance).

Budget: an iteration budget of ``k`` is ``k`` worlds (at most ``MAX_WORLDS``) with
:data:`ROUNDS` playouts per candidate in each; a time budget stops the rounds at its end (these
decisions come once or twice a hand, so they may use a larger share of it than a card).
"""

from __future__ import annotations

import math  # fsum totals: exact, the same choices under every Python (test_python_versions)
import random

from stich.bots import bets, fallbacks
from stich.bots.search import fastplay
from stich.bots.search.betting import MIN_WORLDS, gains, match_score, weighted_model, world_weights
from stich.bots.search.common import Clock, fallback, hand_over, rollout_action, score_vector, utilities
from stich.engine import IllegalActionError, companion, member

#: how many candidates are evaluated (the heuristic's ranking picks them)
TOP = 4
#: playouts per candidate and world with an iteration budget
ROUNDS = 1
#: how many standard errors of the paired difference another candidate must beat the heuristic's
#: choice by
CONFIDENCE = 1.0


def candidates(view: dict, decided: list[str], own: str) -> list[str]:
    """The candidates to evaluate, best first by the heuristic: its choice, then its ranking."""
    ranked: list[str] = []
    rank = member(view.get("game"), "heuristic", "rank")
    if rank is not None:
        try:
            ranked = [a for a in rank(view, decided) if a in decided]
        except Exception as exc:  # noqa: BLE001 - a ranking is a hint; the heuristic's choice stays (counted)
            fallbacks.fell_back("ranking", exc)
            ranked = []
    out = [own] if own in decided else []
    for a in ranked + decided:
        if a not in out:
            out.append(a)
    return out[:TOP]


class _End:
    """The end of a playout finished on the fast card-play path: its match scores."""

    __slots__ = ("scores",)

    def __init__(self, scores):
        self.scores = scores


def playout(state, hand: int, rng: random.Random, player, limit: int = 2000):
    """Play ``state`` on (in place) to the end of the hand: cards by the playout policy, other
    decisions by ``player`` (the game's heuristic ``choose(view, legal, rng)``) among the calm
    actions (no ``Game.rollout_avoid`` verb unless nothing else is legal).  Returns what the hand
    ended with (``.scores``): the state, or - once only cards remain - the end of the same
    playout policy on the fast card-play path (``fastplay``: the engine's playout on bit masks;
    ``state`` is then left where the cards began)."""
    game = state.game
    card, avoid = game.card_verb, game.rollout_avoid
    steps = 0
    while not hand_over(state, hand) and steps < limit:
        steps += 1
        legal = state.legal_actions()
        if player is None or len(legal) == 1 or any(a.verb == card for a in legal):
            if len(legal) > 1:
                k = fastplay.kernel(state)
                if k is not None:
                    return _End(fastplay.playout(k, rng))
            state.apply(rollout_action(legal, rng, state))
            continue
        calm = [a for a in legal if a.verb not in avoid] or list(legal)
        if len(calm) == 1:
            state.apply(calm[0])
            continue
        texts = [str(a) for a in calm]
        try:
            choice = player(state.view(state.current_player), texts, rng)
        except Exception as exc:  # noqa: BLE001 - a playout must go on: a random calm action (counted)
            fallbacks.fell_back("playout", exc)
            choice = None
        state.apply(choice if choice in texts else calm[rng.randrange(len(calm))])
    return state


def _valuer(world, seat: int, view: dict):
    """``value(start_world, end_state)``: the match-aware worth of the hand's outcome for ``seat``."""
    game = world.game
    score = match_score(world, seat, view) if game.two_sided else bets.Score()
    if score.need_me is not None:
        return lambda w, end: score.value(*gains(w, seat, end))
    return points(game, seat)


def points(game, seat: int):
    """``value(start_world, end_state)``: the zero-sum change of score for ``seat`` in points
    (``common.utilities``, the unit of the card search's values; the analysis counts in it)."""
    return lambda w, end: utilities(game, score_vector(w), score_vector(end))[seat]


def evaluate(bot, view: dict, cands: list[str], worlds, weights, clock: Clock, value=None) -> dict[str, list[float]]:
    """Per candidate, the value of each (world, round) sample, in the same order for all
    (``bot.rng`` draws the playouts' seeds; ``value``: how an outcome counts, by default the
    match-aware worth of :func:`_valuer`)."""
    seat = view["seat"]
    heuristic = companion(view.get("game"), "heuristic")
    player = None if heuristic is None else heuristic.choose
    if value is None:
        value = _valuer(worlds[0], seat, view)
    samples: dict[str, list[float]] = {a: [] for a in cands}
    rounds = ROUNDS if clock.iterations is not None else 10_000
    for r in range(rounds):
        for i, world in enumerate(worlds):
            # a time budget stops within the first round too (it may hold 400 worlds), once
            # MIN_WORLDS worlds give pick() a paired sample
            if (r or i >= MIN_WORLDS) and clock.iterations is None and clock.done(0):
                return samples
            hand = world.hand_number
            seed = bot.rng.randrange(2**62)
            for a in cands:
                s = world.clone()
                try:
                    s.apply(a, seat=None if s.current_player == seat else seat)
                except IllegalActionError:   # not legal in this world: the worst outcome
                    samples[a].append(-math.inf)
                    continue
                end = playout(s, hand, random.Random(seed), player)
                samples[a].append(weights[i] * value(world, end))
        if r == 0 and clock.iterations is None and clock.done(0):
            break
    return samples


def choose(bot, view: dict, legal: list[str]) -> str | None:
    """The bot's choice at a decision its game declares ``DECIDED``, or None when ``legal`` is
    not one (the card search or the heuristic then decides)."""
    decl = bets.declared(view.get("game"))
    if len(legal) < 2 or not decl.decided:
        return None
    decided = [a for a in legal if a.split(" ", 1)[0] in decl.decided]
    if not decided:
        return None
    own = fallback(view, legal, bot.rng)
    if own not in decided:        # another verb the heuristic takes (an exchange request)
        return own
    if len(decided) == 1:
        return decided[0]
    cands = candidates(view, decided, own)
    clock, worlds = bot.draw(view, weighted_model(bot))
    if not worlds:
        return own
    weights = world_weights(worlds, view)
    mean_w = sum(weights) / len(weights)
    weights = [w / mean_w for w in weights]
    samples = evaluate(bot, view, cands, worlds, weights, clock)
    best = pick(samples, cands[0])
    bot.last_decision = {a: (sum(v) / len(v) if v else None) for a, v in samples.items()}
    return best


def pick(samples: dict[str, list[float]], own: str) -> str:
    """The candidate to play: the best mean, if it beats ``own`` by :data:`CONFIDENCE` standard
    errors of the paired difference (the samples share worlds and random numbers), else ``own``."""
    base = samples[own]
    best, best_gain = own, 0.0
    for a, vals in samples.items():
        n = min(len(vals), len(base))
        if a == own or n < 2:
            continue
        d = [vals[i] - base[i] for i in range(n)]
        if any(math.isinf(x) or math.isnan(x) for x in d):
            continue
        mean = math.fsum(d) / n
        var = math.fsum((x - mean) ** 2 for x in d) / (n - 1)
        if mean > CONFIDENCE * math.sqrt(var / n) and mean > best_gain:
            best, best_gain = a, mean
    return best
