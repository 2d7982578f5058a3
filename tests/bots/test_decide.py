"""pimc's decisions by evaluation (``stich.bots.search.decide``): the Ansage, Schlòk / Trumpf, the
Orbi call, bids, calls, contracts and doubles valued on sampled worlds; and the opponent model's
likelihood weighting the worlds (``betting.lean_model``)."""

from __future__ import annotations

import json
import random

import pytest

import stich
from stich.bots import bets, make_bot
from stich.bots.search import decide
from stich.bots.search.betting import WEIGHT, lean_model, world_weights
from stich.bots.search.common import Clock, draw_worlds


def _reach(name, variant, seed, want, limit=600):
    """A state of a match between heuristic players where ``want(legal)`` holds."""
    from stich.bots.heuristic import HeuristicBot

    game = stich.game(name, variant=variant) if variant else stich.game(name)
    for attempt in range(20):
        state = game.new_state(seed=seed * 100 + attempt)
        bot = HeuristicBot(seed=seed)
        steps = 0
        while not state.is_terminal() and steps < limit:
            steps += 1
            legal = [str(a) for a in state.legal_actions()]
            if want(legal):
                return state, legal
            state.apply(bot.choose(state.view(state.current_player), legal))
    raise AssertionError(f"no decision of the kind wanted in {name}")


def _verb(v):
    return lambda legal: len(legal) > 1 and all(a.split(" ", 1)[0] == v for a in legal)


CASES = [("watten", "bavarian_4", "schlag"), ("watten", "bavarian_4", "trump"), ("watten", "blind", "show"),
         ("battn", None, "schlok"), ("battn", None, "trumpf"), ("biscambiggia", None, "call"),
         ("barbu", None, "contract")]


@pytest.mark.parametrize("name,variant,verb", CASES)
def test_decided_by_evaluation_legal_and_seeded(name, variant, verb):
    state, legal = _reach(name, variant, 3, _verb(verb))
    seat = state.current_player
    assert verb in bets.declared(name).decided
    choices = []
    for _ in range(2):
        bot = make_bot("pimc", seed=11, budget=4)
        choices.append(bot.choose(json.loads(json.dumps(state.view(seat))), legal))
        values = bot.last_decision
        assert values and len(values) == min(decide.TOP, len(legal))   # pruned to the top few
        assert set(values) <= set(legal)
    assert choices[0] == choices[1] and choices[0] in legal


def test_auction_by_evaluation():
    state, legal = _reach("biscambiggia", None, 2, lambda lg: "pass" in lg and any(a.startswith("bid ") for a in lg))
    bot = make_bot("pimc", seed=1, budget=4)
    choice = bot.choose(state.view(state.current_player), legal)
    assert choice in legal and "pass" in bot.last_decision


def test_candidates_are_the_heuristics_best_first():
    state, legal = _reach("watten", "bavarian_4", 5, _verb("schlag"))
    view = state.view(state.current_player)
    from stich.bots.heuristic import HeuristicBot

    own = HeuristicBot(seed=0).choose(view, legal)
    cands = decide.candidates(view, legal, own)
    assert cands[0] == own and len(cands) == decide.TOP and len(set(cands)) == decide.TOP


def test_pick_keeps_the_heuristic_unless_clearly_beaten():
    own = [0.0, 1.0, 0.0, 1.0]
    assert decide.pick({"own": own, "other": [0.1, 1.1, 0.1, 1.1]}, "own") == "other"    # always better
    assert decide.pick({"own": own, "other": [1.0, 0.0, 1.0, 0.0]}, "own") == "own"      # noise: no
    assert decide.pick({"own": own, "other": [-1.0, 0.0, -1.0, 0.0]}, "own") == "own"
    assert decide.pick({"own": own, "other": [float("-inf")] * 4}, "own") == "own"       # illegal there


def test_evaluation_prefers_the_trump_the_hand_holds():
    """The dealer names the trump: in the worlds the suit of his long, high hand is worth more
    than a suit he has none of (the value an evaluation must see to overrule the heuristic)."""
    for seed in range(1, 40):
        state, legal = _reach("watten", "bavarian_4", seed, _verb("trump"))
        view = state.view(state.current_player)
        suits = [c[0] for c in view["hand"]]
        long = max(set(suits), key=suits.count)
        missing = [a for a in legal if a.split()[1] not in suits]
        if suits.count(long) >= 3 and missing:
            break
    else:
        pytest.skip("no deal with a long suit and a missing one")
    bot = make_bot("pimc", seed=3, budget=24)
    worlds = draw_worlds(view, random.Random(3), 24, None, bot._model())
    cands = ["trump " + long, missing[0]]
    samples = decide.evaluate(bot, view, cands, worlds, [1.0] * len(worlds), Clock(bot.budget, 24))
    mean = {a: sum(v) / len(v) for a, v in samples.items()}
    assert mean["trump " + long] > mean[missing[0]]


def test_the_opponent_model_weights_worlds():
    """Another seat's Schlag is informative: a world where the heuristic in his shoes would have
    named another one is kept with probability 1/2 and carries the rest of the likelihood (0.2)
    as its weight, 0.4; one where it agrees is kept and weighs 1."""
    from stich.bots.heuristic import HeuristicBot

    state, legal = _reach("watten", "bavarian_4", 7, _verb("schlag"))
    who = state.current_player
    own = HeuristicBot(seed=0).choose(state.view(who), legal)
    other = next(a for a in legal if a != own)
    model = lean_model()
    agree, disagree = state.clone(), state.clone()
    assert model(agree, who, own) == 1.0 and getattr(agree, WEIGHT, 1.0) == 1.0
    assert model(disagree, who, other) == 0.5 and getattr(disagree, WEIGHT) == pytest.approx(0.4)
    assert getattr(disagree.clone(), WEIGHT) == pytest.approx(0.4)        # survives the clone
    # drawn worlds for the next seat carry these weights
    state.apply(own)
    seat = state.current_player
    view = state.view(seat)
    worlds = draw_worlds(view, random.Random(1), 30, None, model)
    weights = [getattr(w, WEIGHT, 1.0) for w in worlds]
    assert worlds and all(w == 1.0 or w == pytest.approx(0.4) for w in weights)
    combined = world_weights(worlds, view)
    assert combined == pytest.approx(weights)    # no raise yet: the model's weights alone
