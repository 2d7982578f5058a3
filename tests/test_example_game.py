"""The example game package (examples/stich-trio), installed as an outside package would be: built
by pip into a directory of its own and put on the path.  stich finds it through the ``stich.games``
entry-point group alone, and every surface serves it: ``stich.games()``, ``stich play``,
``stich arena`` with ``pimc``, PettingZoo's ``api_test`` and OpenSpiel's ``random_sim_test``.

Each check runs in a fresh interpreter: entry points are read once per process, as in real use."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "stich-trio"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The example package installed (not editable, no dependencies, offline) into its own dir."""
    target = tmp_path_factory.mktemp("site")
    build = tmp_path_factory.mktemp("build")
    source = build / "stich-trio"   # a copy: building in place would leave build files in the checkout
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                    "--no-index", "--target", str(target), str(source)],
                   check=True, capture_output=True, text=True, timeout=300, cwd=build)
    assert (target / "stich_trio").is_dir() and list(target.glob("stich_trio-*.dist-info"))
    return target


def run(site, code=None, args=None, cwd=None, timeout=240):
    env = dict(os.environ, PYTHONPATH=str(site), PYTHONIOENCODING="utf-8", COLUMNS="140", TERM="dumb")
    argv = [sys.executable, "-c", code] if code is not None else [sys.executable, "-m", "stich.cli.main", *args]
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_installed_game_is_listed_and_is_not_there_without_the_package(site):
    assert run(site, "import stich; print(stich.games())").strip() == \
        "['watten', 'battn', 'biscambiggia', 'barbu', 'trio']"
    alone = subprocess.run([sys.executable, "-c", "import stich; print(stich.games())"], capture_output=True,
                           text=True, check=True, env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert "trio" not in alone.stdout


def test_the_help_names_it_with_the_games_stich_ships(site):
    """Help texts that name games are written from the registry, so the outside game is among them."""
    out = " ".join(run(site, args=["play", "--help"]).split())
    assert "(default per game: de for watten, it for battn and biscambiggia, fr for barbu, en for trio)" in out


def test_it_passes_the_conformance_kit_with_its_golden_perft_counts(site):
    report = run(site, f"""
from stich_trio import TrioGame
from stich.testing import check_game
print(check_game(TrioGame, {str(EXAMPLE / "tests" / "perft.json")!r}))
""")
    assert "'perft_counts': 8" in report


def test_stich_play_plays_a_whole_match_of_it(site, tmp_path):
    answers = "1\n" * 200
    env = dict(os.environ, PYTHONPATH=str(site), PYTHONIOENCODING="utf-8", COLUMNS="140", TERM="dumb")
    done = subprocess.run([sys.executable, "-m", "stich.cli.main", "play", "trio", "--seed", "5", "--bots", "random",
                           "--record", str(tmp_path / "trio.json")], input=answers, env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Match over" in done.stdout
    check = f"""
import json, stich
rec = json.load(open({str(tmp_path / "trio.json")!r}))
s = stich.replay(rec)
assert s.is_terminal() and rec["game"] == "trio" and s.hand_number == 3, rec
print(len([a for seat, a in rec["actions"] if seat == 0]))
"""
    assert int(run(site, check)) == 24   # seat 1 played its 8 cards in each of 3 hands


def test_stich_arena_with_pimc(site, tmp_path):
    out = tmp_path / "arena.jsonl"
    run(site, args=["arena", "trio", "--bots", "pimc@4,random", "-n", "2", "-j", "1", "--out", str(out)], cwd=tmp_path)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and all(r["game"] == "trio" for r in rows)


def test_pettingzoo_api_test(site):
    pytest.importorskip("pettingzoo")
    run(site, """
from pettingzoo.test import api_test
from stich.pettingzoo import env
api_test(env("trio"), num_cycles=200)
print("ok")
""")


def test_openspiel_random_sim_test(site):
    pytest.importorskip("pyspiel")
    run(site, """
import pyspiel
from open_spiel.python.algorithms.get_all_states import get_all_states  # noqa: F401 (OpenSpiel is whole)
import stich.openspiel
game = pyspiel.load_game("python_stich_trio_short")
pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
print(game.max_game_length())
""")


def test_stichs_own_games_are_entry_points_of_the_same_group():
    """The built-in games are declared like any outside game; from a checkout stich reads its own
    pyproject (a line reader, checked here against tomllib) so that an editable install whose
    metadata predates a new game still lists it."""
    import importlib.metadata
    import tomllib

    from stich.engine.registry import ENTRY_POINT_GROUP, _checkout_entry_points

    with open(ROOT / "pyproject.toml", "rb") as f:
        declared = tomllib.load(f)["project"]["entry-points"][ENTRY_POINT_GROUP]
    assert _checkout_entry_points() == declared
    assert list(declared) == ["watten", "battn", "biscambiggia", "barbu"]
    installed = {ep.name: ep.value for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
                 if ep.dist is not None and ep.dist.name == "stich"}
    assert not installed or installed == declared
