"""``stich play``: whole matches through a pseudo-terminal, input handling, quit and resume."""

import json
import re
import shutil
import subprocess
import sys

import pexpect
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import stich
from stich.cli.main import cli
from stich.cli.play import make_bots, parse_options, resolve_input

from .helpers import PROMPT, ROOT, answer_until_end, check_record, spawn

EXAMPLE = f"{ROOT}/examples/protocol_bot.py"


def test_full_toy_match_by_always_answering_1(tmp_path):
    child = spawn(["play", "toy", "--seed", "5", "--lang", "en", "--bots", "random"], tmp_path)
    prompts = answer_until_end(child)
    assert prompts > 0
    assert re.search(r"Match over\. (You win \d+:\d+|Seat 2 wins \d+:\d+; you lose|A draw)\.",
                     child.transcript.getvalue())   # the result in words, winner first
    rec = check_record(tmp_path / "stich-toy-5.json")
    assert rec["game"] == "toy" and rec["seed"] == 5
    assert rec["cli"]["seat"] == 0


def test_match_output_shows_table_bots_and_results(tmp_path):
    child = spawn(["play", "toy", "--seed", "2", "--seat", "2", "--option", "target=1", "--bots", "random",
                   "--record", str(tmp_path / "r.json")], tmp_path)
    child.expect("Toy")
    child.expect(PROMPT)
    screen = child.before
    assert "Your hand" in screen and "you are Seat 2" in screen
    assert "Your legal actions:" in screen and "1)" in screen
    child.sendline("1")
    answer_until_end(child)
    log = child.transcript.getvalue()
    assert "wins the trick" in log or "win the trick" in log
    assert "Scores" in log and "Match over." in log and "Seat 1: play" in log
    rec = check_record(tmp_path / "r.json")
    assert rec["options"]["target"] == 1
    assert rec["cli"]["seat"] == 1


def test_bad_input_is_refused_and_reprompted_then_quit_and_resume(tmp_path):
    path = tmp_path / "game.json"
    child = spawn(["play", "toy", "--seed", "11", "--bots", "random", "--record", str(path)], tmp_path)
    child.expect(PROMPT)
    child.sendline("blurb")
    child.expect("Not accepted")
    child.expect(PROMPT)
    child.sendline("99")
    child.expect("there is no action number 99")
    child.expect(PROMPT)
    child.sendline("help")
    child.expect("Type the number of an action")
    child.expect(PROMPT)
    child.sendline("play XX")
    child.expect("Not accepted")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("Unfinished match saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = json.loads(path.read_text())
    assert saved["terminal"] is False and len(saved["actions"]) >= 2
    assert not stich.replay(saved).is_terminal()

    child = spawn(["play", "--resume", str(path)], tmp_path)
    answer_until_end(child)
    rec = check_record(path)
    assert rec["actions"][: len(saved["actions"])] == saved["actions"]


@pytest.mark.parametrize(("args", "text"), [
    (["play", "nosuchgame"], "unknown game"),
    (["play"], "name a game"),
    (["play", "toy", "--variant", "long"], "no variant 'long'"),
    (["play", "toy", "--option", "colour=red"], "no option 'colour'"),
    (["play", "toy", "--option", "target=zero"], "whole number"),
    (["play", "toy", "--option", "target"], "name=value"),
    (["play", "toy", "--seat", "3"], "--seat must be 1 to 2"),
    (["play", "toy", "--bots", "genius"], "unknown bot"),
])
def test_bad_arguments_are_clear_usage_errors(args, text):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert text in result.output


def test_resume_refuses_other_game_arguments(tmp_path):
    state = stich.game("toy").new_state(seed=3)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(state.record()))
    for args, text in ((["--seed", "4"], "leave out"), (["--variant", "quick"], "leave out"),
                       (["--option", "target=2"], "leave out")):
        result = CliRunner().invoke(cli, ["play", "--resume", str(path), *args])
        assert result.exit_code == 2 and text in result.output
    result = CliRunner().invoke(cli, ["play", "barbu", "--resume", str(path)])
    assert result.exit_code == 2 and "is a record of toy" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(state.record() | {"actions": [[0, "play EO"]]}))
    result = CliRunner().invoke(cli, ["play", "--resume", str(bad)])
    assert result.exit_code == 2 and "cannot resume" in result.output and "not to act" in result.output


def test_resume_of_a_finished_match_shows_the_result(tmp_path):
    state = stich.game("toy", "quick").new_state(seed=3)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    path = tmp_path / "done.json"
    path.write_text(json.dumps(state.record()))
    result = CliRunner().invoke(cli, ["play", "--resume", str(path)])
    assert result.exit_code == 0, result.output
    assert "already over" in result.output and "Match over." in result.output


def test_installed_script_runs():
    exe = shutil.which("stich")
    cmd = [exe] if exe else [sys.executable, "-m", "stich.cli.main"]
    out = subprocess.run([*cmd, "--help"], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0
    for command in ("games", "play", "replay", "bench", "arena", "engine", "bots"):
        assert command in out.stdout


# --- input resolution, in process ------------------------------------------------------------------
@pytest.fixture
def toy_state():
    g = stich.game("toy")
    return g.new_state(seed=1, hands=[["EO", "E7", "HK"], ["EA", "L8", "S9"]], dealer=0)


def test_resolve_numbers_texts_and_shortcuts(toy_state):
    s = toy_state  # seat 2 (index 1) names trumps first
    assert resolve_input("1", s).action == "trump H"
    assert resolve_input("trump s", s).action == "trump S"
    assert resolve_input("2:trump e", s).action == "trump E"
    assert resolve_input("L", s).action == "trump L"  # an argument alone
    assert resolve_input("help", s).kind == "help"
    assert resolve_input("QUIT", s).kind == "quit"
    assert resolve_input("   ", s).kind == "empty"
    assert resolve_input("5", s).kind == "error"
    bad = resolve_input("1:trump e", s)
    assert bad.kind == "error" and "seat 1 is not you" in bad.message
    s.apply("trump H")
    s.apply("play EA")
    # seat 1 must follow Eichel: EO and E7 are legal
    assert resolve_input("eo", s).action == "play EO"
    assert resolve_input("play e-o", s).action == "play EO"
    assert resolve_input("O-E", s).action == "play EO"
    refused = resolve_input("hk", s)
    assert refused.kind == "error" and "must follow suit" in refused.message
    refused = resolve_input("play HK", s)
    assert refused.kind == "error" and "must follow suit" in refused.message
    unknown = resolve_input("play ZZ", s)
    assert unknown.kind == "error" and "not a" in unknown.message


def test_parse_options_and_bots():
    assert parse_options(["target=5", " trumps = off "]) == {"target": "5", "trumps": "off"}
    with pytest.raises(ValueError):
        parse_options(["target"])
    bots, labels = make_bots("random", 1, 4, 7)
    assert sorted(bots) == [0, 2, 3] and labels[1] == "human"
    with pytest.raises(ValueError):
        make_bots("random,random", 0, 4, 7)


def test_a_bot_returning_an_illegal_action_is_reported_and_the_table_plays_on(tmp_path):
    from stich.bots import Bot, base, register_bot

    class IllegalBot(Bot):
        def choose(self, view, legal):
            return "play EO" if "play EO" not in legal else "play S7"

    register_bot("illegal-test", IllegalBot)
    try:
        path = tmp_path / "illegal.json"
        result = CliRunner().invoke(cli, ["play", "toy", "--seat", "1", "--seed", "1", "--bots", "illegal-test",
                                          "--record", str(path)], input="1\n" * 60)
    finally:
        base._BOTS.pop("illegal-test")
    assert result.exit_code == 0, result.output
    assert "Bot fault" in result.output and "illegal-test bot at seat 2" in result.output
    assert "not legal" in result.output and "random legal action instead" in result.output
    assert "Match over." in result.output
    check_record(path)


def test_a_crashing_bot_is_reported_and_the_table_plays_on(tmp_path):
    from stich.bots import Bot, base, register_bot

    class CrashBot(Bot):
        def choose(self, view, legal):
            raise RuntimeError("out of ideas")

    register_bot("crash-test", CrashBot)
    try:
        path = tmp_path / "crash.json"
        result = CliRunner().invoke(cli, ["play", "toy", "--seed", "2", "--bots", "crash-test",
                                          "--record", str(path)], input="1\n" * 60)
    finally:
        base._BOTS.pop("crash-test")
    assert result.exit_code == 0, result.output
    assert "RuntimeError: out of ideas" in result.output and "Match over." in result.output


def test_hint_command_and_hints_flag_suggest_a_legal_action(tmp_path):
    path = tmp_path / "h.json"
    result = CliRunner().invoke(cli, ["play", "toy", "--seed", "3", "--bots", "random", "--budget", "20ms",
                                      "--record", str(path)], input="hint\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Hint (" in result.output and "0.02s" in result.output
    line = next(x for x in result.output.splitlines() if "Hint (" in x).split("Hint (")[1]
    state = stich.replay(json.loads(path.read_text()))
    assert any(str(a) in line for a in state.legal_actions())
    result = CliRunner().invoke(cli, ["play", "toy", "--seed", "3", "--bots", "random", "--hints", "--budget", "20ms",
                                      "--record", str(path)], input="1\n" * 60)
    assert result.exit_code == 0, result.output
    assert result.output.count("Hint (") >= 2 and "Match over." in result.output
    assert json.loads(path.read_text())["cli"]["budget"] == "0.02s"


def test_default_bot_is_the_best_available(monkeypatch):
    from stich.bots import Bot, base, default_bot_name, register_bot

    assert default_bot_name("toy") in base.PREFERRED

    class Pimc(Bot):
        def choose(self, view, legal):
            return legal[0]

    class Cheat(Bot):
        sees_everything = True

    monkeypatch.setattr(base, "_BOTS", {"random": base._BOTS["random"]})
    monkeypatch.setattr(base, "_loaded", True)
    monkeypatch.setattr(base, "PREFERRED", ("cheat", "pimc", "random"))
    register_bot("cheat", Cheat)
    assert default_bot_name("toy") == "random"  # a cheat is never the default
    register_bot("pimc", Pimc)
    assert default_bot_name("toy") == "pimc"
    bots, labels = make_bots(None, 0, 2, 5, game="toy")
    assert labels == ["human", "pimc"]
    assert bots[1].budget.seconds is None and bots[1].budget.iterations is None   # the bot's own default
    bots, _ = make_bots(None, 0, 2, 5, game="toy", budget="250ms")
    assert bots[1].budget.seconds == 0.25
    with pytest.raises(ValueError, match="sees every card"):
        make_bots("cheat", 0, 2, 5, game="toy")


def test_play_against_an_outside_program(tmp_path):
    bot = f"cmd:{sys.executable} {EXAMPLE}"
    path = tmp_path / "ext.json"
    result = CliRunner().invoke(cli, ["play", "toy", "--seed", "4", "--bots", bot, "--record", str(path)],
                                input="1\n" * 60)
    assert result.exit_code == 0, result.output
    assert "Bot fault" not in result.output and "Match over." in result.output
    assert json.loads(path.read_text())["cli"]["bots"][1] == bot


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=20) | st.sampled_from(["play", "1:", ":", "play ", "trump", "0", "-1", "e o", "10h"]))
def test_any_input_line_gives_a_choice_and_changes_nothing(text):
    g = stich.game("toy")
    s = g.new_state(seed=1, hands=[["EO", "E7", "HK"], ["EA", "L8", "S9"]], dealer=0)
    s.apply("trump H")
    s.apply("play EA")
    before = s.record()
    choice = resolve_input(text, s)
    assert choice.kind in ("action", "help", "rules", "autoplay", "table", "hint", "quit", "empty", "error")
    if choice.kind == "action":
        assert choice.action in s.legal_actions()
    if choice.kind == "error":
        assert choice.message
    assert s.record() == before


def test_input_that_looks_like_markup_is_refused_not_a_crash(tmp_path):
    result = CliRunner().invoke(cli, ["play", "toy", "--seed", "1", "--bots", "random", "--record",
                                      str(tmp_path / "m.json")], input="[/x]\n[bold]\nquit\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("Not accepted") == 2 and "'[/x]'" in result.output
