"""Cards in the pages: their localised names, their short index and the suit drawing to show.

The suit drawings are the project's own SVG symbols (``static/suits.svg``, MIT, see
``static/LICENSE.md``), one family per deck: German (Herz, Schellen, Eichel, Laub), Sappadine
(Porcini, Stelle Alpine, Rastrelli, Sci) and French suits (the Genoese 40-card deck and the French 52).
"""

from __future__ import annotations

from dataclasses import dataclass

#: deck name -> the symbol family in suits.svg
FAMILY = {"german33": "german", "german32": "german", "sappadine40": "sappadine", "genoese40": "french",
          "french52": "french"}
#: suits drawn in red (the rest in the text colour)
RED = {"german": {"H", "S"}, "sappadine": {"Po", "Ra"}, "french": {"H", "D"}}
#: French indices (valet, dame, roi) where the page is in French
FRENCH_INDEX = {"J": "V", "Q": "D", "K": "R"}


@dataclass(frozen=True)
class CardFace:
    code: str       # the engine's code, e.g. "EO": also the action argument
    name: str       # the long localised name, e.g. "Eichel-Ober", "dame de pique"
    index: str      # the corner index, e.g. "O", "10", "D"
    symbol: str     # the id of the suit symbol in suits.svg, e.g. "german-E"
    red: bool

    @property
    def say(self) -> str:
        """The name a button says: the long name, with the corner index where the name lacks it
        (``Herz-Zehn (10)``), so that what a button shows is part of its name."""
        if len(self.index) > 1 and self.index.lower() not in self.name.lower():
            return f"{self.name} ({self.index})"
        return self.name


def family(deck) -> str:
    return FAMILY.get(deck.name, "french")


def face(deck, code: str, lang: str) -> CardFace:
    """The face of a visible card in a language."""
    i = deck.parse(code)
    s, r = deck.cards[i]
    suit, rank = deck.suit_codes[s], deck.rank_codes[r]
    fam = family(deck)
    index = rank
    if fam == "french" and lang == "fr":
        index = FRENCH_INDEX.get(rank, rank)
    if deck.name.startswith("german") and rank == "6":
        index = "W"  # the Weli
    name = deck.long_name(i, lang)
    return CardFace(deck.codes[i], name, index, f"{fam}-{suit}", suit in RED.get(fam, ()))
