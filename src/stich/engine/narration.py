"""Narration pieces that every game's words share, below the games so that their text companions
(``stich.rulesets.<game>.text``) and the apps that show them (terminal, browser) can both use them."""

from __future__ import annotations


def plain_trick_reason(cards: list[dict], winner: int, names, trump: str | None) -> str | None:
    """``trump``, ``the highest trump`` or ``the highest of the suit led`` (None where neither explains it);
    ``names`` is the narrator (``stich.narration.Names``): only its ``deck`` is read."""
    deck = names.deck
    won = next((p["card"] for p in cards if p["seat"] == winner), None)
    if won is None or not cards:
        return None

    def suit(code):
        return deck.suit_codes[deck.suit(deck.parse(code))]

    led = suit(cards[0]["card"])
    if trump and suit(won) == trump:
        return "the highest trump" if led == trump else "trump"
    return "the highest of the suit led" if suit(won) == led else None


def N_(msgid: str) -> str:
    """Marks a msgid for the catalogues (``python -m stich.i18n.extract``) where it is translated later,
    when it is shown (``names._(msgid)``)."""
    return msgid


def tell(names, seat, you: str, other: str, /, **values) -> str:
    """A sentence about ``seat`` in the reader's language: the msgid ``you`` (``"You pass"``) when the seat
    is the reader (``names.human``), else ``other`` (``"%(seat)s passes"``) with the seat's name; ``values``
    fill the other placeholders.  Two whole sentences rather than a subject and a verb glued together,
    because languages conjugate and order them differently (``names``: ``stich.narration.Names``)."""
    if seat is not None and seat == names.human:
        return names._(you) % values
    return names._(other) % {"seat": names.seat(seat), **values}
