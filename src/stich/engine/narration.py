"""Narration pieces that every game's words share, below the games so that their text companions
(``stich.rulesets.<game>.text``) and the apps that show them (terminal, browser) can both use them."""

from __future__ import annotations


def plain_trick_reason(cards: list[dict], winner: int, names, trump: str | None) -> str | None:
    """``trump``, ``the highest trump`` or ``the highest of the suit led`` (None where neither explains it);
    ``names`` is the narrator (``stich.cli.render.Names``): only its ``deck`` is read."""
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
