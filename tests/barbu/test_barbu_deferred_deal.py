"""The next deal of a Barbu match waits until the state is observed (State._defer).

Whatever observes the state first (its events, its legal actions, an action, a view, a record,
a clone, a summary), the match is the same as if the deal had run at once: these tests play a
deal to its end, observe the state in each of those ways and compare everything that follows.
"""

from __future__ import annotations

import random

import pytest

import stich


def _end_of_first_deal(seed: int):
    """A match with its first deal played at random to the end (the second deal not yet dealt)."""
    state = stich.game("barbu").new_state(seed=seed)
    rng = random.Random(seed)
    state.apply("contract NO_TRICKS")
    while state.hand_number == 1:
        state.apply(rng.choice(state.legal_actions()))
    return state


OBSERVERS = {
    "events": lambda s: s.events,
    "legal_actions": lambda s: s.legal_actions(),
    "view": lambda s: s.view(s.current_player),
    "spectator view": lambda s: s.view(None),
    "visible_events": lambda s: s.visible_events(0),
    "record": lambda s: s.record(),
    "clone": lambda s: s.clone(),
    "hand_summary": lambda s: s.hand_summary(),
}


def _finish_match(state, seed: int) -> dict:
    rng = random.Random(seed + 1)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state.record()


def test_the_next_deal_waits_but_its_caller_is_known():
    state = _end_of_first_deal(3)
    assert state.hand_number == 2
    assert state._deferred
    assert state.hands is None   # not dealt yet: a direct read past the protocol fails loudly
    caller = state.current_player
    last = state.events[-1][1]
    assert (last["type"], last["seat"]) == ("caller", caller)
    assert not state._deferred
    deals = [ev for aud, ev in state.events if ev["type"] == "deal"]
    assert len(deals) == 8   # deals 1 and 2, four hands each
    assert sorted(c for ev in deals[4:] for c in ev["cards"]) == sorted(stich.game("barbu").deck.codes)


@pytest.mark.parametrize("observer", sorted(OBSERVERS))
def test_whatever_observes_first_the_match_is_the_same(observer):
    reference = _end_of_first_deal(7)
    assert reference.events[-1][1]["type"] == "caller"   # the deal runs at once
    expected = _finish_match(reference, 7)
    state = _end_of_first_deal(7)
    OBSERVERS[observer](state)
    assert not state._deferred
    assert _finish_match(state, 7) == expected


def test_an_action_given_as_text_deals_first():
    state = _end_of_first_deal(11)
    state.apply("contract BARBU")
    assert state.hand_summary()["contract"] == "BARBU"
    types = [ev["type"] for aud, ev in state.events[-7:]]
    assert types == ["hand_start", "deal", "deal", "deal", "deal", "caller", "contract"]


def test_an_illegal_action_while_the_deal_waits_is_refused_and_changes_nothing():
    state = _end_of_first_deal(5)
    caller = state.current_player
    with pytest.raises(stich.IllegalActionError, match="contract NO_TRICKS"):
        state.apply("contract NO_TRICKS")   # deal 2's caller called deal 1 (blocks of seven)
    assert state.current_player == caller
    assert state.hand_number == 2
    assert state.events[-1][1]["type"] == "caller"


def test_a_replayed_record_crosses_deferred_deals():
    state = _end_of_first_deal(13)
    record = _finish_match(state, 13)
    again = stich.replay(record)
    assert again.record() == record
