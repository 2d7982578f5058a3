"""Trio's observation encoder (``TrioGame.companions["encoder"]``): stich's core blocks (own hand,
the trick, the tricks of the hand, dealer, seat to act, match scores) and the trump suit."""

from __future__ import annotations

import numpy as np

from stich.roles.encoding import Block, Ctx, Layout, core_blocks, fill_core, layout_members, one_hot
from stich_trio import CARDS_EACH, SUITS, N

SCALE = 130.0 * 3


def _layout(game) -> Layout:
    return Layout(core_blocks(game, N, SCALE, "points per relative seat", CARDS_EACH)
                  + [Block("trump", len(SUITS), f"trump suit ({' '.join(SUITS)})")])


layout, observation_size = layout_members(_layout)


def encode(view: dict, game) -> np.ndarray:
    x, p = layout(game).new()
    fill_core(p, Ctx(game, view), SCALE, CARDS_EACH)
    one_hot(p["trump"], ((view.get("info") or {}).get("trump") or {}).get("suit"), SUITS)
    return x
