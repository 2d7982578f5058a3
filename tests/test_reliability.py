"""Bad input to the engine and to record loading ends in a documented, short error and changes nothing
(issue 19 items 5, 10, 12, 14)."""

import json

import pytest

import stich
from stich.engine import MalformedActionError, RecordError
from stich.engine.recordfile import load_record


def _play_s9_position():
    """A Euregio position where the seat to act may play S9 (found by playing random legal actions)."""
    import random

    for seed in range(200):
        state = stich.game("watten", "euregio").new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if "play S9" in state.legal_actions():
                return seed, state
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no position found")


def test_a_foreign_action_object_plays_the_card_its_text_names():
    _seed, state = _play_s9_position()
    foreign = stich.game("watten", "bavarian_4").parse_action("play S9")[1]
    seat = state.current_player
    before = state.view(seat)["hand"]
    state.apply(foreign)
    after = state.view(seat)["hand"]
    assert "S9" in before and "S9" not in after and len(after) == len(before) - 1
    assert stich.replay(state.record()).record() == state.record()
    applied = state.history[-1][1]
    assert applied is state.game.parse_action("play S9")[1]


def test_a_huge_action_text_gives_a_short_error():
    state = stich.game("watten").new_state(seed=1)
    with pytest.raises(MalformedActionError) as err:
        state.apply("play " + "E" * 10_000_000)
    assert len(str(err.value)) < 300
    assert state.history == []


@pytest.mark.parametrize("options", ["abc", [1, 2], 5, None])
def test_replay_refuses_options_that_are_not_an_object(options):
    rec = stich.game("watten").new_state(seed=2).record()
    rec["options"] = options
    with pytest.raises(RecordError, match="options"):
        stich.replay(rec)


def test_replay_error_messages_do_not_carry_the_whole_input():
    rec = stich.game("watten").new_state(seed=2).record()
    rec["actions"] = [[rec_seat(rec), "play " + "E" * 1_000_000]]
    with pytest.raises(RecordError) as err:
        stich.replay(rec)
    assert len(str(err.value)) < 1000
    rec["actions"] = [["x" * 1_000_000, "y"]]
    with pytest.raises(RecordError) as err:
        stich.replay(rec)
    assert len(str(err.value)) < 1000


def rec_seat(rec):
    return stich.replay(dict(rec, actions=[])).current_player


@pytest.mark.parametrize("content, words", [
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe", "not UTF-8"),
    (b'{"format": ', "not a JSON record"),
    (b"[1, 2]", "JSON object"),
])
def test_load_record_names_the_file_for_bad_content(tmp_path, content, words):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(RecordError) as err:
        load_record(path)
    assert str(path) in str(err.value) and words in str(err.value) and len(str(err.value)) < 400


def test_load_record_reads_a_real_record(tmp_path):
    rec = stich.game("battn").new_state(seed=3).record()
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(rec))
    assert stich.replay(load_record(path)).record() == rec


@pytest.mark.parametrize("make", [
    lambda: stich.game("watten", target="x" * 100_000),
    lambda: stich.game("watten", **{"y" * 100_000: 1}),
    lambda: stich.game("watten", "v" * 100_000),
    lambda: stich.game("w" * 100_000),
    lambda: stich.game("watten").new_state(1, hands=[["x" * 100_000]]),
    lambda: stich.game("watten").new_state(1, dealer="d" * 100_000),
])
def test_no_error_message_carries_a_huge_input(make):
    with pytest.raises(stich.StichError) as err:
        make()
    assert len(str(err.value)) <= 1100


def test_replay_of_deeply_nested_parts_is_a_record_error():
    deep = []
    for _ in range(100_000):
        deep = [deep]
    rec = stich.game("watten").new_state(seed=2).record()
    for key in ("events", "options", "setup", "actions"):
        with pytest.raises(RecordError):
            stich.replay(dict(rec, **{key: deep if key != "options" else {"target": deep}}))
