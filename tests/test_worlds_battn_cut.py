"""Battn worlds between the cut and the deal (the second-cut decision, the Orbi window after the
cut): the cut has shown cards to everyone - the critici its taker keeps, the card it stopped on -
so every world must show the same cut, not a fresh one.

The bug this pins down: such a world was a fresh random deal whose replayed cut revealed other
cards, so the seat that took Barba at the cut found, in its own worlds, Barba in the dealer's hand
(``test_worlds_reproduce_the_view[battn-standard]`` caught it once, on a randomly drawn position).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import stich
from stich.engine.worlds import sample_worlds

sys.path.insert(0, str(Path(__file__).parent))
from test_worlds import assert_consistent  # noqa: E402

# The pack before the cut, top first: lifting 15 cards shows PoK (Barba, to L), St4 (Belli, to D),
# then ScA, which stops the reveal and ends at the bottom of the pack (rules C2, BT-5.3/5.4).
PACK = ("RaA PoA St3 Ra3 St7 PoJ Ra5 ScJ Po6 Ra2 Sc3 StN ScA St4 PoK "
        "Ra7 ScK Ra4 Po3 StK Sc2 ScN StA Sc4 Po4 RaK Sc5 PoN St6 Po7 "
        "Sc7 RaJ Ra6 Po2 StJ St5 Sc6 Po5 RaN St2").split()


def after_cut(variant="standard", *, cut_again=False, **options):
    """Dealer 0 (R 1, P 2, L 3): L cuts at 15, then (cut_again) cuts a second time at 20,
    else stops at the Orbi window (or the second-cut decision)."""
    game = stich.game("battn", variant=variant, **options)
    state = game.new_state(seed=5, deck=list(PACK), dealer=0)
    state.apply(game.parse_action("cut 15")[1])
    if cut_again:
        state.apply(game.parse_action("cut 20")[1])
    return state


def test_worlds_at_the_orbi_window_keep_the_cut():
    state = after_cut(max_cuts=1)   # one cut: the Orbi window opens before the deal
    assert state.view(3)["hand"] == ["PoK"] and state.view(0)["hand"] == ["St4"]
    for seat in range(4):
        worlds = sample_worlds(state.view(seat), random.Random(seat), 12)
        assert len(worlds) == 12
        for world in worlds:
            assert_consistent(state, seat, world)
            # the critici the cut gave are public: every world gives them to the same seats
            assert world.hands == state.hands, f"seat {seat}: a world re-cut the pack"
            assert world.deck[-1] == state.deck[-1]    # the card the cut stopped on: at the bottom
        assert len({tuple(w.deck) for w in worlds}) == 12   # the unseen cards still vary


def test_worlds_at_the_second_cut_decision_keep_the_first_cut():
    state = after_cut()
    assert state.view(3)["legal_actions"][0] == "cut_done"
    for world in sample_worlds(state.view(3), random.Random(1), 8):
        assert_consistent(state, 3, world)
        assert world.hands == state.hands
        assert world.deck[-1] == state.deck[-1]
    # and a second cut that takes nothing leaves the first one's critici where they were
    state = after_cut(cut_again=True)
    for seat in (0, 3):
        for world in sample_worlds(state.view(seat), random.Random(seat), 8):
            assert_consistent(state, seat, world)
            assert world.hands == state.hands


def test_worlds_after_the_deal_put_the_first_cuts_stop_card_where_it_was_dealt():
    """Two cuts: the first stopped on ScA (the pack's bottom card then); the second, at 20, moved
    it to the 18th place of the pack, which the deal (L and D hold a critico, so four cards each
    go round, then R and P get a fifth) gives to P, seat 2. Everyone saw both cuts, so in every
    world of every seat ScA is in P's hand."""
    state = after_cut(cut_again=True)
    game = state.game
    while not any(ev["type"] == "stock_bottom" for _a, ev in state.events):
        state.apply(game.parse_action("orbi_pass")[1])
    sca = game.deck.parse("ScA")
    assert state.hands[2] >> sca & 1
    for seat in (0, 1, 3):
        worlds = sample_worlds(state.view(seat), random.Random(seat), 10)
        assert len(worlds) == 10
        for world in worlds:
            assert_consistent(state, seat, world)
            assert world.hands[2] >> sca & 1, f"seat {seat}: a world moved the card the first cut showed"


def test_every_card_place_the_spec_claims_holds_in_the_real_game():
    """Battn's ``world_spec`` says where the cards a seat knows lie (groups of slots); in the real
    game each of them must lie there: in the pack before the cut (before the deal), or in the
    hands and stock as dealt (after it). Random variants, options, cuts and stopping points of the
    first turn (whose pack before the cut a test can give)."""
    from stich.engine import game_class
    from stich.testing import random_options

    cls = game_class("battn")
    checked = {"pack": 0, "deal": 0}
    for trial in range(160):
        rng = random.Random(trial)
        variant = rng.choice(cls.variants)
        game = stich.game("battn", variant=variant, **(random_options(cls, variant, rng) if trial % 2 else {}))
        pack = list(game.deck.codes)
        rng.shuffle(pack)
        state = game.new_state(seed=trial, deck=pack)
        dealt = None
        for _ in range(rng.randrange(40 if trial % 3 else 6)):   # a third stop near the cut
            state.apply(rng.choice(state.legal_actions()))
            if dealt is None and state.stock:
                dealt = [set(game.deck.codes_of(h)) for h in state.hands], [game.deck.code(c) for c in state.stock]
            if state.hand_number > 1 or state.is_terminal():
                break
        if state.hand_number > 1 or state.is_terminal():
            continue
        seat = rng.randrange(4)
        spec = game.world_spec(state.view(seat))
        if dealt is None:
            assert spec.deck
            for slots, cards in spec.groups:
                assert all(pack.index(c) in slots for c in cards), (trial, slots, cards)
            checked["pack"] += 1
            continue
        hands, stock = dealt
        for slots, cards in spec.groups:
            for c in cards:
                where = {j for s, h in enumerate(hands) if c in h for j in spec.hand_slots(s)}
                where |= {20 + j for j, x in enumerate(stock) if x == c}
                assert where & set(slots), (trial, game.variant, game.options, seat, c, slots)
        checked["deal"] += 1
    assert checked["pack"] >= 30 and checked["deal"] >= 40, checked
