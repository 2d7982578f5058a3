"""The fuzz suite: ``apply``, ``new_state``, ``replay``, the record loader and the ``stich-bot/1`` messages
on arbitrary input raise only the documented errors, with short messages, and change nothing.

Each property runs ``STICH_FUZZ_EXAMPLES`` examples (default 40: a few seconds in CI);
``python benchmarks/fuzz.py`` runs the same properties much longer.
"""

import io
import json
import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stich
from stich.bots.external import ExternalBot
from stich.bots.serve import serve
from stich.engine import RecordError, StichError, game_class
from stich.engine.recordfile import load_record, parse_json
from stich.protocol import ProtocolError

EXAMPLES = int(os.environ.get("STICH_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=False)
MESSAGE_LIMIT = 1200  # no error message carries the whole input

VARIANTS = [(name, v) for name in stich.games() for v in game_class(name).variants]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12)


def reached(name, variant, seed, moves):
    """A state ``moves`` random legal actions into a match (fewer when it ends first)."""
    state = stich.game(name, variant).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@st.composite
def action_inputs(draw, state):
    """Text or objects offered to ``apply``: legal texts bent out of shape, other games' actions, junk."""
    legal = [str(a) for a in state.legal_actions()] or ["play EO"]
    base = draw(st.sampled_from(legal))
    kind = draw(st.integers(0, 7))
    if kind == 0:
        return draw(st.text(max_size=40))
    if kind == 1:
        return draw(st.sampled_from([base.upper(), f"  {base}  ", base.replace(" ", "  "), base[:-1], base + "X"]))
    if kind == 2:
        return f"{draw(st.integers(-3, 9))}:{base}"
    if kind == 3:
        return base.split()[0] + " " + draw(st.text(min_size=1, max_size=12))
    if kind == 4:
        other_name, other_variant = draw(st.sampled_from(VARIANTS))
        other = reached(other_name, other_variant, draw(st.integers(0, 50)), draw(st.integers(0, 6)))
        return draw(st.sampled_from(other.legal_actions() or [base]))  # an Action object of another game
    if kind == 5:
        return draw(json_values)
    if kind == 6:
        return base + " " + "E" * draw(st.integers(150, 5000))
    return base


@FUZZ
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32), st.integers(0, 60), st.data())
def test_apply_takes_legal_actions_and_refuses_everything_else_without_a_change(where, seed, moves, data):
    state = reached(*where, seed, moves)
    if state.is_terminal():
        return
    before = state.record()
    legal = [str(a) for a in state.legal_actions()]
    offered = data.draw(action_inputs(state))
    try:
        state.apply(offered)
    except StichError as exc:
        assert state.record() == before
        assert len(str(exc)) < MESSAGE_LIMIT
        return
    seat, played = state.history[-1]
    assert str(played) in legal and played is state.game.parse_action(str(played))[1]
    assert len(state.history) == len(before["actions"]) + 1
    assert stich.replay(state.record()).record() == state.record()


@FUZZ
@given(st.sampled_from(VARIANTS),
       st.one_of(st.none(), st.integers(), st.floats(), st.text(max_size=10), st.lists(st.integers(), max_size=3)),
       st.one_of(st.none(), st.integers(-5, 10), st.text(max_size=3)))
def test_new_state_takes_whole_seeds_and_refuses_the_rest_clearly(where, seed, dealer):
    g = stich.game(*where)
    kw = {} if dealer is None else {"dealer": dealer}
    try:
        state = g.new_state(seed, **kw)
    except StichError as exc:
        assert len(str(exc)) < MESSAGE_LIMIT
        return
    assert state.legal_actions() and stich.replay(state.record()).record() == state.record()


@st.composite
def bent_records(draw):
    name, variant = draw(st.sampled_from(VARIANTS))
    rec = reached(name, variant, draw(st.integers(0, 1000)), draw(st.integers(0, 20))).record()
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(sorted(rec) + ["cli"]))
        how = draw(st.integers(0, 3))
        if how == 0:
            rec.pop(key, None)
        elif how == 1:
            rec[key] = draw(json_values)
        elif how == 2 and isinstance(rec.get("actions"), list) and rec["actions"]:
            i = draw(st.integers(0, len(rec["actions"]) - 1))
            rec["actions"][i] = draw(st.one_of(json_values, st.tuples(st.integers(-1, 5), st.text(max_size=12))
                                               .map(list)))
        elif how == 3 and isinstance(rec.get("options"), dict) and rec["options"]:
            opt = draw(st.sampled_from(sorted(rec["options"])))
            rec["options"][opt] = draw(json_values)
    return rec


@FUZZ
@given(bent_records())
def test_replay_rebuilds_or_raises_record_error(rec):
    try:
        state = stich.replay(rec)
    except RecordError as exc:
        assert len(str(exc)) < MESSAGE_LIMIT
        return
    assert state.record()["actions"] == [list(a) for a in rec["actions"]]


@FUZZ
@given(st.one_of(st.binary(max_size=200), json_values.map(lambda v: json.dumps(v).encode()),
                 st.integers(1, 30_000).map(lambda n: b"[" * n + b"]" * n),
                 st.integers(1, 30_000).map(lambda n: b'{"a":' * n)))
def test_the_record_loader_returns_an_object_or_names_the_file(tmp_path_factory, content):
    path = tmp_path_factory.mktemp("fuzz") / "record.json"
    path.write_bytes(content)
    try:
        rec = load_record(path)
    except RecordError as exc:
        assert str(path) in str(exc) and len(str(exc)) < MESSAGE_LIMIT
        return
    assert isinstance(rec, dict) and rec == parse_json(content)


def _messages(state):
    seat = state.current_player
    hello = {"type": "hello", "protocol": "stich-bot/1", "game": state.game.name, "variant": state.game.variant,
             "options": dict(state.game.options), "seat": seat, "num_players": state.game.num_players, "seed": 1}
    act = {"type": "act", "id": 1, "view": state.view(seat), "legal": [str(a) for a in state.legal_actions()]}
    return hello, act


@FUZZ
@given(st.lists(st.one_of(json_values.map(json.dumps), st.text(max_size=40),
                          st.sampled_from(["hello", "act", "end", "quit-not", "log"]).map(
                              lambda t: json.dumps({"type": t, "id": [1]}))), max_size=6),
       st.dictionaries(st.sampled_from(["seat", "legal", "view", "id", "protocol", "game"]), json_values, max_size=2))
def test_stich_engine_answers_every_message_with_one_well_formed_line(lines, bend):
    state = stich.game("watten", "bavarian_2").new_state(seed=4)
    hello, act = _messages(state)
    bent_act = {**act, **bend}
    text = "\n".join([*lines, json.dumps(hello), *lines, json.dumps(bent_act), json.dumps(act)]) + "\n"
    out = io.StringIO()
    assert serve("random", stdin=io.StringIO(text), stdout=out) == 0
    answers = [json.loads(x) for x in out.getvalue().split("\n") if x]  # a line ends at \n, nowhere else
    assert all(a["type"] in ("ready", "action", "error") for a in answers)
    assert all(len(a.get("message", "")) < MESSAGE_LIMIT for a in answers)
    assert answers[-1] == {"type": "action", "action": answers[-1]["action"], "id": 1}
    assert answers[-1]["action"] in act["legal"]


@FUZZ
@given(st.lists(st.one_of(st.binary(max_size=60), json_values.map(lambda v: json.dumps(v).encode()),
                          st.builds(lambda i, a: json.dumps({"type": "action", "action": a, "id": i}).encode(),
                                    st.integers(0, 3), st.sampled_from(["play EO", "x"]))), max_size=8))
def test_the_table_reads_any_program_output_as_an_answer_or_a_protocol_error(lines):
    bot = ExternalBot("no-such-program-is-started")
    for line in lines:
        bot._lines.put(line + b"\n")
    bot._lines.put(None)  # then the output ends
    try:
        msg = bot._receive(0.5, "act #2", request=2)
    except ProtocolError as exc:
        assert exc.kind in ("malformed", "crash", "timeout") and len(str(exc)) < MESSAGE_LIMIT
        return
    assert isinstance(msg, dict) and msg.get("type") != "log" and msg.get("id", 2) == 2
