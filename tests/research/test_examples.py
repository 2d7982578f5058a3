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


def test_vector_training_example(capsys):
    pytest.importorskip("numpy")
    before, after = _load("vector_train").main(["--seconds", "1", "--envs", "8", "--eval-hands", "20"])
    out = capsys.readouterr().out
    assert "REINFORCE for 1 s" in out and "mean hand reward" in out
    assert -2.0 <= before <= 2.0 and -2.0 <= after <= 2.0
