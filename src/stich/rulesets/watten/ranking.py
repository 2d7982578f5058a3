"""Card strength and follow obligations of Watten (rules file §2.3, §2.6, B1.1, T1.2, T2, E.7).

Every card gets a **key** for one (Schlag, trump) pair: ``class * 16 + sub`` for the cards that
beat plain cards whatever is led (Kritische 9, Guate 8, Rechte/Hauptschlag 7, Linke/Blinde 6,
trump-suit cards 5), 0 for the others.  A plain card of the led suit scores ``2 * 16 + rank``.
The trick goes to the first card with the strictly highest key (§2.3: the earliest Linke wins).

Ranks are the deck's rank indices, which are exactly the rules file's sub-ranks (§0.2):
6 (Weli) = 0, 7 = 1, 8 = 2, 9 = 3, 10 = 4, U = 5, O = 6, K = 7, A = 8.
Suits: H = 0, S = 1, E = 2, L = 3.  The Weli is the Schellen 6 (suit 1, rank 0).
"""

from __future__ import annotations

from dataclasses import dataclass

KRITISCHE, GUATE, RECHTE, LINKE, TRUMP, PLAIN = 9, 8, 7, 6, 5, 2
HERZ, SCHELLEN, EICHEL, LAUB = 0, 1, 2, 3
WELI_RANK = 0
ACE, KING, SEVEN = 8, 7, 1

# The rules file's rank/suit letters (action arguments ``schlag O``, ``trump H``).
RANK_CODES = ("6", "7", "8", "9", "10", "U", "O", "K", "A")
SUIT_CODES = ("H", "S", "E", "L")


def guate_rank(schlag: int) -> int | None:
    """The rank of the Guate: one above the Schlag, the Ace wrapping to the 7 (T2, R5(a)(c))."""
    if schlag == WELI_RANK:
        return None  # R5(b): Schlag Weli has no Guate (option trump7 handled by the caller)
    return SEVEN if schlag == ACE else schlag + 1


@dataclass(frozen=True)
class Ranking:
    """Everything the play needs for one (Schlag, trump) pair, precomputed once per game."""

    schlag: int
    trump: int
    key: tuple[int, ...]      # per card: class*16+sub for trump-like cards, else 0
    trump_mask: int           # the cards that count as "trump" for the follow rule
    linke_mask: int           # Linke / Blinde
    rechte: int               # bit of the Rechte / Hauptschlag, 0 if there is none
    guate: int                # bit of the Guate, 0 if there is none
    kritische_mask: int       # Bavarian Kritische (0 elsewhere)
    schlag_mask: int          # Rechte + Linke (the "Schlag cards" of T1.8 (c))


def kritische_cards(deck) -> tuple[int, int, int]:
    """Max H-K, Belli S-7, Spitz E-7 (B1.1, R27 order)."""
    return deck.find(HERZ, KING), deck.find(SCHELLEN, SEVEN), deck.find(EICHEL, SEVEN)


def build_ranking(deck, family: str, schlag: int, trump: int, guate_trump7: bool = False) -> Ranking:
    """The ranking of one hand.  ``family``: ``bavarian``, ``tyrolean`` or ``guate``.

    * bavarian: Kritische > Hauptschlag > Blinde > trump suit (B1.1); a Kritische is never
      Hauptschlag, Blinde or ordinary trump (R16).
    * tyrolean: Rechte > Linke > trump suit > the Weli, always the lowest trump (T1.2).
    * guate (guate, blind, euregio): Guate > Rechte > Linke > trump suit; the Weli is a plain
      Schellen 6, a trump only when Schellen is trump (T2, E.7, R6).
    Schlag 6 (Weli): the Weli is the Rechte whatever the trump, no Linke, no Guate (T1.2, R22).
    """
    n = len(deck)
    key = [0] * n
    kmask = trump_mask = linke = 0
    rechte = guate = 0
    krit = set()
    if family == "bavarian":
        for sub, c in zip((3, 2, 1), kritische_cards(deck), strict=True):
            key[c] = KRITISCHE * 16 + sub
            kmask |= 1 << c
            krit.add(c)
    g_rank = guate_rank(schlag) if family == "guate" else None
    if family == "guate" and schlag == WELI_RANK and guate_trump7:
        g_rank = SEVEN  # R5(b) option guate_when_weli_schlag = trump7
    for c in range(n):
        if c in krit:
            continue
        s, r = deck.suit(c), deck.rank(c)
        is_weli = s == SCHELLEN and r == WELI_RANK
        if r == schlag and (s == trump or is_weli):
            key[c] = RECHTE * 16           # Rechte / Hauptschlag; Weli-Rechte whatever the trump
            rechte = 1 << c
        elif r == schlag:
            key[c] = LINKE * 16            # Linke / Blinde, all equal: the first played wins
            linke |= 1 << c
        elif g_rank is not None and s == trump and r == g_rank:
            key[c] = GUATE * 16
            guate = 1 << c
        elif s == trump:
            key[c] = TRUMP * 16 + r        # ordinary trumps, A high (R4); Weli = 0 when Schellen
        elif is_weli and family == "tyrolean":
            key[c] = TRUMP * 16            # T1.2(4): the Weli is always the lowest trump
        if key[c] >= TRUMP * 16:
            if family == "bavarian" or key[c] != LINKE * 16:
                trump_mask |= 1 << c
    # Follow-rule trumps: Bavarian counts Kritische and Blinde (R15(a)); Tyrolean family counts
    # trump-suit cards (Guate and Rechte included), the Weli where it is a trump, and the
    # Weli-Rechte, but never the Linke (T1.6 "Linke are not trumps").
    trump_mask |= kmask
    return Ranking(schlag, trump, tuple(key), trump_mask, linke, rechte, guate, kmask, rechte | linke)


def trick_winner(ranking: Ranking, deck_suit: tuple[int, ...], deck_rank: tuple[int, ...], cards) -> int:
    """Index (in play order) of the card that wins the trick ``cards`` (§2.3)."""
    key = ranking.key
    led_suit = deck_suit[cards[0]]
    best_i, best = 0, -1
    for i, c in enumerate(cards):
        k = key[c]
        if not k and deck_suit[c] == led_suit:
            k = PLAIN * 16 + deck_rank[c]
        if k > best:
            best_i, best = i, k
    return best_i


def first_winning(ranking: Ranking, deck_suit: tuple[int, ...], deck_rank: tuple[int, ...], trick, cards) -> int | None:
    """The first of ``cards`` that would win the unfinished ``trick`` if played next, or None: a card
    stronger than the one winning it now, as :func:`trick_winner` ranks them (a tie goes to the
    earlier card).  The playout policy's "cheapest card that wins", without deciding the whole
    trick again for every card."""
    key = ranking.key
    led_suit = deck_suit[trick[0]]
    played = len(trick)
    best = -1
    for i, c in enumerate((*trick, *cards)):   # the trick's cards set the bar, then each candidate meets it
        k = key[c]
        if not k and deck_suit[c] == led_suit:
            k = PLAIN * 16 + deck_rank[c]
        if k > best:
            if i >= played:
                return c
            best = k
    return None
