"""Observation encoding of Watten (all variants).  See docs/research.md for the table."""

from __future__ import annotations

import numpy as np

from stich.roles.encoding import (
    Block,
    Ctx,
    Layout,
    core_blocks,
    fill_core,
    fill_info,
    info_blocks,
    layout_members,
    one_hot,
    scalar,
    suits_and_ranks,
)

HAND_TRICKS = 5

INFO_KEYS = ("cut", "cut_card", "cut_peek", "stock_peek", "committed", "ansage_done", "request", "answer",
             "exchange", "raise", "accept", "fold", "challenge", "hold", "concede", "stake", "hand_result")


def _side_of(game, view):
    n = game.num_players
    if n == 4:
        return lambda s: s % 2
    if n == 3:
        fh = view.get("forehand")
        return lambda s: 0 if s == fh else 1
    return lambda s: s


def _layout(game) -> Layout:
    n, d = game.num_players, len(game.deck)
    suits, ranks = suits_and_ranks(game)
    target = game.options["target"]
    per = "per side [own, other]" if n == 4 else "per relative seat"
    blocks = core_blocks(game, 2 if n == 4 else n, target, per, HAND_TRICKS) + [
        Block("schlag", len(ranks), f"Schlag rank if known to the seat ({' '.join(ranks)})"),
        Block("trump", len(suits), f"trump suit if known to the seat ({' '.join(suits)})"),
        Block("stake", 1, f"current stake / {target}"),
        Block("fixed", 1, "1 if the hand is fixed (4 Punkte / gestrichen)"),
        Block("side_tricks", 2, "tricks won this hand per side [own, other] / 3"),
        Block("forehand", n, "forehand (relative seat)"),
        Block("cutter", n, "cutter (relative seat)"),
        Block("schlag_seat", n, "the seat that names / shows the Schlag (relative)"),
        Block("trump_seat", n, "the seat that names / shows the trump (relative)"),
        Block("shown_schlag", d, "card shown for the Schlag (blind variants), if visible"),
        Block("shown_trump", d, "card shown for the trump (blind variants), if visible"),
        Block("face_up_trick", d, "cards of the face-up first trick (blind)"),
        *info_blocks(INFO_KEYS, n),
        Block("cut_k", 1, f"cut position k / {d}"),
        Block("peek_cards", d, "cards seen at the cut / bottom of the pack (cut_card, cut_peek, stock_peek)"),
        Block("raise_stake", 2, f"stake offered by the last raise, stake of the last accept / {target}"),
        Block("kinds", 4, "request is exchange, request is swap, answer agreed, answer refused"),
        Block("result", 3, f"hand result: side [own, other], points / {target}"),
    ]
    return Layout(blocks)


layout, observation_size = layout_members(_layout)


def encode(view: dict, game) -> np.ndarray:
    lay = layout(game)
    x, p = lay.new()
    ctx = Ctx(game, view)
    n = ctx.n
    target = game.options["target"]
    side_of = _side_of(game, view)
    fill_core(p, ctx, target, HAND_TRICKS, side_of if n == 4 else None)
    suits, ranks = suits_and_ranks(game)
    one_hot(p["schlag"], view.get("schlag"), ranks)
    one_hot(p["trump"], view.get("trump"), suits)
    p["stake"][0] = scalar(view.get("stake") or 0, target)
    p["fixed"][0] = 1.0 if view.get("fixed") else 0.0
    mine = side_of(ctx.me)
    tw = view.get("tricks_won") or [0, 0]
    for side, t in enumerate(tw[:2]):
        p["side_tricks"][0 if side == mine else 1] = scalar(t, 3)
    for key in ("forehand", "cutter", "schlag_seat", "trump_seat"):
        ctx.seat_hot(p[key], view.get(key))
    for sh in view.get("shown") or []:
        block = "shown_schlag" if sh.get("role") == "schlag" else "shown_trump"
        ctx.cards_hot(p[block], [sh.get("card")])
    ctx.cards_hot(p["face_up_trick"], [t.get("card") for t in view.get("face_up_trick") or []])
    fill_info(p, ctx, INFO_KEYS)
    info = view.get("info") or {}
    p["cut_k"][0] = scalar((info.get("cut") or {}).get("k") or 0, len(game.deck))
    ctx.cards_hot(p["peek_cards"], [(info.get("cut_card") or {}).get("card"),
                                    (info.get("cut_peek") or {}).get("card"),
                                    (info.get("stock_peek") or {}).get("top"),
                                    (info.get("stock_peek") or {}).get("bottom")])
    p["raise_stake"][0] = scalar((info.get("raise") or {}).get("stake") or 0, target)
    p["raise_stake"][1] = scalar((info.get("accept") or {}).get("stake") or 0, target)
    req, ans = info.get("request") or {}, info.get("answer") or {}
    p["kinds"][0] = 1.0 if req.get("kind") == "exchange" else 0.0
    p["kinds"][1] = 1.0 if req.get("kind") == "swap" else 0.0
    if ans:
        p["kinds"][2 if ans.get("agree") else 3] = 1.0
    res = info.get("hand_result") or {}
    if res:
        p["result"][0 if res.get("side") == mine else 1] = 1.0
        p["result"][2] = scalar(res.get("points") or 0, target)
    return x
