"""The examples run (with tiny settings)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _load(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_pettingzoo_example(capsys):
    pytest.importorskip("pettingzoo")
    _load("pettingzoo_random_eval").main(["--matches", "3", "--train", "3"])
    out = capsys.readouterr().out
    assert "first-legal" in out and "REINFORCE" in out


def test_openspiel_example(capsys):
    pytest.importorskip("pyspiel")
    _load("openspiel_ismcts").main(["--hands", "1", "--simulations", "3", "--variant", "bavarian_2"])
    assert "ISMCTS" in capsys.readouterr().out
