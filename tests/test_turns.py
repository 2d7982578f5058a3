"""The one-seat-at-a-time walk (stich.engine.Turns) loses no action and changes no record."""

from __future__ import annotations

import random

import pytest

import stich
from stich.engine import Turns


def test_a_poll_comes_before_the_seat_on_turn_and_wait_changes_nothing():
    s = stich.game("watten", "euregio").new_state(seed=3)
    t = Turns(s)
    t.apply("cut 10")
    # Forehand (seat 1) is on turn in the simultaneous Ansage; the dealer (seat 4) may act too.
    assert s.current_player == 0 and s.seats_to_act() == [0, 3]
    assert t.seat() == 3 and t.is_poll()
    polled = [str(a) for a in t.legal_actions()]
    assert polled[-1] == "wait" and {"ask_exchange", "ask_swap"} <= set(polled)
    before = s.record()
    t.apply("wait")
    assert s.record() == before and t.seat() == 0 and not t.is_poll()
    t.apply([a for a in t.legal_actions() if a.verb == "show"][0])
    # The state changed: the dealer is on turn now; forehand may still ask for a Schönere (E.5).
    assert s.current_player == 3 and t.seat() == 0 and [str(a) for a in t.legal_actions()] == [
        "ask_exchange", "wait"]
    t.apply("wait")
    assert t.seat() == 3 and not t.is_poll()


@pytest.mark.parametrize("name, variant", [("watten", "euregio"), ("battn", None),
                                           ("watten", "tyrolean"), ("barbu", None)])
def test_a_random_walk_offers_every_seat_every_action_and_replays(name, variant):
    g = stich.game(name, variant=variant)
    rng = random.Random(5)
    for seed in range(3):
        s = g.new_state(seed=seed)
        t = Turns(s)
        steps = 0
        while not s.is_terminal() and steps < 400:
            # Before the state changes, every seat with a decision is asked once with all of it.
            offered = {}
            while True:
                seat = t.seat()
                choices = t.legal_actions()
                offered[seat] = {str(a) for a in choices} - {"wait"}
                if seat == s.current_player or rng.random() < 0.3:
                    break
                t.apply("wait")
            wanted = {p: {str(a) for a in s.legal_actions(p)} for p in s.seats_to_act()}
            if seat == s.current_player:
                assert offered == wanted
            t.apply(rng.choice([a for a in choices if a != "wait"] or choices))
            steps += 1
        again = stich.replay(s.record())
        assert again.record() == s.record()
