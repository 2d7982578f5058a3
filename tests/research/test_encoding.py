"""Observation encodings and action masks: fixed shapes, bounds, masks, no leaks."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

import stich  # noqa: E402
from stich.encoding import action_mask, encode, layout, observation, observation_size  # noqa: E402

from .conftest import VARIANTS  # noqa: E402

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_shape_bounds_and_masks_over_a_match(name, variant):
    g = stich.game(name, variant=variant)
    size = observation_size(g)
    s = g.new_state(seed=11)
    rng = random.Random(11)
    steps = 0
    while not s.is_terminal() and steps < 400:
        for seat in range(g.num_players):
            v = s.view(seat)
            x = encode(v, g)
            assert x.dtype == np.float32 and x.shape == (size,)
            assert np.all(x >= -1) and np.all(x <= 1) and np.all(np.isfinite(x))
            m = action_mask(v, g)
            assert m.dtype == np.int8 and m.shape == (len(g.action_space),)
            if seat == s.current_player:
                legal = {g.action_index[str(a)] for a in s.legal_actions()}
                assert set(np.flatnonzero(m)) == legal
                assert np.array_equal(m, action_mask(s, g))
            else:
                assert m.sum() == 0
        s.apply(rng.choice(s.legal_actions()))
        steps += 1
    x = observation(s, 0)
    assert x.shape == (size,)


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_layout_is_consistent(name, variant):
    g = stich.game(name, variant=variant)
    lay = layout(g)
    assert sum(b.size for b in lay.blocks) == lay.size == observation_size(g)
    rows = lay.table()
    assert len({r[1] for r in rows}) == len(rows)


def test_shape_depends_on_options_only_through_the_game():
    a = observation_size(stich.game("watten", variant="bavarian_4"))
    b = observation_size(stich.game("watten", variant="bavarian_4", maschine="on"))
    assert a == b
    assert observation_size(stich.game("watten", variant="bavarian_3")) != a


@pytest.mark.parametrize("name,k", [("barbu", 13), ("biscambiggia", 8)])
def test_hidden_cards_do_not_change_the_observation(name, k):
    g = stich.game(name)
    codes = list(g.deck.codes)
    random.Random(5).shuffle(codes)
    n = g.num_players
    hands = [codes[i * k:(i + 1) * k] for i in range(n)]
    swapped = [hands[0], hands[2], hands[1]] + hands[3:]
    s1 = g.new_state(seed=1, hands=hands, dealer=n - 1)
    s2 = g.new_state(seed=1, hands=swapped, dealer=n - 1)
    assert np.array_equal(encode(s1.view(0), g), encode(s2.view(0), g))
    assert not np.array_equal(encode(s1.view(1), g), encode(s2.view(1), g))


def test_relative_seats():
    g = stich.game("barbu")
    s = g.new_state(seed=3)
    lay = layout(g)
    dealer = s.view(0)["dealer"]
    for seat in range(4):
        x = encode(s.view(seat), g)
        d = x[lay.slices["dealer"]]
        assert d[(dealer - seat) % 4] == 1 and d.sum() == 1


def test_docs_describe_every_block():
    text = DOC.read_text()
    for name, variant in VARIANTS:
        for block in layout(stich.game(name, variant=variant)).blocks:
            assert f"`{block.name}`" in text, (name, block.name)
