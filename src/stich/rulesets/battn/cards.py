"""Battn cards: Le Sappadine, the three Critici and the conversion to a normal deck (rules §A1).

Cards are indices of stich's ``sappadine40`` deck (suits ``Po St Ra Sc``, ranks
``2 3 4 5 6 7 J N K A``); the canonical code is suit+rank (``PoK``), and the rules file's
``K-Po`` is accepted everywhere a card is parsed.
"""

from __future__ import annotations

from stich.cards import deck

__all__ = ["DECK", "BARBA", "BELLI", "SPITZ", "CRITICI", "CRITICI_MASK", "SUITS", "RANKS",
           "RANK_CODES_HIGH_FIRST", "plain_rank_value", "display_name", "STYLES"]

DECK = deck("sappadine40")
SUITS = DECK.suit_codes            # ("Po", "St", "Ra", "Sc")
RANKS = DECK.rank_codes            # ("2", "3", "4", "5", "6", "7", "J", "N", "K", "A")
#: The ranks in the order the Schlòk is usually listed (A1.4, highest first).
RANK_CODES_HIGH_FIRST = ("A", "K", "N", "J", "7", "6", "5", "4", "3", "2")

# --- A1.2 The three Critici (Krittn), highest first -------------------------------------------------
BARBA = DECK.parse("K-Po")   # Barba / Port: Rollate (Re) di Porcini
BELLI = DECK.parse("4-St")   # Belli: 4 di Stelle Alpine
SPITZ = DECK.parse("7-Ra")   # Spitz: 7 di Rastrelli
CRITICI = (BARBA, BELLI, SPITZ)
CRITICI_MASK = (1 << BARBA) | (1 << BELLI) | (1 << SPITZ)
CRITICO_NAMES = {BARBA: "Barba", BELLI: "Belli", SPITZ: "Spitz"}


def plain_rank_value(rank: int, ace_rank: str = "high") -> int:
    """A1.4 plain rank values: A=10, K=9, N=8, J=7, 7=6 ... 2=1 (option ace_rank=low: A=0)."""
    if RANKS[rank] == "A":
        return 10 if ace_rank == "high" else 0
    return rank + 1  # the deck lists 2 3 4 5 6 7 J N K in increasing order


# --- A1.3 Conversion table Le Sappadine <-> normal deck (RECONSTRUCTED, ruling A4-23) -------------
# Suits map Po->Coppe/Hearts, St->Denari/Diamonds, Ra->Bastoni/Clubs, Sc->Spade/Spades;
# Rollate->Re/King, Minatore con Camoscio->Cavallo/Queen, Holzhockar->Fante/Jack.
_SUIT_NAMES = {
    "italian": {
        "it": ("Coppe", "Denari", "Bastoni", "Spade"),
        "en": ("Cups", "Coins", "Batons", "Swords"),
        "de": ("Kelche", "Münzen", "Stäbe", "Schwerter"),
    },
    "french": {
        "it": ("Cuori", "Quadri", "Fiori", "Picche"),
        "en": ("Hearts", "Diamonds", "Clubs", "Spades"),
        "de": ("Herz", "Karo", "Kreuz", "Pik"),
    },
    "german": {
        "it": ("Cuori", "Campanelle", "Ghiande", "Foglie"),
        "en": ("Hearts", "Bells", "Acorns", "Leaves"),
        "de": ("Herz", "Schellen", "Eichel", "Laub"),
    },
}
_FACE_NAMES = {  # for J, N, K, A
    "italian": {
        "it": ("Fante", "Cavallo", "Re", "Asso"),
        "en": ("Jack", "Knight", "King", "Ace"),
        "de": ("Bube", "Reiter", "König", "Ass"),
    },
    "french": {
        "it": ("Fante", "Donna", "Re", "Asso"),
        "en": ("Jack", "Queen", "King", "Ace"),
        "de": ("Bube", "Dame", "König", "Ass"),
    },
    "german": {
        "it": ("Unter", "Ober", "Re", "Asso"),
        "en": ("Unter", "Ober", "King", "Ace"),
        "de": ("Unter", "Ober", "König", "Ass"),
    },
}
_PATTERN = {"it": "{rank} di {suit}", "en": "{rank} of {suit}", "de": "{suit} {rank}"}
_FRENCH_SYMBOLS = ("♥", "♦", "♣", "♠")
_FRENCH_SHORT_RANKS = {"J": "J", "N": "Q", "K": "K", "A": "A"}
STYLES = ("sappadine", "italian", "french", "german", "short")


def display_name(card, style: str = "sappadine", lang: str = "it") -> str:
    """A card's name for display (A1.3), e.g. ``display_name("K-Po", "italian") == "Re di Coppe"``.

    ``card``: a card code in any spelling (``PoK``, ``K-Po``) or a card index.
    ``style``: ``sappadine`` (the deck's own names: "Rollate di Porcini"), ``italian``
    (Trevisane, Napoletane... "Re di Coppe"), ``french`` (Genovesi, Piemontesi... "Re di Cuori"),
    ``german`` (Watten's deck: "Herz König"; it has no 2-6, so those keep their number) or
    ``short`` (the French index, ``K♥``).  ``lang``: ``it``, ``en`` or ``de``.  The suit
    mapping is the reconstruction of ruling A4-23 (display data only).
    """
    i = card if isinstance(card, int) else DECK.parse(card)
    if style == "sappadine":
        return DECK.long_name(i, lang)
    s, r = DECK.cards[i]
    code = RANKS[r]
    if style == "short":
        return _FRENCH_SHORT_RANKS.get(code, code) + _FRENCH_SYMBOLS[s]
    if style not in _SUIT_NAMES:
        raise ValueError(f"unknown display style {style!r}; styles are: {', '.join(STYLES)}")
    if lang not in _PATTERN:
        lang = "en"
    rank = _FACE_NAMES[style][lang]["JNKA".index(code)] if code in "JNKA" else code
    return _PATTERN[lang].format(rank=rank, suit=_SUIT_NAMES[style][lang][s])
