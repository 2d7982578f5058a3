"""Registers the fixture game ``toy`` while these tests run, so they never depend on the real games."""

import pytest

import stich.engine
from stich.engine import registry


@pytest.fixture(scope="package", autouse=True)
def toy_game():
    had = "toy" in registry._GAMES
    stich.engine.register("toy", "tests.cli.toygame:ToyGame")
    yield "toy"
    if not had:
        registry._GAMES.pop("toy", None)
