"""Barbu invariants (rules/barbu.md §6 "Invariants for property tests" I1-I8) over random matches
with random options, and a literal transcription of Appendix B's ``legal_trick_play`` checked
against the engine at random moments."""

from __future__ import annotations

import json
import random
import time

from barbu_support import game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stich
from stich.rulesets.barbu import rules as R

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))


@st.composite
def option_sets(draw):
    options = {}
    for spec in stich.game("barbu").option_specs:
        if draw(st.booleans()):
            options[spec.name] = draw(st.sampled_from(spec.values))
    return options


# --- Appendix B, transcribed literally on (suit, rank) pairs -----------------------------------------
def appendix_b_legal(hand, trick, contract, trump, hearts_broken, opts):
    hand = [(c[0], c[1]) for c in hand]
    if not trick:
        if contract in ("NO_HEARTS", "BARBU"):
            if opts["heart_lead"] == "anytime":
                return hand
            if opts["heart_lead"] == "after_broken" and hearts_broken:
                return hand
            non_hearts = [c for c in hand if c[0] != "H"]
            return non_hearts if non_hearts else hand
        return hand
    led = trick[0][0]
    if contract != "TRUMPS":
        follow = [c for c in hand if c[0] == led]
        if contract == "BARBU" and opts["forced_barbu"] and ("H", 13) in hand:
            if not follow:
                return [("H", 13)]
            if led == "H" and ("H", 14) in trick:
                return [("H", 13)]
        return follow if follow else hand
    trumps_held = [c for c in hand if c[0] == trump]
    top = max((c[1] for c in trick if c[0] == trump), default=None)
    if led == trump:
        if not trumps_held:
            return hand
        higher = [c for c in trumps_held if c[1] > top]
        return higher if (higher and opts["trumps_must_overtrump"]) else trumps_held
    follow = [c for c in hand if c[0] == led]
    if follow:
        return follow
    if not trumps_held:
        return hand
    if top is not None and opts["trumps_must_overtrump"]:
        higher = [c for c in trumps_held if c[1] > top]
        return higher if higher else hand
    return trumps_held if opts["trumps_must_ruff"] else hand


def pair(code):
    c = R.DECK.parse(code)
    return R.SUITS[R.SUIT_OF[c]], R.RANK_OF[c]


def check_trick_legality(state):
    seat = state.current_player
    v = state.view(seat)
    hand = [pair(c) for c in v["hand"]]
    trick = [pair(t["card"]) for t in v["trick"]]
    broken = any(pair(t["card"])[0] == "H" for tr in v["tricks"] for t in tr["cards"])
    expected = appendix_b_legal(hand, trick, v["contract"], v["trump"], broken, state.game.options)
    got = [pair(a.arg) for a in state.legal_actions()]
    assert sorted(got) == sorted(expected), (v["contract"], hand, trick)
    assert set(got) <= set(hand) and got  # I8


def play_checked(state, rng, check_rate=0.08):
    """Random play to the end, checking the invariants; returns the list of deal results."""
    n = 0
    passes_in_a_row = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal
        if state.phase == 2 and rng.random() < check_rate:  # trick play
            check_trick_legality(state)
        act = rng.choice(legal)
        if state.phase == 3:  # domino (I7): never four passes in a row
            passes_in_a_row = passes_in_a_row + 1 if str(act) == "pass" else 0
            assert passes_in_a_row < 4
        state.apply(act)
        n += 1
        assert n < 5000
    return [ev for _a, ev in state.events if ev["type"] == "deal_result"]


@SETTINGS
@given(options=option_sets(), seed=st.integers(0, 2**32))
def test_random_matches_keep_the_invariants(options, seed):
    g = game(**options)
    state = g.new_state(seed=seed)
    results = play_checked(state, random.Random(seed))
    assert len(results) == 28
    for r in results:  # I1, I2: per deal, raw and final sum to the contract total
        total = R.TOTAL[R.CONTRACT_ID[r["contract"]]]
        assert sum(r["final"]) == total
        if r["played"]:
            assert sum(r["raw"]) == total and sum(r["adjustments"]) == 0
        else:
            assert r["contract"] in R.CONTRACTS[:5] and not r["businesses"] and g.skip_undoubled
    for c in range(4):  # I5: each caller uses each contract exactly once
        assert sorted(r["contract"] for r in results if r["caller"] == c) == sorted(R.CONTRACTS)
    if not g.every_deal:  # I3: every caller's block sums to zero
        for b in range(4):
            assert sum(sum(r["final"]) for r in results[7 * b:7 * b + 7]) == 0
    assert sum(state.returns()) == 0 and state.returns() == [float(x) for x in state.scores]  # I4
    # I6: with the obligation enforced every non-caller doubled every caller at least twice.
    doubles = {}
    callers = R.callers(state.first_caller, g.every_deal)
    hand = 0
    for _a, ev in state.events:
        if ev["type"] == "hand_start":
            hand = ev["hand"]
        elif ev["type"] == "double" and callers[hand - 1] in ev["doubles"]:
            key = (callers[hand - 1], ev["seat"])
            doubles[key] = doubles.get(key, 0) + 1
    if g.obligation:
        assert all(doubles.get((c, p), 0) >= 2 for c in range(4) for p in range(4) if p != c)
    json.dumps(state.record())
    assert stich.replay(json.loads(json.dumps(state.record()))).record() == state.record()


@SETTINGS
@given(seed=st.integers(0, 2**32), contract=st.sampled_from(R.CONTRACTS[:5] + ("TRUMPS S", "TRUMPS H")),
       options=option_sets())
def test_trick_deals_follow_appendix_b_and_score_from_the_tricks(seed, contract, options):
    state = game(**options).new_state(seed=seed, first_caller=0)
    state.apply(f"contract {contract}")
    for text in ("double 1", "pass", "pass", "pass"):
        state.apply(text)
    rng = random.Random(seed)
    leader, cards = 0, []
    trump = R.SUITS.index(contract[-1]) if contract.startswith("TRUMPS") else -1
    while state.hand_number == 1:
        check_trick_legality(state)
        before = state.view(None)
        act = rng.choice(state.legal_actions())
        state.apply(act)
        cards.append(act.value)
        if len(cards) == 4:  # the engine's winner agrees with Appendix B's trick_winner
            winner = R.trick_winner(cards, leader, trump)
            trick_events = [ev for _a, ev in state.events if ev["type"] == "trick"]
            assert trick_events[-1]["winner"] == winner
            leader, cards = winner, []
        if state.hand_number == 1:
            continue
        # The deal is over: its raw score is the one the public tricks give (view's deal_points).
        raw = [ev for _a, ev in state.events if ev["type"] == "deal_result"][0]["raw"]
        assert before is not None and raw is not None
        v = state.view(None)
        assert v["previous_result"]["raw"] == raw


def test_a_full_match_is_fast():
    g = game()
    rng = random.Random(0)
    t0 = time.perf_counter()
    for seed in range(5):
        state = g.new_state(seed=seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    per_match = (time.perf_counter() - t0) / 5
    assert per_match < 1.0, f"a random 28-deal match takes {per_match:.2f} s"


def test_clone_is_independent_and_views_are_json():
    state = game().new_state(seed=11)
    rng = random.Random(11)
    for _ in range(300):
        state.apply(rng.choice(state.legal_actions()))
    twin = state.clone()
    before = state.record()
    for _ in range(100):
        twin.apply(rng.choice(twin.legal_actions()))
    assert state.record() == before
    for seat in (None, 0, 1, 2, 3):
        json.dumps(state.view(seat))
    summary = json.dumps(state.hand_summary())  # public only: it names no card at all
    assert not any(f'"{code}"' in summary for code in R.DECK.codes)


def test_domino_views_show_the_layout_and_hide_hands():
    state = game().new_state(seed=4, first_caller=0)
    state.apply("contract DOMINO 9")
    for _ in range(4):
        state.apply("pass")
    rng = random.Random(4)
    for _ in range(20):
        state.apply(rng.choice(state.legal_actions()))
    v = state.view(1)
    assert v["contract"] == "DOMINO" and v["domino_rank"] == "9" and set(v["layout"]) == set("SHDC")
    assert v["known_hands"][0] is None and len(v["hand"]) == 13 - sum(1 for s, c in v["domino_log"]
                                                                        if s == 1 and c != "PASS")
    spectator = state.view(None)
    assert spectator["hand"] == [] and all(h is None for h in spectator["known_hands"])


def test_clone_copies_every_slot_and_a_seed_fixes_the_game():
    from stich.rulesets.barbu.state import BarbuState

    g = game()
    state = g.new_state(seed=5)
    rng = random.Random(5)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    twin = state.clone()
    for name in BarbuState.__slots__:  # clone() copies the instance dict; _copy_into the slots
        assert getattr(twin, name) == getattr(state, name), name
    again = g.new_state(seed=5)
    rng = random.Random(5)
    for _ in range(40):
        again.apply(rng.choice(again.legal_actions()))
    assert again.record() == state.record()
