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


def tell_seats(names, seats, you: str | None, you_and: str, other: str, /, key: str = "seats", join=None,
               **values) -> str:
    """A sentence about several seats (those doubled, the winners, the two who throw in their hands), as
    :func:`tell` is about one: ``other`` with the seats named at ``%(key)s`` (``"Seat 2 doubles Seat 3,
    Seat 4"``) while the reader is not one of them; ``you_and`` with the others at ``%(others)s``
    (``"Seat 2 doubles Seat 3 and you"``) when he is, ``you`` when he is the only one.  Whole sentences
    again, because the reader's pronoun changes with its case (``dich``, ``te``), and the verb with it.
    ``join`` lists the names (``", ".join`` unless given); ``you`` None: the reader cannot be alone
    there, and is refused if he is."""
    seats = list(seats)
    join = join or ", ".join
    me = names.human
    if me is None or me not in seats:
        return names._(other) % {key: join([names.seat(s) for s in seats]), **values}
    others = [names.seat(s) for s in seats if s != me]
    if others:
        return names._(you_and) % {"others": join(others), **values}
    if you is None:
        raise ValueError(f"the reader (seat {me}) alone in a sentence about several seats: {other!r}")
    return names._(you) % values
