"""A fault-injecting outside bot (``faultbot.py``): every way a program can misbehave is reported as a
fault, the table plays on, nothing hangs, and no process outlives the match."""

import os
import sys
import threading
import time
from pathlib import Path

import pytest

import stich
from stich.arena.table import play_match
from stich.bots import make_bot
from stich.bots.external import ExternalBot
from stich.protocol import ProtocolError

HERE = Path(__file__).resolve().parent
FAULTBOT = HERE / "faultbot.py"
PY = sys.executable
GAME, VARIANT = "watten", "bavarian_2"


def faultbot(mode, pidfile=None):
    return f"cmd:{PY} {FAULTBOT} {mode}" + (f" {pidfile}" if pidfile else "")


#: the act timeout of the tests about a program that never answers: short, as it is waited for once
SHORT = 0.5


def play(bot_spec, limit=30.0, **kw):
    """One match of the fault bot (seat 0) against random, in a thread: fails if it takes over ``limit`` s.
    The answers' deadlines are the protocol's own (10 s) unless a test is about the timeout (``SHORT``):
    a fault that is not a timeout must not turn into one because a loaded machine ran the program late."""
    out = {}

    def run():
        try:
            out["result"] = play_match(stich.game(GAME, VARIANT), 5,
                                       [make_bot(bot_spec, seed=1, **kw), make_bot("random", seed=2)])
        except BaseException as exc:  # noqa: BLE001 - reported below
            out["error"] = exc

    start = time.monotonic()
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(limit)
    assert not thread.is_alive(), f"the match with {bot_spec} hung for {limit}s"
    if "error" in out:
        raise out["error"]
    result = out["result"]
    assert sum(result["returns"]) == 0 and not stich.game(GAME, VARIANT).new_state(5).is_terminal()
    result["wall"] = time.monotonic() - start
    return result


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead for our purposes
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def kinds(result):
    return [f["kind"] for f in result["faults"]]


def test_a_good_program_echoing_ids_plays_without_faults():
    assert play(faultbot("good"))["faults"] == []


def test_crash_at_start_is_one_crash_then_fallbacks():
    result = play(faultbot("crash-start"))
    assert kinds(result)[0] == "crash" and "cannot start" in result["faults"][0]["error"]
    assert all("was stopped earlier" in f["error"] for f in result["faults"][1:])


def test_crash_mid_match_quotes_stderr():
    result = play(faultbot("crash-mid"))
    first = result["faults"][0]
    assert first["kind"] == "crash" and "exited (status 3)" in first["error"] and "mid-match" in first["error"]


def test_garbage_bytes_are_malformed_answers():
    result = play(faultbot("garbage"))
    assert set(kinds(result)) == {"malformed"} and "UTF-8" in result["faults"][0]["error"]


def test_illegal_actions_are_reported():
    result = play(faultbot("illegal"))
    assert set(kinds(result)) == {"illegal"} and "'play XX'" in result["faults"][0]["error"]


def test_silence_times_out_once_and_stops_the_program(tmp_path):
    pid = tmp_path / "pid"
    result = play(faultbot("silent", pid), timeout=SHORT)
    assert kinds(result)[0] == "timeout" and "within 0.5s" in result["faults"][0]["error"]
    assert not alive(int(pid.read_text()))


def test_a_flooding_program_is_timed_out(tmp_path):
    pid = tmp_path / "pid"
    result = play(faultbot("flood", pid), limit=20, timeout=SHORT)
    assert kinds(result)[0] == "timeout"
    assert all("was stopped earlier" in f["error"] for f in result["faults"][1:])
    assert not alive(int(pid.read_text()))


def test_megabyte_lines_are_refused_and_the_late_answer_is_dropped_by_its_id():
    result = play(faultbot("megaline"))
    assert result["faults"] and set(kinds(result)) == {"malformed"}
    assert all("longer than" in f["error"] for f in result["faults"])
    assert all(len(f["error"]) < 2000 for f in result["faults"])


def test_a_program_that_closes_its_output_is_a_crash(tmp_path):
    pid = tmp_path / "pid"
    result = play(faultbot("closed-stdout", pid))
    first = result["faults"][0]
    assert first["kind"] == "crash" and "closed its output" in first["error"]
    assert not alive(int(pid.read_text()))


def test_a_wrapper_script_with_a_child_is_stopped_whole_after_a_timeout(tmp_path):
    pid = tmp_path / "pid"
    wrapper = tmp_path / "run.sh"
    wrapper.write_text(f"#!/bin/sh\n{PY} {FAULTBOT} slow-once {pid}\necho wrapper done\n")  # no exec: a child
    wrapper.chmod(0o755)
    result = play(f"cmd:{wrapper}", limit=20, timeout=SHORT)
    assert kinds(result)[0] == "timeout"
    assert not alive(int(pid.read_text()))


def test_extra_answers_with_ids_never_shift_the_answers():
    assert play(faultbot("extra"))["faults"] == []


def test_check_of_a_program_that_crashes_at_start_raises():
    g = stich.game(GAME, VARIANT)
    view = g.new_state(1).view(0)
    with pytest.raises(ProtocolError, match="crash|exited"):
        ExternalBot(f"{PY} {FAULTBOT} crash-start").check(view)
