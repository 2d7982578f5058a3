"""The leak and record checks of these tests catch what they claim to catch (no server needed):
frames built from the engine's own views pass; a planted hidden card, a view of another seat, a
wrong legal list, a view going back in time, or the seed before the end fail."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest

import stich
from tests.web.checks import check_acks_in_record, check_frames


def _match(seat: int = 0):
    g = stich.game("watten", "euregio", target=3, lock_at=1)
    s = g.new_state(seed=8_123_456_789_012_345_678)
    rng = random.Random(3)
    frames = []
    seq = 0

    def frame():
        legal = [str(a) for a in s.legal_actions(seat)]
        frames.append({"type": "state", "seq": seq, "seat": seat, "view": s.view(seat), "legal": legal})

    frame()
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
        seq += 1
        frame()
    raws = [json.dumps(f) for f in frames]
    client = SimpleNamespace(seat=seat, frames=[json.loads(r) for r in raws], raw=raws, table="t")
    return s, s.record(), client


def _tamper(client, i: int, change) -> None:
    msg = json.loads(client.raw[i])
    change(msg)
    client.raw[i] = json.dumps(msg)
    client.frames[i] = msg


def test_frames_from_the_engine_pass():
    _, record, client = _match()
    assert check_frames(record, client) == len(client.frames)


def test_a_planted_hidden_card_is_caught():
    state, record, client = _match()
    # a card seat 1 holds in the first dealt hand, which seat 0 never sees before it is played
    dealt = next(e for a, e in state.events if e["type"] == "deal" and e["seat"] == 1)
    i = next(i for i, f in enumerate(client.frames) if f["view"]["hand"])
    _tamper(client, i, lambda m: m.update(debug={"peek": dealt["cards"][0]}))
    with pytest.raises(AssertionError, match="may not know"):
        check_frames(record, client)


@pytest.mark.parametrize("change", [
    lambda m: m.update(view=json.loads(json.dumps(m["view"])) | {"hand": ["HA"]}),
    lambda m: m.update(legal=["fold"]),
    lambda m: m.update(seat=1),
])
def test_a_wrong_view_legal_or_seat_is_caught(change):
    _, record, client = _match()
    _tamper(client, 5, change)
    with pytest.raises(AssertionError):
        check_frames(record, client)


def test_a_view_going_back_is_caught():
    _, record, client = _match()
    client.frames[6], client.frames[7] = client.frames[7], client.frames[6]
    client.raw[6], client.raw[7] = client.raw[7], client.raw[6]
    with pytest.raises(AssertionError):
        check_frames(record, client)


def test_the_seed_before_the_end_is_caught():
    _, record, client = _match()
    _tamper(client, 3, lambda m: m.update(note=f"seed {record['seed']}"))
    with pytest.raises(AssertionError, match="seed"):
        check_frames(record, client)


def test_acks_must_match_the_record_exactly():
    _, record, _ = _match()
    mine = [a for s, a in record["actions"] if s == 0]
    ok = SimpleNamespace(seat=0, table="t", acked=list(mine), acked_ids=set(range(len(mine))))
    check_acks_in_record(record, [ok])
    for acked in (mine[:-1], mine + [mine[-1]], mine[1:] + mine[:1]):
        bad = SimpleNamespace(seat=0, table="t", acked=acked, acked_ids=set(range(len(acked))))
        with pytest.raises(AssertionError):
            check_acks_in_record(record, [bad])


def test_missed_events_must_be_exactly_what_the_seat_may_see():
    state, record, client = _match()
    g = stich.game(record["game"], record["variant"], **record["options"])
    s = g.new_state(record["seed"])
    for who, text in record["actions"][:6]:
        s.apply(text, seat=who)
    seen_before = len(g.new_state(record["seed"]).visible_events(0))
    right = s.visible_events(0)[seen_before:]
    hidden = next(e for a, e in s.events if e["type"] == "deal" and e["seat"] == 1)
    _tamper(client, 6, lambda m: m.update(resync=True, missed={"since": 0, "events": right}))
    check_frames(record, client)
    _tamper(client, 6, lambda m: m.update(missed={"since": 0, "events": right + [dict(hidden)]}))
    with pytest.raises(AssertionError, match="missed"):
        check_frames(record, client)
