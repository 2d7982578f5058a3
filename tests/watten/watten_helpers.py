"""Helpers for the Watten tests: explicit positions and scripts in the rules file's notation."""

from __future__ import annotations

import re

import stich

KRITISCHE = {"HK", "S7", "E7"}
_ACTION = re.compile(r"(\d+:[a-z_]+)(?:[ \t]+(?!\d+:)(\S+))?")


def code(game, text: str) -> str:
    d = game.deck
    return d.code(d.parse(text))


def position(variant: str, hands: dict, dealer: int = 4, scores=None, avoid: str = "", **options):
    """A state whose first hand is dealt as given.

    ``hands``: {seat (1-based): "H-K S-7 ..."}; hands are completed to 5 cards with cards of
    no suit/rank in ``avoid`` (e.g. "L 8"), never the Weli nor a Kritische.
    ``dealer`` is 1-based like the rules file.
    """
    g = stich.game("watten", variant=variant, **options)
    d = g.deck
    given = {s: [code(g, c) for c in cards.split()] for s, cards in hands.items()}
    used = {c for cs in given.values() for c in cs}
    bad = set(avoid.split())
    pool, spare = [], []
    for c in d.codes:
        suit, rank = c[0], c[1:]
        if c in used:
            continue
        if suit in bad or rank in bad or c == "S6" or (g.bavarian and c in KRITISCHE):
            spare.append(c)   # used only if the harmless cards run out
            continue
        pool.append(c)
    pool += spare
    out = []
    for s in range(1, g.num_players + 1):
        cs = list(given.get(s, []))
        while len(cs) < 5:
            cs.append(pool.pop(0))
        out.append(cs)
    return g.new_state(hands=out, dealer=dealer - 1, scores=scores)


def act(state, script: str) -> None:
    """Apply a script such as ``"1:schlag 8  4:trump L  1:play H-9"``."""
    for m in _ACTION.finditer(script):
        text = m.group(1) + (" " + m.group(2) if m.group(2) else "")
        state.apply(text)


def legal_cards(state) -> set[str]:
    return {a.arg for a in state.legal_actions() if a.verb == "play"}


def legal_verbs(state) -> set[str]:
    return {a.verb for a in state.legal_actions()}


def can_raise(state) -> bool:
    return "raise" in state.legal_actions()


def winners(state, hand: int = 1) -> list[int]:
    """1-based seats that won the tricks of one hand (from the public events)."""
    out, cur = [], None
    for ev in state.record(seat=None)["events"]:
        if ev["type"] == "hand_start":
            cur = ev["hand"]
        elif ev["type"] == "trick" and cur == hand:
            out.append(ev["winner"] + 1)
    return out


def seat(state) -> int:
    """The 1-based seat to act."""
    return state.current_player + 1
