"""Bots: the registry, RandomBot's determinism and legality, bots see only views."""

import random

import pytest

import stich
from stich.bots import Bot, RandomBot, bot_names, make_bot, register_bot


def play_match(seed, bot_seed, variant="standard"):
    state = stich.game("toy", variant).new_state(seed=seed)
    bots = [make_bot("random", seed=bot_seed + s) for s in range(2)]
    chosen = []
    while not state.is_terminal():
        seat = state.current_player
        legal = [str(a) for a in state.legal_actions()]
        view = state.view(seat)
        action = bots[seat].choose(view, legal)
        assert isinstance(action, str) and action in legal
        chosen.append(action)
        state.apply(action)
    return chosen


def test_random_bot_is_registered():
    assert "random" in bot_names()
    bot = make_bot("random", seed=3)
    assert isinstance(bot, RandomBot) and isinstance(bot, Bot) and bot.name == "random"
    assert make_bot(" Random ").name == "random"


def test_unknown_bot_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown bot 'genius'; bots are: .*random"):
        make_bot("genius")


def test_random_bot_is_deterministic_per_seed():
    assert play_match(7, 100) == play_match(7, 100)
    runs = {tuple(play_match(7, s)) for s in range(10)}
    assert len(runs) > 1


def test_random_bot_only_returns_legal_actions_and_uses_them_all():
    bot = RandomBot(seed=1)
    legal = ["play EO", "play S6", "raise"]
    seen = {bot.choose({}, legal) for _ in range(200)}
    assert seen == set(legal)
    for seed in range(30):
        play_match(seed, seed, variant=random.Random(seed).choice(["standard", "quick"]))


def test_random_bot_refuses_an_empty_list():
    with pytest.raises(ValueError):
        RandomBot(seed=0).choose({}, [])


def test_base_bot_must_be_subclassed_and_registry_checks_types():
    with pytest.raises(NotImplementedError):
        Bot().choose({}, ["x"])
    with pytest.raises(TypeError):
        register_bot("notabot", dict)

    class FirstBot(Bot):
        def choose(self, view, legal):
            return legal[0]

    register_bot("first-test", FirstBot)
    try:
        assert make_bot("first-test").choose({}, ["a", "b"]) == "a"
    finally:
        from stich.bots import base

        base._BOTS.pop("first-test")
