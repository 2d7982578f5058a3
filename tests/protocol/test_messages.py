"""``stich engine`` and the table's reading of messages: ids echoed, deep or huge input refused clearly."""

import json
import subprocess
import sys
from pathlib import Path

import stich
from stich.protocol import PROTOCOL

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable


def engine(*args, text, timeout=60):
    proc = subprocess.run([PY, "-m", "stich.cli.main", "engine", *args], input=text, capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [json.loads(x) for x in proc.stdout.splitlines()]


def hello_and_act():
    state = stich.game("watten", "bavarian_2").new_state(seed=6)
    seat = state.current_player
    hello = {"type": "hello", "protocol": PROTOCOL, "game": "watten", "variant": "bavarian_2", "options": {},
             "seat": seat, "num_players": 2, "seed": 4, "budget": None}
    act = {"type": "act", "id": 41, "view": state.view(seat), "legal": [str(a) for a in state.legal_actions()]}
    return hello, act


def test_stich_engine_echoes_the_request_id():
    hello, act = hello_and_act()
    answers = engine("--bot", "random", text=json.dumps(hello) + "\n" + json.dumps(act) + "\n")
    assert answers[1]["type"] == "action" and answers[1]["id"] == 41


def test_stich_engine_answers_deep_nesting_and_huge_input_with_a_short_error():
    hello, act = hello_and_act()
    deep = "[" * 100_000 + "]" * 100_000
    long_bad = '{"type": "act", "x": "' + "E" * 3_000_000 + '"'
    answers = engine("--bot", "random", text="\n".join([deep, long_bad, json.dumps(hello), json.dumps(act)]) + "\n")
    assert [a["type"] for a in answers] == ["error", "error", "ready", "action"]
    assert "nested too deeply" in answers[0]["message"]
    assert all(len(a.get("message", "")) < 2000 for a in answers)


def test_stich_engine_reads_a_line_over_16_mib_no_further():
    import io

    from stich.bots.serve import serve
    from stich.protocol import MAX_MESSAGE

    hello, act = hello_and_act()
    text = '{"type": "' + "x" * (MAX_MESSAGE + 10) + '"}\n' + json.dumps(hello) + "\n" + json.dumps(act) + "\n"
    out = io.StringIO()
    serve("random", stdin=io.StringIO(text), stdout=out)
    answers = [json.loads(x) for x in out.getvalue().split("\n") if x]
    assert [a["type"] for a in answers] == ["error", "ready", "action"]
    assert "at most" in answers[0]["message"] and len(answers[0]["message"]) < 300
