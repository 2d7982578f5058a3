"""Generic pieces of the observation encoders.

An encoder turns ``state.view(seat)`` (and nothing else) into a flat ``float32`` vector whose
layout depends only on the game (variant and options).  The layout is a list of named
:class:`Block` s; every entry lies in ``[-1, 1]``.

Conventions used by every game encoder:

* **cards** are one-hots over ``len(game.deck)`` in deck order (``game.deck.codes``);
* **seats** are *relative to the observer*: index 0 is the observer, 1 the next seat in seat
  order, ... (``(seat - me) % n``);  "no seat" is all zeros;
* **sides** (team games with per-side scores) are ordered own side first;
* **scalars** are divided by a documented scale and clipped to ``[-1, 1]``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Block:
    name: str
    size: int
    meaning: str


class Layout:
    """Named slices of a flat vector."""

    def __init__(self, blocks: list[Block]):
        names = [b.name for b in blocks]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate block names in {names}")
        self.blocks = tuple(blocks)
        self.slices: dict[str, slice] = {}
        off = 0
        for b in blocks:
            self.slices[b.name] = slice(off, off + b.size)
            off += b.size
        self.size = off

    def new(self) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        x = np.zeros(self.size, dtype=np.float32)
        return x, {name: x[s] for name, s in self.slices.items()}

    def table(self) -> list[tuple[str, str, str]]:
        """(slice, name, meaning) rows, for documentation."""
        return [(f"{s.start}:{s.stop}", name, b.meaning)
                for (name, s), b in zip(self.slices.items(), self.blocks, strict=True)]


class Ctx:
    """Helpers bound to one game and one observer."""

    def __init__(self, game, view: dict):
        self.game = game
        self.deck = game.deck
        self.n = game.num_players
        seat = view.get("seat")
        self.me = 0 if seat is None else int(seat)
        self.view = view
        self._index = card_index(game)

    def rel(self, seat) -> int | None:
        if seat is None or isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            return None
        return (seat - self.me) % self.n

    def seat_hot(self, out: np.ndarray, seat, offset: int = 0) -> None:
        r = self.rel(seat)
        if r is not None:
            out[offset + r] = 1.0

    def card(self, code) -> int | None:
        if not isinstance(code, str):
            return None
        return self._index.get(code)

    def cards_hot(self, out: np.ndarray, codes, offset: int = 0) -> None:
        for c in codes or ():
            i = self.card(c)
            if i is not None:
                out[offset + i] = 1.0


_CARD_INDEX: dict[int, dict[str, int]] = {}


def card_index(game) -> dict[str, int]:
    deck = game.deck
    idx = _CARD_INDEX.get(id(deck))
    if idx is None:
        idx = _CARD_INDEX[id(deck)] = {c: i for i, c in enumerate(deck.codes)}
    return idx


def scalar(x, scale: float) -> float:
    try:
        v = float(x) / scale
    except (TypeError, ValueError):
        return 0.0
    return max(-1.0, min(1.0, v))


def one_hot(out: np.ndarray, value, values) -> None:
    """Set out[values.index(value)] (nothing if value is not listed)."""
    try:
        out[list(values).index(value)] = 1.0
    except ValueError:
        pass


def suits_and_ranks(game) -> tuple[list[str], list[str]]:
    """Suit and rank codes of the deck, in deck order, as the views write them."""
    deck = game.deck
    by_suit: dict[int, list[str]] = {}
    for i in range(len(deck)):
        by_suit.setdefault(deck.suit(i), []).append(deck.code(i))
    suits: list[str] = []
    ranks: list[str] = []
    for codes in by_suit.values():
        prefix = os.path.commonprefix(codes) if len(codes) > 1 else codes[0][:1]
        suits.append(prefix)
        for c in codes:
            if c[len(prefix):] not in ranks:
                ranks.append(c[len(prefix):])
    return suits, ranks


# --- the core block shared by every game ------------------------------------------------------

def core_blocks(game, score_slots: int, score_scale: float, score_meaning: str, max_tricks: int) -> list[Block]:
    n, d = game.num_players, len(game.deck)
    return [
        Block("hand", d, "own cards (card one-hot)"),
        Block("known_hands", (n - 1) * d,
              "cards known in the other seats' hands, relative seats 1..n-1 × card (partner hand, cut cards)"),
        Block("trick", n * d, "current trick: relative seat × card it played"),
        Block("trick_leader", n, "leader of the current trick (relative seat)"),
        Block("played", d, "cards played in completed tricks of this hand"),
        Block("won_cards", n * d, "cards in the tricks won this hand: relative winner × card"),
        Block("tricks_won", n, f"tricks won this hand per relative seat / {max_tricks}"),
        Block("dealer", n, "dealer (relative seat)"),
        Block("to_act", n, "seat to act (relative seat; all zero when the match is over)"),
        Block("scores", score_slots, f"match scores, {score_meaning}, / {score_scale:g}"),
        Block("hand_number", 1, "hand number / 100"),
        Block("terminal", 1, "1 once the match is over"),
    ]


def fill_core(p: dict, ctx: Ctx, score_scale: float, max_tricks: int, side_of=None) -> None:
    """Fill the core blocks.  ``side_of(seat) -> side`` for per-side scores (None: per seat)."""
    v, n, d = ctx.view, ctx.n, len(ctx.deck)
    ctx.cards_hot(p["hand"], v.get("hand"))
    for s, cards in enumerate(v.get("known_hands") or ()):
        r = ctx.rel(s)
        if cards and r:
            ctx.cards_hot(p["known_hands"], cards, (r - 1) * d)
    trick = v.get("trick") or []
    for t in trick:
        r, c = ctx.rel(t.get("seat")), ctx.card(t.get("card"))
        if r is not None and c is not None:
            p["trick"][r * d + c] = 1.0
    if trick:
        ctx.seat_hot(p["trick_leader"], trick[0].get("seat"))
    for t in v.get("tricks") or []:
        w = ctx.rel(t.get("winner"))
        for pc in t.get("cards", ()):
            c = ctx.card(pc.get("card"))
            if c is None:
                continue
            p["played"][c] = 1.0
            if w is not None:
                p["won_cards"][w * d + c] = 1.0
        if w is not None:
            p["tricks_won"][w] = min(1.0, p["tricks_won"][w] + 1.0 / max_tricks)
    ctx.seat_hot(p["dealer"], v.get("dealer"))
    ctx.seat_hot(p["to_act"], v.get("current_player"))
    scores = v.get("scores") or []
    out = p["scores"]
    if side_of is None:
        for s, val in enumerate(scores[:n]):
            r = ctx.rel(s)
            if r is not None and r < len(out):
                out[r] = scalar(val, score_scale)
    else:
        mine = side_of(ctx.me)
        k = len(out)
        for side, val in enumerate(scores[:k]):
            out[(side - mine) % k] = scalar(val, score_scale)
    p["hand_number"][0] = scalar(v.get("hand_number") or 0, 100)
    p["terminal"][0] = 1.0 if v.get("terminal") else 0.0


def action_mask(state_or_view, game) -> np.ndarray:
    """int8 mask over ``game.action_space`` of the legal actions.

    From a state: the legal actions of the seat to act.  From a view: its ``legal_actions``
    (present only when the viewing seat is to act; otherwise the mask is all zeros).
    """
    mask = np.zeros(len(game.action_space), dtype=np.int8)
    index = game.action_index
    if isinstance(state_or_view, dict):
        for a in state_or_view.get("legal_actions") or ():
            mask[index[str(a)]] = 1
    else:
        for a in state_or_view.legal_actions():
            mask[index[str(a)]] = 1
    return mask


def info_blocks(keys, n: int, prefix: str = "info") -> list[Block]:
    """Presence bit + relative seat (if the payload has one) for each listed info event."""
    return [Block(f"{prefix}_seen", len(keys), "1 if this hand's view has the event: " + ", ".join(keys)),
            Block(f"{prefix}_seat", len(keys) * n, "per listed event: its 'seat' (relative seat one-hot)")]


def fill_info(p: dict, ctx: Ctx, keys, prefix: str = "info") -> None:
    info = ctx.view.get("info") or {}
    seen, seats = p[f"{prefix}_seen"], p[f"{prefix}_seat"]
    for i, k in enumerate(keys):
        ev = info.get(k)
        if ev is None:
            continue
        seen[i] = 1.0
        if isinstance(ev, dict):
            ctx.seat_hot(seats, ev.get("seat"), i * ctx.n)


_LAYOUTS: dict = {}


def cached_layout(game, build) -> Layout:
    """The layout of ``game`` (cached per game, variant and options)."""
    opts = game.options
    key = (build.__module__, game.name, game.variant,
           tuple(sorted((k, repr(v)) for k, v in dict(opts).items())))
    lay = _LAYOUTS.get(key)
    if lay is None:
        lay = _LAYOUTS[key] = build(game)
    return lay


def layout_members(build):
    """An encoder's ``layout(game)`` (``build(game)``, cached per game) and ``observation_size(game)``
    (its size): ``layout, observation_size = layout_members(_layout)`` in each game's encoder."""

    def layout(game) -> Layout:
        return cached_layout(game, build)

    def observation_size(game) -> int:
        return layout(game).size

    return layout, observation_size
