"""The arena's secrets and files: a secret default base seed kept for resume, results files named after
the bots, torn lines cut before appending, and ``--games`` counting matches (issue 19 items 4, 13;
issue 18 item 7)."""

import json
from pathlib import Path

from click.testing import CliRunner

from stich.arena import Arena, parse_bots, run_arena
from stich.arena.runner import default_out, load_results, read_header
from stich.cli.main import cli

GAME, VARIANT = "watten", "bavarian_2"


def arena_cli(cwd, monkeypatch, bots="random,random"):
    """``stich arena`` with its default results file, run in the folder ``cwd``: (result, {file: text})."""
    monkeypatch.chdir(cwd)
    args = ["arena", GAME, "-v", VARIANT, "--bots", bots, "-n", "2", "-j", "1", "--no-progress", "--json"]
    result = CliRunner().invoke(cli, args)
    files = {p.name: p.read_text() for p in Path(cwd).iterdir()}
    assert result.exit_code == 0, result.output
    return result, files


def test_the_default_base_seed_is_secret_random_and_kept_for_resume(tmp_path, monkeypatch):
    first, files = arena_cli(tmp_path, monkeypatch)
    (name,) = files
    head = json.loads(files[name].splitlines()[0])
    assert head["type"] == "arena" and isinstance(head["seed"], int) and head["seed"] not in (0, None)
    assert "secret base seed" in first.output and str(head["seed"]) not in first.output
    records = [json.loads(x) for x in files[name].splitlines()[1:]]
    assert len(records) == 2
    # another run in another folder draws another seed: the deals are not public
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    _, other = arena_cli(elsewhere, monkeypatch)
    assert json.loads(other[name].splitlines()[0])["seed"] != head["seed"]


def test_a_rerun_without_seed_resumes_with_the_stored_one(tmp_path):
    out = tmp_path / "r.jsonl"
    args = ["arena", GAME, "-v", VARIANT, "--bots", "random,random", "-n", "2", "-j", "1", "--no-progress",
            "--out", str(out)]
    assert CliRunner().invoke(cli, args).exit_code == 0
    again = CliRunner().invoke(cli, [*args[:6], "-n", "3", *args[8:]])
    assert again.exit_code == 0 and "Resuming: 2 of 3" in again.output, again.output
    assert len(load_results(out)) == 3 and read_header(out)["seed"] != 0


def test_the_default_results_file_names_the_bots():
    a = Arena(GAME, parse_bots("random,heuristic"), games=1, variant=VARIANT, seed=1)
    b = Arena(GAME, parse_bots("random,random"), games=1, variant=VARIANT, seed=1)
    assert default_out(a) == f"stich-arena-{GAME}-{VARIANT}-random_heuristic.jsonl"
    assert default_out(a) != default_out(b)
    long = Arena(GAME, parse_bots("cmd:python3 /some/where/very/long/path/to/my/bot.py --level 3,random"),
                 games=1, variant=VARIANT, seed=1)
    name = default_out(long)
    assert len(name) < 110 and " " not in name and "/" not in name


def test_a_torn_last_line_is_cut_before_appending(tmp_path):
    out = tmp_path / "r.jsonl"
    arena = Arena(GAME, parse_bots("random,random"), games=4, variant=VARIANT, seed=3)
    run_arena(arena, out=str(out), jobs=1)
    head, *lines = out.read_text().splitlines()
    out.write_text("\n".join([head, *lines[:2]]) + "\n" + lines[2][:30])  # killed while writing the third
    run_arena(arena, out=str(out), jobs=1)
    assert len(load_results(out)) == 4  # none lost: nothing is appended onto the torn line
    assert all(json.loads(x) for x in out.read_text().splitlines())


def test_junk_lines_in_a_results_file_are_skipped(tmp_path):
    out = tmp_path / "r.jsonl"
    out.write_text("[" * 100_000 + "\n" + "\xff junk\n")
    arena = Arena(GAME, parse_bots("random,random"), games=1, variant=VARIANT, seed=3)
    assert len(run_arena(arena, out=str(out), jobs=1)) == 1 and len(load_results(out)) == 1


def test_games_counts_matches_per_pair_as_the_help_says():
    help_text = CliRunner().invoke(cli, ["arena", "--help"]).output
    assert "Matches per pair of bots" in help_text
    plain = Arena(GAME, parse_bots("random,random"), games=3, variant=VARIANT, seed=1).schedule()
    dup = Arena(GAME, parse_bots("random,random"), games=3, variant=VARIANT, seed=1, duplicate=True).schedule()
    assert len(plain) == 3 and len(dup) == 3 * 2


def test_the_python_api_resumes_a_secret_seed_from_the_file(tmp_path):
    out = tmp_path / "r.jsonl"
    first = run_arena(Arena(GAME, parse_bots("random,random"), games=2, variant=VARIANT), out=str(out), jobs=1)
    again = Arena(GAME, parse_bots("random,random"), games=3, variant=VARIANT)
    calls = []
    records = run_arena(again, out=str(out), jobs=1, progress=lambda d, t: calls.append(d))
    assert calls[0] == 2 and records[:2] == first and again.seed == read_header(out)["seed"]


def test_a_torn_line_longer_than_a_block_is_cut_whole(tmp_path):
    out = tmp_path / "r.jsonl"
    arena = Arena(GAME, parse_bots("random,random"), games=2, variant=VARIANT, seed=3)
    run_arena(arena, out=str(out), jobs=1)
    whole = out.read_text()
    out.write_text(whole + '{"format": "stich-arena/1", "key": "' + "k" * 300_000)  # torn, 300 kB
    run_arena(arena, out=str(out), jobs=1)
    assert out.read_text() == whole
