"""Validation of explicit set-ups (``new_state(hands=..., stock=...)``), shared by every game.

Each function returns card indices and raises :class:`SetupError` with one wording for all
games; seats are named both ways (``hands[0] (seat 1)``) because the list index is 0-based and
players count from 1.
"""

from __future__ import annotations

from stich.cards import Deck
from stich.engine.errors import SetupError, StichError


def parse_cards(deck: Deck, codes, what: str) -> list[int]:
    """The card indices of a list of card codes; ``what`` names the list in errors."""
    if isinstance(codes, str) or not isinstance(codes, (list, tuple)):
        raise SetupError(f"{what} must be a list of card codes, not {codes!r}")
    out = []
    for code in codes:
        if not isinstance(code, str) or not deck.is_card(code):
            raise SetupError(f"{what}: {code!r} is not a card of the {deck.name} deck "
                             f"(e.g. {deck.codes[0]!r})")
        out.append(deck.parse(code))
    return out


def parse_hands(deck: Deck, hands, seats: int, size: int) -> list[list[int]]:
    """Per seat, the card indices of its hand in the given order: ``seats`` hands of ``size``
    distinct cards each."""
    if isinstance(hands, str) or not isinstance(hands, (list, tuple)) or len(hands) != seats:
        raise SetupError(f"hands must be {seats} lists of {size} cards, one per seat, not {hands!r}")
    seen = 0
    out = []
    for s, hand in enumerate(hands):
        cards = parse_cards(deck, hand, f"hands[{s}] (seat {s + 1})")
        if len(cards) != size:
            raise SetupError(f"hands[{s}] (seat {s + 1}) must hold exactly {size} cards, not {len(cards)}")
        for c in cards:
            if seen >> c & 1:
                raise SetupError(f"card {deck.code(c)} is dealt twice")
            seen |= 1 << c
        out.append(cards)
    return out


def parse_stock(deck: Deck, stock, hands: list[list[int]]) -> list[int]:
    """The stock, top first: exactly the cards that are not in ``hands``, each once."""
    cards = parse_cards(deck, stock, "stock")
    dealt = 0
    for hand in hands:
        for c in hand:
            dealt |= 1 << c
    rest = deck.full_mask & ~dealt
    given = 0
    for c in cards:
        if (dealt | given) >> c & 1:
            raise SetupError(f"card {deck.code(c)} is dealt twice (in the stock)")
        given |= 1 << c
    if given != rest:
        raise SetupError(f"the stock must hold exactly the {rest.bit_count()} cards not in the hands; "
                         f"missing: {', '.join(deck.codes_of(rest & ~given))}")
    return cards


def mask(cards: list[int]) -> int:
    """The bitmask of a list of card indices."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def step(state, text: str, what: str) -> None:
    """Apply one step of a set-up position through the rules, as the seat on turn (it is part of
    the set-up, which the record replays, not of the history): a :class:`SetupError` naming
    ``what`` if the text is no action of the game or the rules do not allow it there."""
    try:
        _seat, act = state.game.parse_action(text)
    except StichError as exc:
        raise SetupError(f"position {what}: {exc}") from None
    legal = state.legal_actions()
    if act not in legal:
        reason = state._why_illegal(act)
        raise SetupError(f"position {what}: {text!r} is not legal there" + (f" ({reason})" if reason else "")
                         + f"; legal: {', '.join(map(str, legal))}")
    state._legal = None
    state._apply(legal[legal.index(act)])


def seat_card_pairs(deck: Deck, items, what: str, n: int, passes: bool = False) -> list[tuple[int, int | None]]:
    """``[[seat, card], ...]`` as (seat, card index); with ``passes`` the card may be ``"pass"`` (None)."""
    if isinstance(items, str) or not isinstance(items, (list, tuple)):
        raise SetupError(f"position {what} must be a list of [seat, card] pairs, not {items!r}")
    out = []
    for item in items:
        if not (isinstance(item, (list, tuple)) and len(item) == 2):
            raise SetupError(f"position {what}: {item!r} is not a [seat, card] pair")
        p, card = item
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < n:
            raise SetupError(f"position {what}: {p!r} is not a seat 0..{n - 1}")
        if passes and str(card).strip().lower() == "pass":
            out.append((p, None))
        else:
            out.append((p, parse_cards(deck, [card], f"position {what}")[0]))
    return out


def dealt_cards(code, in_hand: list[list[int]], plays, per_seat: int, rule: str,
                seat_word: str = "seat ") -> list[list[int]]:
    """Each seat's dealt cards for a position: what it still holds plus what it has played (``plays``:
    (seat, card) pairs in order; a card None, a pass, is skipped).  SetupError when a card is in two
    places or a seat's cards do not add up to the ``per_seat`` dealt (``rule`` names the rule);
    ``code`` writes a card and ``seat_word`` a seat ("P" in Barbu's rules: P0..P3) for the message."""
    seen = 0
    dealt = [list(cs) for cs in in_hand]
    for cs in in_hand:
        for c in cs:
            if seen >> c & 1:
                raise SetupError(f"card {code(c)} is in two places")
            seen |= 1 << c
    for i, (p, c) in enumerate(plays):
        if c is None:
            continue
        if seen >> c & 1:
            raise SetupError(f"card {code(c)} (play #{i + 1}) is in two places")
        seen |= 1 << c
        dealt[p].append(c)
    for p, cs in enumerate(dealt):
        if len(cs) != per_seat:
            held = len(in_hand[p])
            raise SetupError(f"{seat_word}{p} holds {held} card(s) and has played {len(cs) - held}: "
                             f"that is {len(cs)}, not the {per_seat} dealt ({rule})")
    return dealt


def check_position_fields(pos, fields: tuple[str, ...], required: tuple[str, ...]) -> None:
    """A ``position=`` set-up is a dict holding only ``fields`` and at least ``required``: else a
    SetupError naming what is wrong (every game's position starts with this check)."""
    if not isinstance(pos, dict):
        raise SetupError(f"position must be a dict of fields ({', '.join(fields)}), not {pos!r}")
    unknown = sorted(set(pos) - set(fields))
    if unknown:
        raise SetupError(f"position has no field {', '.join(map(repr, unknown))}; fields are {', '.join(fields)}")
    for need in required:
        if need not in pos:
            raise SetupError(f"position needs {need!r}")
