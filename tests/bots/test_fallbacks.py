"""A bot's safety nets around game code are loud: under tests (``STICH_BOTS_STRICT``, set by
``tests/conftest.py``) the error of a game's sampler, ranking or heuristic is raised; in production it
is counted per reason and logged, and the bot goes on.  Expected outcomes (no consistent world, an
action not legal in a sampled world) are no fallbacks."""

from __future__ import annotations

import logging
import random

import pytest

import stich
from stich.bots import fallbacks, make_bot
from stich.bots.search import common, decide
from stich.engine import companion, worlds
from stich.engine.worlds import WorldError, WorldSpecError


def first_card_decision(name="watten", variant="bavarian_4", seed=3):
    """The first choice among cards (what pimc searches), as its seat's view and legal texts."""
    game = stich.game(name, variant=variant) if variant else stich.game(name)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while not (len(state.legal_actions()) > 1 and all(a.verb == game.card_verb for a in state.legal_actions())):
        calm = [a for a in state.legal_actions() if a.verb not in game.rollout_avoid]
        state.apply(rng.choice(calm or state.legal_actions()))
    seat = state.current_player
    return state.view(seat), [str(a) for a in state.legal_actions()]


@pytest.fixture
def production(monkeypatch):
    """The nets as at a live table: counted and logged, not raised."""
    monkeypatch.setattr(fallbacks, "STRICT", False)


@pytest.fixture
def broken_sampler(monkeypatch):
    """Watten's world_spec raising, as a bug in it would (the game cache cleared so it is asked)."""
    def world_spec(self, view):
        raise RuntimeError("broken world_spec")

    monkeypatch.setattr(stich.engine.game_class("watten"), "world_spec", world_spec)
    monkeypatch.setattr(worlds, "_GAMES", {})


def test_the_suite_runs_strict():
    assert fallbacks.STRICT


def test_a_broken_sampler_fails_pimc_under_tests(broken_sampler):
    view, legal = first_card_decision()
    with pytest.raises(RuntimeError, match="broken world_spec"):
        make_bot("pimc", seed=1, budget="8it").choose(view, legal)


def test_a_broken_sampler_is_counted_and_logged_in_production(broken_sampler, production, caplog):
    view, legal = first_card_decision()
    heard = []
    fallbacks.on_fallback(heard.append)
    try:
        before = fallbacks.counts()["sampler"]
        with caplog.at_level(logging.WARNING, logger="stich.bots.fallbacks"):
            choice = make_bot("pimc", seed=1, budget="8it").choose(view, legal)
    finally:
        fallbacks._LISTENERS.remove(heard.append)
    assert choice in legal
    assert fallbacks.counts()["sampler"] > before and "sampler" in heard
    assert "bot fallback (sampler): RuntimeError: broken world_spec" in caplog.text


def test_a_broken_world_spec_is_not_taken_for_no_world(monkeypatch, production):
    view, _legal = first_card_decision()

    def broken(*args, **kwargs):
        raise WorldSpecError("card EO is placed twice by watten's world_spec")

    monkeypatch.setattr(common, "sample_worlds", broken)
    before = fallbacks.counts()["sampler"]
    assert common.draw_worlds(view, random.Random(1), 4, None) == []
    assert fallbacks.counts()["sampler"] == before + 1
    monkeypatch.setattr(fallbacks, "STRICT", True)
    with pytest.raises(WorldSpecError):
        common.draw_worlds(view, random.Random(1), 4, None)


def test_no_consistent_world_is_an_expected_outcome_not_a_fallback(monkeypatch):
    view, _legal = first_card_decision()

    def none_found(*args, **kwargs):
        raise WorldError("no world consistent with seat 0's view in 200 tries")

    monkeypatch.setattr(common, "sample_worlds", none_found)
    assert common.draw_worlds(view, random.Random(1), 4, None) == []   # strict, and no raise


def test_a_broken_ranking_is_raised_under_tests_and_counted_in_production(monkeypatch):
    view, legal = first_card_decision()

    def rank(view, legal):
        raise KeyError("broken rank")

    monkeypatch.setattr(companion("watten", "heuristic"), "rank", rank)
    with pytest.raises(KeyError, match="broken rank"):
        decide.candidates(view, legal, legal[0])
    monkeypatch.setattr(fallbacks, "STRICT", False)
    before = fallbacks.counts()["ranking"]
    assert decide.candidates(view, legal, legal[0])[0] == legal[0]   # the heuristic's choice stays
    assert fallbacks.counts()["ranking"] == before + 1


def test_an_unknown_reason_is_refused():
    with pytest.raises(ValueError, match="unknown fallback reason"):
        fallbacks.fell_back("misc", RuntimeError("x"))
