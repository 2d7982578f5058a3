"""``stich play`` keeps secrets and records: one-way bot seeds, atomic saves (also on SIGTERM/SIGHUP and
after every hand), a resume that starts no program named in the record, clear errors for bad records,
a resume hint that works and short record names (issue 19 items 1, 6, 7, 11, 12; issue 18 item 2)."""

import json
import os
import re
import signal
import subprocess
import sys
import time

import pexpect
import pytest
from click.testing import CliRunner

import stich
from stich.cli.main import cli
from stich.cli.play import start_match

from .helpers import PROMPT, ROOT, answer_until_end, spawn


def _match(tmp_path, seed=7, resume=None):
    return start_match(None if resume else "watten", None, None, None if resume else seed, (), "en", "random",
                       str(tmp_path / "m.json"), resume)


def test_bot_seeds_do_not_lead_back_to_the_match_seed(tmp_path):
    a, b = _match(tmp_path), _match(tmp_path)
    assert a.state.seed == b.state.seed == 7
    inverse = pow(1000003, -1, 2**63)
    for seat, bot in a.bots.items():
        assert bot.seed != b.bots[seat].seed  # a secret key, not the public seed, makes them
        assert (bot.seed - seat) * inverse % 2**63 != 7 and bot.seed != 7
    assert a.key != b.key and a.key not in json.dumps(a.state.view(1))


def test_a_resumed_match_rebuilds_the_same_bots_from_the_saved_key(tmp_path):
    a = _match(tmp_path)
    a.save(final=False, quiet=True)
    again = _match(tmp_path, resume=a.record_path)
    assert again.key == a.key and {s: b.seed for s, b in again.bots.items()} == {s: b.seed for s, b in a.bots.items()}


SAVER = """
import random, sys
import stich
from stich.cli.play import start_match
m = start_match("barbu", None, None, 3, (), "en", "random", sys.argv[1], None)
rng = random.Random(1)
while not m.state.is_terminal():
    m.state.apply(rng.choice(m.state.legal_actions()))
m.save(final=False, quiet=True)
print("ready", flush=True)
while True:
    m.save(final=False, quiet=True)
"""


def test_a_save_killed_at_any_moment_leaves_a_whole_record(tmp_path):
    path = tmp_path / "barbu.json"
    for attempt in range(4):
        proc = subprocess.Popen([sys.executable, "-c", SAVER, str(path)], stdout=subprocess.PIPE, text=True,
                                cwd=ROOT, env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src")))
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(0.02 + 0.047 * attempt)  # kills land at different points of a save
        proc.kill()
        proc.wait()
        proc.stdout.close()
        rec = json.loads(path.read_text())  # never empty, never torn
        assert stich.replay(rec).is_terminal()
    assert {p.name for p in tmp_path.iterdir()} <= {"barbu.json", ".barbu.json.tmp"}  # one reused temporary


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_saves_the_match(tmp_path, sig):
    path = tmp_path / "r.json"
    child = spawn(["play", "toy", "--seed", "11", "--bots", "random", "--record", str(path)], tmp_path)
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.kill(sig)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 128 + sig or child.signalstatus is None
    rec = json.loads(path.read_text())
    assert len(rec["actions"]) >= 1 and not stich.replay(rec).is_terminal()


def test_every_finished_hand_is_saved_before_the_next_prompt(tmp_path):
    path = tmp_path / "r.json"
    child = spawn(["play", "toy", "--seed", "11", "--bots", "random", "--record", str(path)], tmp_path)
    while True:
        child.expect(PROMPT)  # (the match lasts several hands: it ends at 3 points, one per hand)
        if path.exists():
            break
        child.sendline("1")
    os.kill(child.pid, signal.SIGKILL)  # nothing gets a chance to save now
    child.expect(pexpect.EOF)
    rec = json.loads(path.read_text())
    assert stich.replay(rec).hand_number >= 2


def _saved_record(tmp_path, cli_part):
    rec = stich.game("toy").new_state(seed=3).record()
    rec["cli"] = cli_part
    path = tmp_path / "shared.json"
    path.write_text(json.dumps(rec))
    return path


def test_resume_never_starts_a_program_named_in_the_record(tmp_path):
    marker = tmp_path / "ran"
    prog = f"cmd:{sys.executable} -c 'open(\"{marker}\", \"w\")'"
    path = _saved_record(tmp_path, {"seat": 1, "bots": [prog, "human"], "lang": "en"})
    result = CliRunner().invoke(cli, ["play", "--resume", str(path)], input="1\n" * 20 + "quit\n")
    assert result.exit_code == 2, result.output
    assert "never starts a program named in a record" in result.output and "--bots" in result.output
    time.sleep(0.3)
    assert not marker.exists()
    result = CliRunner().invoke(cli, ["play", "--resume", str(path), "--bots", "random"], input="quit\n")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("cli_part, words", [
    ([1], "'cli' field must be an object"),
    ({"bots": "random"}, "'cli.bots' must be a list"),
    ({"seat": "1"}, "'cli.seat' must be a seat"),
    ({"seat": 7}, "'cli.seat' must be a seat"),
    ({"lang": "xx" * 1000}, "'cli.lang' must be one of"),
    ({"key": 5}, "'cli.key' must be text"),
])
def test_a_malformed_cli_field_is_a_clear_error(tmp_path, cli_part, words):
    path = _saved_record(tmp_path, cli_part)
    result = CliRunner().invoke(cli, ["play", "--resume", str(path)], input="quit\n")
    assert result.exit_code == 2 and words in result.output and str(path.name) in result.output, result.output
    assert len(result.output) < 1000


@pytest.mark.parametrize("content, words", [("[" * 100_000, "nested too deeply"),
                                            (b"\xff\xd8\xff\xe0junk", "not UTF-8")])
def test_resume_and_replay_of_junk_name_the_file(tmp_path, content, words):
    path = tmp_path / "junk.json"
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    for args in (["play", "--resume", str(path)], ["replay", str(path), "--all"]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code in (1, 2) and words in result.output and "junk.json" in result.output, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)


def test_the_resume_hint_is_a_command_that_works(tmp_path):
    exe = os.path.join(os.path.dirname(sys.executable), "stich")
    if not os.path.exists(exe):
        pytest.skip("no stich script beside this Python (not installed in a virtual environment)")
    env = dict(os.environ, TERM="dumb", COLUMNS="200", PATH="/usr/bin:/bin")  # stich is not on this PATH
    first = subprocess.run([exe, "play", "watten", "--seed", "3", "--bots", "random", "--lang", "en"], input="quit\n",
                           capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)
    assert first.returncode == 0, first.stderr
    hint = re.search(r"Continue with: (.+)", first.stdout).group(1).strip()
    assert hint == f"{exe} play --resume stich-watten-3.json"
    again = subprocess.run(hint.split(), input="quit\n", capture_output=True, text=True, cwd=tmp_path, env=env,
                           timeout=60)
    assert again.returncode == 0 and "Resuming" in again.stdout, again.stdout + again.stderr


def test_a_random_seed_gives_a_short_record_name(tmp_path):
    child = spawn(["play", "toy", "--bots", "random"], tmp_path)
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    (name,) = [p.name for p in tmp_path.iterdir()]
    assert re.fullmatch(r"stich-toy-[0-9a-f]{6}\.json", name), name
    answer_until_end(spawn(["play", "--resume", name], tmp_path))


SPY = """
import json, sys
out = open(sys.argv[1], "a")
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        out.write(json.dumps({"seat": msg["seat"], "seed": msg["seed"]}) + "\\n"); out.flush()
        print(json.dumps({"type": "ready", "name": "spy"}), flush=True)
    elif msg["type"] == "act":
        print(json.dumps({"type": "action", "action": msg["legal"][0], "id": msg["id"]}), flush=True)
    elif msg["type"] == "quit":
        break
"""


def test_a_spy_program_cannot_recover_the_deal_from_its_hello_seed(tmp_path):
    spy = tmp_path / "spy.py"
    spy.write_text(SPY)
    runs = []
    for run in range(2):
        seen = tmp_path / f"seen{run}.jsonl"
        args = ["play", "--lang", "en", "watten", "--seed", "7", "--bots", f"cmd:{sys.executable} {spy} {seen}",
                "--record", str(tmp_path / f"r{run}.json")]
        result = CliRunner().invoke(cli, args, input="1\n" * 8 + "quit\n")
        assert result.exit_code == 0, result.output
        runs.append([json.loads(x) for x in seen.read_text().splitlines()])
    assert all(runs)
    inverse = pow(1000003, -1, 2**63)
    for h in runs[0] + runs[1]:
        assert (h["seed"] - h["seat"]) * inverse % 2**63 != 7 and h["seed"] != 7
    assert {h["seed"] for h in runs[0]}.isdisjoint(h["seed"] for h in runs[1])  # a fresh secret per match


def test_the_command_gives_the_signal_handlers_back(tmp_path):
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)
    result = CliRunner().invoke(cli, ["play", "toy", "--seed", "3", "--bots", "random", "--record",
                                      str(tmp_path / "r.json")], input="quit\n")
    assert result.exit_code == 0, result.output
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)) == before
