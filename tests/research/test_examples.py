"""The examples run (with tiny settings)."""

from __future__ import annotations

import pytest

from tests.scripts import load_script


def _load(name):
    return load_script(f"examples/{name}.py")


def test_pettingzoo_example(capsys):
    pytest.importorskip("pettingzoo")
    _load("pettingzoo_random_eval").main(["--matches", "3", "--train", "3"])
    out = capsys.readouterr().out
    assert "first-legal" in out and "REINFORCE" in out


def test_openspiel_example(capsys):
    pytest.importorskip("pyspiel")
    _load("openspiel_ismcts").main(["--hands", "1", "--simulations", "3", "--variant", "bavarian_2"])
    assert "ISMCTS" in capsys.readouterr().out
