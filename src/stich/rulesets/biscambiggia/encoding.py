"""Observation encoding of Biscambiggia chiamata.  See docs/research.md for the table."""

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

HAND_TRICKS = 8

PHASES = ("auction", "call", "play", "over")
ROLES = ("caller", "caller_alone", "traitor", "opponent")


def _scale(game) -> float:
    return 4.0 * game.options["hands_per_match"]


def _layout(game) -> Layout:
    n, d = game.num_players, len(game.deck)
    suits, _ = suits_and_ranks(game)
    max_bid = game.options["max_bid"]
    return Layout(core_blocks(game, n, _scale(game), "marche per relative seat", HAND_TRICKS) + [
        Block("phase", len(PHASES), "phase: " + ", ".join(PHASES)),
        Block("bids", n, f"last bid per relative seat / {max_bid}"),
        Block("passed", n, "relative seats that passed in the auction"),
        Block("high_bid", 1, f"highest bid / {max_bid}"),
        Block("high_bidder", n, "highest bidder (relative seat)"),
        Block("caller", n, "caller of the contract (relative seat)"),
        Block("called_card", d, "the called card"),
        Block("trump", len(suits), f"trump suit ({' '.join(suits)})"),
        Block("traitor", n + 1, "traitor once public (relative seat), last entry: 'unknown' (not yet played)"),
        Block("role", len(ROLES), "own role: " + ", ".join(ROLES)),
        Block("partner", n, "own partner if known (relative seat)"),
        Block("caller_side", n, "relative seats known to be on the caller's side (teams once public)"),
        Block("points_taken", n, "card points taken this hand per relative seat / 120"),
        Block("last_marche", n, "marche of the previous hand per relative seat / 8"),
        Block("hands_left", 1, "hands played / hands_per_match"),
    ])


layout, observation_size = layout_members(_layout)


def encode(view: dict, game) -> np.ndarray:
    lay = layout(game)
    x, p = lay.new()
    ctx = Ctx(game, view)
    n = ctx.n
    suits, _ = suits_and_ranks(game)
    max_bid = game.options["max_bid"]
    fill_core(p, ctx, _scale(game), HAND_TRICKS)
    one_hot(p["phase"], view.get("phase"), PHASES)
    for entry in view.get("auction") or []:
        r = ctx.rel(entry.get("seat"))
        if r is None:
            continue
        if entry.get("pass"):
            p["passed"][r] = 1.0
        elif entry.get("bid") is not None:
            p["bids"][r] = scalar(entry["bid"], max_bid)
    p["high_bid"][0] = scalar(view.get("high_bid") or 0, max_bid)
    ctx.seat_hot(p["high_bidder"], view.get("high_bidder"))
    ctx.seat_hot(p["caller"], (view.get("contract") or {}).get("caller"))
    ctx.cards_hot(p["called_card"], [view.get("called_card")])
    one_hot(p["trump"], view.get("trump"), suits)
    tp = view.get("traitor_public")
    if tp == "unknown":
        p["traitor"][n] = 1.0
    else:
        ctx.seat_hot(p["traitor"], tp)
    one_hot(p["role"], view.get("role"), ROLES)
    ctx.seat_hot(p["partner"], view.get("partner"))
    for s in (view.get("teams") or {}).get("caller_side") or []:
        ctx.seat_hot(p["caller_side"], s)
    for s, pts in enumerate((view.get("points_taken") or [])[:n]):
        p["points_taken"][ctx.rel(s)] = scalar(pts, 120)
    for s, m in enumerate(((view.get("last_result") or {}).get("marche") or [])[:n]):
        p["last_marche"][ctx.rel(s)] = scalar(m, 8)
    p["hands_left"][0] = scalar(max(0, (view.get("hand_number") or 1) - 1), game.options["hands_per_match"])
    return x
