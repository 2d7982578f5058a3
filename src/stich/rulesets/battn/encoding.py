"""Observation encoding of Battn.  See docs/research.md for the table."""

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

HAND_TRICKS = 5

CALLS = ("orbi", "orbi_pass", "scheanara", "scheanara_pass", "scheanara_yes", "scheanara_no", "schlok",
         "trumpf", "orbi_accept", "orbi_refuse", "x_play", "x_decline", "pass", "raise", "accept", "fold",
         "misraise", "svista", "cut", "cut_done")
ROLES = ("D", "R", "P", "L")
REASONS = ("tricks", "fold", "x_declined", "orbi_refused", "svista")


def _team(seat):
    return seat & 1


def _layout(game) -> Layout:
    n, d = game.num_players, len(game.deck)
    suits, ranks = suits_and_ranks(game)
    target = game.options["target"]
    return Layout(core_blocks(game, 2, target, "per team [own, other]", HAND_TRICKS) + [
        Block("roles", 4 * n, "roles D, R, P, L × relative seat"),
        Block("base_stake", 3, f"base, stake, proposed stake (pending raise) / {target}"),
        Block("raise_pending", 2, "team with a pending raise [own, other]"),
        Block("raise_right", 2, "teams entitled to raise [own, other] (both: 1, 1)"),
        Block("schlok", len(ranks), f"Schlòk rank ({' '.join(ranks)})"),
        Block("trumpf", len(suits), f"Trumpf suit ({' '.join(suits)})"),
        Block("orbi", 2, "team that declared Orbi [own, other]"),
        Block("x_team", 2, "team holding the X [own, other]"),
        Block("team_tricks", 2, "tricks this turn [own, other] / 3"),
        Block("counters", 3, "trick number / 5, Scheanara exchanges / 2, stock size / 40"),
        Block("cut_cards", d, "cards revealed at the cut"),
        Block("stock_bottom", d, "the visible bottom card of the stock"),
        Block("call_counts", len(CALLS), "how often each call was made this turn / 10: " + ", ".join(CALLS)),
        Block("last_call", len(CALLS), "the last call of this turn"),
        Block("last_caller", n, "seat of the last call (relative)"),
        Block("last_result", 2 + len(REASONS) + 1,
              f"previous turn: scoring team [own, other], reason ({', '.join(REASONS)}), points / {target}"),
    ])


layout, observation_size = layout_members(_layout)


def _team_hot(out, team, mine):
    if team in (0, 1):
        out[0 if team == mine else 1] = 1.0


def encode(view: dict, game) -> np.ndarray:
    lay = layout(game)
    x, p = lay.new()
    ctx = Ctx(game, view)
    n = ctx.n
    target = game.options["target"]
    fill_core(p, ctx, target, HAND_TRICKS, _team)
    suits, ranks = suits_and_ranks(game)
    mine = _team(ctx.me)
    info = view.get("info") or {}
    for i, role in enumerate(ROLES):
        ctx.seat_hot(p["roles"], (info.get("roles") or {}).get(role), i * n)
    for i, key in enumerate(("base", "stake", "proposed")):
        p["base_stake"][i] = scalar(info.get(key) or 0, target)
    _team_hot(p["raise_pending"], info.get("raise_pending"), mine)
    rr = info.get("raise_right")
    if rr == "both":
        p["raise_right"][:] = 1.0
    else:
        _team_hot(p["raise_right"], rr, mine)
    one_hot(p["schlok"], info.get("schlok"), ranks)
    one_hot(p["trumpf"], info.get("trumpf"), suits)
    _team_hot(p["orbi"], info.get("orbi"), mine)
    xt = info.get("x_team", view.get("x_team"))
    _team_hot(p["x_team"], xt, mine)
    for team, t in enumerate((info.get("tricks") or [0, 0])[:2]):
        p["team_tricks"][0 if team == mine else 1] = scalar(t, 3)
    p["counters"][0] = scalar(info.get("trick_no") or 0, 5)
    p["counters"][1] = scalar(info.get("scheanara") or 0, 2)
    p["counters"][2] = scalar(info.get("stock") or 0, 40)
    for cut in info.get("cuts") or []:
        ctx.cards_hot(p["cut_cards"], cut.get("revealed"))
    ctx.cards_hot(p["stock_bottom"], [info.get("stock_bottom")])
    calls = info.get("calls") or []
    for _seat, text in calls:
        verb = str(text).split()[0]
        if verb in CALLS:
            i = CALLS.index(verb)
            p["call_counts"][i] = min(1.0, p["call_counts"][i] + 0.1)
    if calls:
        seat, text = calls[-1]
        one_hot(p["last_call"], str(text).split()[0], CALLS)
        ctx.seat_hot(p["last_caller"], seat)
    res = view.get("last_result") or {}
    if res:
        _team_hot(p["last_result"], res.get("team"), mine)
        one_hot(p["last_result"][2:2 + len(REASONS)], str(res.get("reason", "")).split("+")[0], REASONS)
        p["last_result"][-1] = scalar(res.get("points") or 0, target)
    return x
