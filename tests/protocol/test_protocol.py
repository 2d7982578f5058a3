"""The stich-bot protocol: the example bot round trip, ``stich engine``, and faulty outside programs."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import stich
from stich.arena import Arena, parse_bots, run_arena
from stich.arena.table import play_match
from stich.bots import Bot, make_bot
from stich.bots.external import ExternalBot
from stich.protocol import PROTOCOL

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "protocol_bot.py"
PY = sys.executable
ENGINE = f"{PY} -m stich.cli.main engine"
GAME, VARIANT = "watten", "bavarian_2"


class FirstCard(Bot):
    """What examples/protocol_bot.py does, in process."""

    def choose(self, view, legal):
        plays = [a for a in legal if a.startswith("play ")]
        return (plays or legal)[0]


def script(tmp_path, name, body):
    path = tmp_path / name
    path.write_text("import json, sys, time\n" + textwrap.dedent(body))
    return f"cmd:{PY} {path}"


def test_example_bot_round_trip_matches_the_same_strategy_in_process():
    g = stich.game(GAME, VARIANT)
    outside = play_match(g, 12, [make_bot(f"cmd:{PY} {EXAMPLE}", seed=1), make_bot("random", seed=2)])
    inside = play_match(g, 12, [FirstCard(seed=1), make_bot("random", seed=2)])
    assert outside["faults"] == [] and outside["actions"] > 10
    assert {k: v for k, v in outside.items() if k != "seconds"} == {k: v for k, v in inside.items() if k != "seconds"}


def test_the_protocol_messages_seen_by_a_program(tmp_path):
    log = tmp_path / "log.jsonl"
    bot = script(tmp_path, "logger.py", f"""
        out = open({str(log)!r}, "w")
        for line in sys.stdin:
            out.write(line); out.flush()
            msg = json.loads(line)
            if msg["type"] == "hello":
                print(json.dumps({{"type": "ready", "name": "logger"}}), flush=True)
            elif msg["type"] == "act":
                print(json.dumps({{"type": "log", "message": "thinking"}}), flush=True)
                print(json.dumps({{"type": "action", "action": msg["legal"][-1]}}), flush=True)
    """)
    g = stich.game(GAME, VARIANT)
    result = play_match(g, 3, [make_bot("random", seed=1), make_bot(bot, seed=9, budget="250ms")])
    assert result["faults"] == []
    msgs = [json.loads(x) for x in log.read_text().splitlines()]
    hello = msgs[0]
    assert hello == {"type": "hello", "protocol": PROTOCOL, "game": GAME, "variant": VARIANT,
                     "options": dict(g.options), "seat": 1, "num_players": 2, "seed": 9, "budget": "0.25s"}
    acts = [m for m in msgs if m["type"] == "act"]
    assert acts and [m["id"] for m in acts] == list(range(1, len(acts) + 1))
    assert all(m["view"]["seat"] == 1 and m["legal"] == m["view"]["legal_actions"] for m in acts)
    assert msgs[-2]["type"] == "end" and msgs[-2]["returns"] == result["returns"]
    assert msgs[-1] == {"type": "quit"}


FAULTY = {
    "malformed": ("""
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "hello":
                print(json.dumps({"type": "ready", "name": "bad"}), flush=True)
            elif msg["type"] == "act":
                print("play, obviously" if msg["id"] % 2 else json.dumps({"type": "action", "action": 7}), flush=True)
    """, "malformed", ["sent malformed JSON", "'play, obviously'", "expected"]),
    "illegal": ("""
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "hello":
                print(json.dumps({"type": "ready", "name": "bad"}), flush=True)
            elif msg["type"] == "act":
                print(json.dumps({"type": "action", "action": "play XX"}), flush=True)
    """, "illegal", ["chose 'play XX', which is not legal (legal: "]),
    "crash": ("""
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "hello":
                print(json.dumps({"type": "ready", "name": "bad"}), flush=True)
            elif msg["type"] == "act":
                sys.stderr.write("Traceback: the bot fell over\\n"); sys.exit(3)
    """, "crash", ["exited (status 3)", "the bot fell over"]),
    "timeout": ("""
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] == "hello":
                print(json.dumps({"type": "ready", "name": "bad"}), flush=True)
            elif msg["type"] == "act":
                time.sleep(30)
    """, "timeout", ["did not answer act #1 within 0.3s"]),
    "no-hello": ("""
        print("hi there", flush=True)
        time.sleep(30)
    """, "malformed", ["malformed JSON in answer to hello", "'hi there'"]),
}


@pytest.mark.parametrize("case", sorted(FAULTY))
def test_faulty_programs_are_reported_and_the_table_plays_on(tmp_path, case):
    body, kind, texts = FAULTY[case]
    bot = script(tmp_path, f"{case}.py", body)
    g = stich.game(GAME, VARIANT)
    # a short act timeout where it is the fault looked for (waited for once); the protocol's own 10 s
    # elsewhere, so that a loaded machine running a program late does not make its fault a timeout
    timeout = 0.3 if kind == "timeout" else None
    result = play_match(g, 5, [make_bot(bot, seed=1, timeout=timeout), make_bot("random", seed=2)])
    faults = result["faults"]
    assert faults and all(f["seat"] == 0 and f["bot"] == bot for f in faults)
    assert faults[0]["kind"] == kind
    for text in texts:
        assert any(text in f["error"] for f in faults), (text, faults[:2])
    assert all(bot in f["error"] for f in faults)
    if kind in ("crash", "timeout") or case == "no-hello":  # the program is stopped; no more waiting
        assert all("was stopped earlier" in f["error"] for f in faults[1:])
    assert sum(result["returns"]) == 0  # the match was played to its end with fallbacks


def test_a_program_that_cannot_start_is_a_fault_not_a_crash():
    g = stich.game(GAME, VARIANT)
    result = play_match(g, 5, [make_bot("cmd:/no/such/program --x", seed=1), make_bot("random", seed=2)])
    assert result["faults"][0]["kind"] == "crash" and "cannot start" in result["faults"][0]["error"]
    assert "was stopped earlier" in result["faults"][-1]["error"]


def test_arena_records_faults_of_outside_bots(tmp_path):
    bot = script(tmp_path, "illegal.py", FAULTY["illegal"][0])
    arena = Arena(GAME, parse_bots(f"random,{bot}"), games=1, variant=VARIANT, seed=2)
    (rec,) = run_arena(arena, jobs=1)
    assert rec["faults"] and {f["kind"] for f in rec["faults"]} == {"illegal"}


def engine(*args, lines, timeout=30):
    proc = subprocess.run([PY, "-m", "stich.cli.main", "engine", *args], input="".join(x + "\n" for x in lines),
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(x) for x in proc.stdout.splitlines()]


def test_stich_engine_answers_hello_and_act():
    state = stich.game(GAME, VARIANT).new_state(seed=6)
    seat = state.current_player
    view, legal = state.view(seat), [str(a) for a in state.legal_actions()]
    hello = {"type": "hello", "protocol": PROTOCOL, "game": GAME, "variant": VARIANT, "options": {}, "seat": seat,
             "num_players": 2, "seed": 4, "budget": None}
    act = {"type": "act", "id": 1, "view": view, "legal": legal}
    lines = [json.dumps(hello), json.dumps(act), "this is not json", json.dumps({"type": "act", "view": view}),
             json.dumps(act), json.dumps({"type": "end", "view": view, "returns": [1, -1]}),
             json.dumps({"type": "quit"})]
    answers = engine("--bot", "random", "--seed", "3", lines=lines)
    assert [a["type"] for a in answers] == ["ready", "action", "error", "error", "action"]
    assert answers[0]["name"] == "stich random" and answers[0]["protocol"] == PROTOCOL
    assert answers[1]["action"] in legal and answers[4]["action"] in legal
    assert "malformed message" in answers[2]["message"] and "act needs" in answers[3]["message"]
    assert engine("--bot", "random", "--seed", "3", lines=lines) == answers  # seeded: the same choices


def test_stich_engine_rejects_unknown_bots():
    proc = subprocess.run([PY, "-m", "stich.cli.main", "engine", "--bot", "genius"], input="", capture_output=True,
                          text=True, timeout=30)
    assert proc.returncode == 2 and "unknown bot" in proc.stderr


def test_stich_engine_seated_through_the_protocol_plays_like_the_bot_itself():
    g = stich.game(GAME, VARIANT)
    via = play_match(g, 8, [ExternalBot(ENGINE + " --bot random --seed 5"), make_bot("random", seed=2)])
    assert via["faults"] == [] and sum(via["returns"]) == 0
    again = play_match(g, 8, [ExternalBot(ENGINE + " --bot random --seed 5"), make_bot("random", seed=2)])
    assert via["returns"] == again["returns"] and via["actions"] == again["actions"]
