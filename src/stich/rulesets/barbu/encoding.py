"""Observation encoding of Barbu.  See docs/research.md for the table."""

from __future__ import annotations

import numpy as np

from stich.roles.encoding import (
    Block,
    Ctx,
    Layout,
    core_blocks,
    fill_core,
    layout_members,
    one_hot,
    scalar,
    suits_and_ranks,
)

HAND_TRICKS = 13

CONTRACTS = ("NO_TRICKS", "NO_HEARTS", "NO_QUEENS", "BARBU", "NO_LAST_TWO", "TRUMPS", "DOMINO")
SCORE_SCALE = 1000.0
DEAL_SCALE = 200.0


def _layout(game) -> Layout:
    n, d = game.num_players, len(game.deck)
    suits, ranks = suits_and_ranks(game)
    return Layout(core_blocks(game, n, SCORE_SCALE, "per relative seat", HAND_TRICKS) + [
        Block("contract", len(CONTRACTS), "contract of this deal: " + ", ".join(CONTRACTS)),
        Block("trump", len(suits), f"trump suit of TRUMPS ({' '.join(suits)})"),
        Block("domino_rank", len(ranks), f"starting rank of DOMINO ({' '.join(ranks)})"),
        Block("caller", n, "caller of this deal (relative seat)"),
        Block("block_position", 1, "position in the caller's block / 7"),
        Block("available", len(CONTRACTS), "contracts the caller may still choose"),
        Block("caller_doubles", n, "per relative seat: doubles of the caller so far (as the view gives) / 2"),
        Block("doubles", n * n, "doubles this deal: relative doubler × relative target"),
        Block("redoubles", n * n, "redoubles this deal: relative redoubler × relative target"),
        Block("layout", d, "cards in the Domino layout"),
        Block("domino_out", n, "relative seats out of cards in Domino"),
        Block("taken_tricks", n, "tricks taken this deal per relative seat / 13"),
        Block("taken_cards", d, "scoring cards taken this deal (any seat)"),
        Block("deal_points", n, f"points of this deal so far per relative seat / {DEAL_SCALE:g}"),
        Block("previous", n, f"final points of the previous deal per relative seat / {DEAL_SCALE:g}"),
    ])


layout, observation_size = layout_members(_layout)


def encode(view: dict, game) -> np.ndarray:
    lay = layout(game)
    x, p = lay.new()
    ctx = Ctx(game, view)
    n = ctx.n
    suits, ranks = suits_and_ranks(game)
    fill_core(p, ctx, SCORE_SCALE, HAND_TRICKS)
    one_hot(p["contract"], view.get("contract"), CONTRACTS)
    one_hot(p["trump"], view.get("trump"), suits)
    one_hot(p["domino_rank"], view.get("domino_rank"), ranks)
    ctx.seat_hot(p["caller"], view.get("caller"))
    p["block_position"][0] = scalar(view.get("block_position") or 0, 7)
    for c in view.get("available_contracts") or []:
        one_hot(p["available"], c, CONTRACTS)
    for s, k in enumerate((view.get("caller_doubles") or [])[:n]):
        p["caller_doubles"][ctx.rel(s)] = scalar(k, 2)
    for entry in view.get("doubling") or []:
        r = ctx.rel(entry.get("seat"))
        if r is None:
            continue
        for key in ("doubles", "redoubles"):
            for t in entry.get(key) or []:
                rt = ctx.rel(t)
                if rt is not None:
                    p[key][r * n + rt] = 1.0
    for cards in (view.get("layout") or {}).values():
        ctx.cards_hot(p["layout"], cards or [])
    for s in view.get("domino_out") or []:
        ctx.seat_hot(p["domino_out"], s)
    for s, t in enumerate((view.get("taken") or [])[:n]):
        p["taken_tricks"][ctx.rel(s)] = scalar(t.get("tricks") or 0, 13)
        ctx.cards_hot(p["taken_cards"], t.get("cards") or [])
    for s, pts in enumerate((view.get("deal_points") or [])[:n]):
        p["deal_points"][ctx.rel(s)] = scalar(pts, DEAL_SCALE)
    for s, pts in enumerate(((view.get("previous_result") or {}).get("final") or [])[:n]):
        p["previous"][ctx.rel(s)] = scalar(pts, DEAL_SCALE)
    return x
