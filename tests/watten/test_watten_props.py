"""Property tests for Watten: random legal play in every variant (and random options) keeps the
invariants: replay, clone independence, hidden information, card conservation, scores."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stich
from stich.engine import IllegalActionError, MalformedActionError, OptionError, SetupError, game_class
from stich.testing import random_options as kit_random_options

VARIANTS = stich.game("watten").variants
HIDDEN = {"schlag", "trump", "show", "reveal"}


def random_options(variant: str, rng: random.Random) -> dict:
    """The kit's random options (none that contradict each other), and now and then another target
    with the lock at its default below it (R12)."""
    out = kit_random_options(game_class("watten"), variant, rng)
    if rng.random() < 0.3:
        out.pop("lock_at", None)
        out["target"] = rng.choice([5, 7, 11, 15])
    return out


def play_random(state, rng: random.Random, max_actions: int = 3000):
    n = 0
    while not state.is_terminal() and n < max_actions:
        legal = state.legal_actions()
        assert legal, "a non-terminal state must have legal actions"
        state.apply(rng.choice(legal))
        n += 1
    return n


def check_invariants(state):
    g = state.game
    n = g.num_players
    # Cards are conserved within the current hand.
    if state.phase != 0:
        total = sum(h.bit_count() for h in state.hands) + len(state.stock) + len(state.trick)
        played = sum(len(t["cards"]) for t in state.view(None)["tricks"])
        assert total + played <= len(g.deck)
    for s in range(n):
        v = state.view(s)
        json.dumps(v)
        if g.blind and s not in (state.forehand, state.dealer):
            assert v["schlag"] is None and v["trump"] is None
            evs = v["events"]
            last = max(i for i, e in enumerate(evs) if e["type"] == "hand_start")
            assert not [e for e in evs[last:] if e["type"] in HIDDEN]
        assert v["hand"] == [] or set(v["hand"]) <= set(g.deck.codes)


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), opt_seed=st.integers(0, 2**32))
def test_random_matches_replay_and_hide(variant, seed, opt_seed):
    rng = random.Random(opt_seed)
    g = stich.game("watten", variant=variant, **random_options(variant, rng))
    s = g.new_state(seed)
    steps = 0
    while not s.is_terminal() and steps < 400:
        if steps % 37 == 0:
            check_invariants(s)
            c = s.clone()
            a = rng.choice(s.legal_actions())
            c.apply(a)
            assert len(c.history) == len(s.history) + 1   # the clone is independent
        s.apply(rng.choice(s.legal_actions()))
        steps += 1
    rec = s.record()
    json.dumps(rec)
    r = stich.replay(json.loads(json.dumps(rec)))
    assert r.record()["events"] == rec["events"]
    if s.is_terminal():
        ret = s.returns()
        assert abs(sum(ret)) < 1e-9 and max(s.scores) >= g.target


@pytest.mark.parametrize("variant", VARIANTS)
def test_full_matches_terminate(variant):
    g = stich.game("watten", variant=variant)
    for seed in range(3):
        s = g.new_state(seed)
        play_random(s, random.Random(seed))
        assert s.is_terminal() and sorted(set(s.returns())) != [0.0]


@pytest.mark.parametrize("variant", VARIANTS)
def test_viewing_rights_before_the_ansage(variant):
    # R30: only the dealer and forehand see their cards before the Ansage.
    g = stich.game("watten", variant=variant)
    s = g.new_state(5)
    s.apply(s.legal_actions()[0])   # the cut
    if s.hand_number != 1:
        return   # Maschine
    for seat in range(g.num_players):
        own = s.view(seat)["hand"]
        if seat in (s.forehand, s.dealer):
            assert len(own) == 5
        else:
            assert len(own) < 5   # at most public Kritische


def test_errors():
    with pytest.raises(OptionError):
        stich.game("watten", variant="bavarian_4", schlagtausch="on")
    with pytest.raises(OptionError):
        stich.game("watten", variant="nope")
    g = stich.game("watten", variant="euregio")
    with pytest.raises(SetupError):
        g.new_state(hands=[["HK"] * 5] * 4)
    with pytest.raises(SetupError):
        g.new_state(scores=[18, 0])
    with pytest.raises(SetupError):
        g.new_state(pack=["HK"])
    s = g.new_state(1)
    with pytest.raises(MalformedActionError):
        s.apply("play XX")
    with pytest.raises(MalformedActionError):
        s.apply("cut 2")   # R17: 4 <= k <= n - 4
    with pytest.raises(IllegalActionError):
        s.apply("1:cut 10")   # seat 3 cuts


def test_lock_at_follows_target():
    assert stich.game("watten", variant="tyrolean", target=11).options.lock_at == 9
    assert stich.game("watten", variant="bavarian_4", target=15, lock_at=12).options.lock_at == 12
    assert stich.game("watten").options.lock_at == 16


def test_action_spellings():
    g = stich.game("watten", variant="tyrolean")
    s = g.new_state(hands=[["H7", "H8", "H9", "H10", "HU"], ["HO", "HK", "HA", "S6", "S7"],
                           ["S8", "S9", "S10", "SU", "SO"], ["SK", "SA", "E7", "E8", "E9"]])
    s.apply("1:schlag w")
    assert s.view(0)["schlag"] == "6"
    s.apply("4:trump l")
    s.apply("1:play h-7")
    assert s.view(None)["trick"][0]["card"] == "H7"
