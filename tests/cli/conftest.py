"""Registers the fixture game ``toy`` while these tests run, so they never depend on the real games."""

import pytest

from tests.registered import registered


@pytest.fixture(scope="package", autouse=True)
def toy_game():
    with registered("toy", "tests.cli.toygame:ToyGame") as name:
        yield name
