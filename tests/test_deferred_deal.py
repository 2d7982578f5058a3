"""A deferred deal (State._defer): the next hand is dealt when the state is first observed.

Barbu and Biscambiggia defer the deal of the next hand (Battn and Watten shuffle at the cut, an
action).  Whatever observes the state first (its events, its legal actions, an action, a view, a
record, a clone, a summary), the match must be the same as if the deal had run at once: these tests
play a hand to its end, observe the state in each of those ways and compare everything that follows.
"""

from __future__ import annotations

import random

import pytest

import stich

GAMES = ("barbu", "biscambiggia")


def _end_of_first_hand(game: str, seed: int):
    """A match with its first hand played at random to the end (the next hand not yet dealt)."""
    state = stich.game(game).new_state(seed=seed)
    rng = random.Random(seed)
    if game == "barbu":
        state.apply("contract NO_TRICKS")   # a deal that is played whoever doubles
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


@pytest.mark.parametrize("game", GAMES)
def test_the_next_deal_waits_but_who_acts_is_known(game):
    state = _end_of_first_hand(game, 3)
    assert state.hand_number == 2
    assert state._deferred
    assert state.hands is None   # not dealt yet: a direct read past the protocol fails loudly
    seat = state.current_player
    deals = [ev for _aud, ev in state.events if ev["type"] == "deal"]   # the deal runs now
    assert not state._deferred
    n = state.game.num_players
    assert len(deals) == 2 * n   # hands 1 and 2, a deal event per seat
    assert sorted(c for ev in deals[-n:] for c in ev["cards"]) == sorted(state.game.deck.codes)
    assert state.current_player == seat and state.legal_actions()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("observer", sorted(OBSERVERS))
def test_whatever_observes_first_the_match_is_the_same(game, observer):
    reference = _end_of_first_hand(game, 7)
    assert reference.events[-1][1]["type"] != "scores"   # the deal runs at once
    expected = _finish_match(reference, 7)
    state = _end_of_first_hand(game, 7)
    OBSERVERS[observer](state)
    assert not state._deferred
    assert _finish_match(state, 7) == expected


@pytest.mark.parametrize("game", GAMES)
def test_a_replayed_record_crosses_deferred_deals(game):
    record = _finish_match(_end_of_first_hand(game, 13), 13)
    again = stich.replay(record)
    assert again.record() == record


def test_barbu_an_action_given_as_text_deals_first():
    state = _end_of_first_hand("barbu", 11)
    state.apply("contract BARBU")
    assert state.hand_summary()["contract"] == "BARBU"
    types = [ev["type"] for aud, ev in state.events[-7:]]
    assert types == ["hand_start", "deal", "deal", "deal", "deal", "caller", "contract"]


def test_barbu_an_illegal_action_while_the_deal_waits_is_refused_and_changes_nothing():
    state = _end_of_first_hand("barbu", 5)
    caller = state.current_player
    with pytest.raises(stich.IllegalActionError, match="contract NO_TRICKS"):
        state.apply("contract NO_TRICKS")   # deal 2's caller called deal 1 (blocks of seven)
    assert state.current_player == caller
    assert state.hand_number == 2
    assert state.events[-1][1]["type"] == "caller"


def test_biscambiggia_a_throw_in_defers_the_redeal_too():
    state = stich.game("biscambiggia", opening_bid_compulsory=False).new_state(seed=2)
    dealer = state.dealer
    for _ in range(5):   # everybody passes: thrown in (BB-3.8), the next dealer deals again
        state.apply("pass")
    assert state._deferred and state.hands is None and state.hand_number == 1
    assert state.dealer == (dealer + 1) % 5 and state.current_player == (dealer + 2) % 5
    starts = [ev for _aud, ev in state.events if ev["type"] == "hand_start"]
    assert [ev["deal"] for ev in starts] == [1, 2] and state.legal_actions()
