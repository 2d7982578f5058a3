"""``stich games``, ``stich replay`` and ``stich bench``, run in process with click's runner."""

import json
import random

import pytest
from click.testing import CliRunner

import stich
from stich.cli import bench
from stich.cli.main import cli


@pytest.fixture
def runner():
    return CliRunner()


@pytest.fixture
def record_file(tmp_path):
    state = stich.game("toy", "quick", target=2).new_state(seed=4)
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(state.record()))
    return path, state


def test_games_lists_games_variants_and_options(runner):
    result = runner.invoke(cli, ["games"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "toy" in out and "standard (default): 2 players" in out and "quick: 2 players" in out
    for text in ("target", "whole number", "trumps", "on | off", "toy §2", "standard: 3"):
        assert text in out


def test_play_help_names_the_games_of_the_registry(runner):
    """The help's per-game defaults are written from the registry: the fixture game, registered by this
    package's conftest as an outside package's entry point would add it, is named with the real games."""
    result = runner.invoke(cli, ["play", "--help"])
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "(default per game: de for watten, it for battn and biscambiggia, fr for barbu, en for toy)" in out
    assert "pimc: 16 sampled worlds, 40-48 in watten's guate, tyrolean and bavarian_2)" in out
    assert "Raise polls (pass or raise during play, in battn)" in out


def test_replay_all_prints_the_whole_game(runner, record_file):
    path, state = record_file
    result = runner.invoke(cli, ["replay", str(path), "--all", "--lang", "en"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Hand 1" in out and "Hand 2" in out and "Match over" in out
    assert "trick" in out and "Scores" in out
    assert "seen by the spectator" in out
    plays = [a for _s, a in state.history if a.verb == "play"]
    assert all(str(a) in out for a in plays)
    # the spectator never sees the deals
    assert "receive" not in out


def test_replay_from_a_seat_shows_its_own_cards(runner, record_file):
    path, state = record_file
    result = runner.invoke(cli, ["replay", str(path), "--all", "--seat", "2"])
    assert result.exit_code == 0, result.output
    assert "seen by Seat 2" in result.output and "You receive" in result.output


def test_replay_step_advances_on_enter_and_stops_on_q(runner, record_file):
    path, state = record_file
    result = runner.invoke(cli, ["replay", str(path)], input="\n\nt\nq\n")
    assert result.exit_code == 0, result.output
    assert "[1/" in result.output and "[3/" in result.output and "[4/" not in result.output
    assert "Match over" not in result.output


def test_replay_refuses_bad_files(runner, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = runner.invoke(cli, ["replay", str(bad), "--all"])
    assert result.exit_code == 1 and "not a JSON record" in result.output
    bad.write_text(json.dumps({"format": "other"}))
    result = runner.invoke(cli, ["replay", str(bad), "--all"])
    assert result.exit_code == 1 and "not a stich record" in result.output


def test_bench_prints_figures(runner):
    result = runner.invoke(cli, ["bench", "--seconds", "0.1", "--game", "toy"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "hands/s" in out and "matches/s" in out and "actions/s" in out
    assert out.count("toy") >= 2  # both variants
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return
    assert "openspiel:euchre" in out and "openspiel:hearts" in out


def test_bench_functions_measure_and_report_errors():
    r = bench.bench_game("toy", "quick", 0.05)
    assert r.error is None and r.hands_per_s > 0 and r.matches_per_s > 0 and r.actions_per_s > 0
    assert r.actions_per_hand == pytest.approx(7.0)  # one trump choice and six cards
    assert bench.bench_game("toy", "nosuchvariant", 0.05).error
    with pytest.raises(ValueError):
        bench.targets("toy", "nosuchvariant")
    assert bench.targets("toy") == [("toy", "standard", None), ("toy", "quick", None)]


def test_bench_keeps_the_median_slice_of_each_rate():
    rows = [bench.Result("g", "v", hands_per_s=h, matches_per_s=m, actions_per_s=10 * h, actions_per_hand=5.0)
            for h, m in ((100.0, None), (900.0, 2.0), (300.0, 4.0))]
    row = bench._median_of(rows)
    assert (row.hands_per_s, row.actions_per_s) == (300.0, 3000.0)   # a burst either way is ignored
    assert row.matches_per_s is None   # a slice without matches leaves the rate unknown
    broken = bench.Result("g", "v", error="RuntimeError: boom")
    assert bench._median_of([rows[1], broken]).error == "RuntimeError: boom"


def test_bench_refuses_unknown_game(runner):
    result = runner.invoke(cli, ["bench", "--game", "nosuchgame", "--seconds", "0.1"])
    assert result.exit_code == 2 and "unknown game" in result.output


def test_benchmarks_run_script(capsys):
    from tests.scripts import load_script

    module = load_script("benchmarks/run.py", "stich_benchmarks_run")
    assert module.main(["--game", "toy", "--variant", "quick", "--seconds", "0.05", "--no-openspiel"]) == 0
    out = capsys.readouterr().out
    assert "toy" in out and "hands/s" in out and "openspiel" not in out


def test_replay_of_a_record_with_actions_out_of_turn(runner, tmp_path):
    state = stich.game("watten", "euregio").new_state(seed=3)
    for text in ("cut 10", "4:ask_swap", "1:agree_swap", "1:show H8"):   # the last out of turn
        state.apply(text)
    assert [s for s, _a in state.history] == [2, 3, 0, 0]
    path = tmp_path / "euregio.json"
    path.write_text(json.dumps(state.record()))
    result = runner.invoke(cli, ["replay", str(path), "--all", "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "Seat 4 asks for a Schlagtausch" in result.output
