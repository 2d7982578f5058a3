"""Biscambiggia chiamata: the card tables and the pure rules (BB-0, BB-5.4, BB-6.3).

Everything here is a plain function of its arguments, so the worked examples of the rules
file (AB6-AB15) can be checked without a game in progress.  Cards are indices of the
``genoese40`` deck: ``suit * 10 + rank_index`` with suits ``H D C S`` and rank codes
``2 3 4 5 6 7 J Q K A`` (in that code order, which is *not* the game's order).
"""

from __future__ import annotations

from stich.cards import deck

DECK = deck("genoese40")
NUM_PLAYERS = 5
CARDS_EACH = 8          # BB-2.3: 8 cards a player, the whole deck is dealt
TRICKS = 8              # BB-5.6: the hand ends after 8 tricks
TOTAL_POINTS = 120      # BB-0.2 / AB18

# BB-0.2: rank order highest -> lowest and card points, per `ranking` option (B3 / B5.1).
ORDER = {
    "biscambiggia": ("A", "7", "K", "Q", "J", "6", "5", "4", "3", "2"),
    "briscola": ("A", "3", "K", "Q", "J", "7", "6", "5", "4", "2"),
}
POINTS_BY_RANK = {
    "biscambiggia": {"A": 11, "7": 10, "K": 4, "Q": 3, "J": 2},
    "briscola": {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2},
}


def rank_values(ranking: str) -> tuple[int, ...]:
    """Per card: the engine rank value of BB-0.2 (A = 10 ... lowest = 1)."""
    order = ORDER[ranking]
    return tuple(10 - order.index(DECK.rank_codes[DECK.rank(c)]) for c in range(len(DECK)))


def card_points(ranking: str) -> tuple[int, ...]:
    """Per card: its card points (BB-0.2); they total 120 for either ranking."""
    pts = POINTS_BY_RANK[ranking]
    return tuple(pts.get(DECK.rank_codes[DECK.rank(c)], 0) for c in range(len(DECK)))


def strength(card: int, trump: int, led: int, values: tuple[int, ...]) -> int:
    """BB-5.4: (2, rank) for a trump, (1, rank) for the suit led, (0, 0) otherwise, as one int."""
    suit = card // 10
    if suit == trump:
        return 20 + values[card]
    if suit == led:
        return values[card]
    return 0


def trick_winner(cards: list[int], trump: int, values: tuple[int, ...]) -> int:
    """The index (0 = the lead) of the card that wins a trick (BB-5.4; never a tie)."""
    led = cards[0] // 10
    keys = [strength(c, trump, led, values) for c in cards]
    return keys.index(max(keys))


def marche(caller: int, traitor: int | None, success: bool, cappotto: bool = False) -> list[int]:
    """BB-6.3: the marche each seat receives (negative = pays) for one hand; they sum to zero.

    ``traitor`` is None when the caller called his own card and played alone (BB-4.4).
    ``cappotto`` doubles every marca (option ``cappotto_double``, B4-12).
    """
    sign = 1 if success else -1
    factor = 2 if cappotto else 1
    out = [-sign * factor] * NUM_PLAYERS          # each opponent pays (or receives) one marca
    if traitor is None:
        out[caller] = 4 * sign * factor           # alone: one marca from (to) each of four opponents
    else:
        out[caller] = 2 * sign * factor
        out[traitor] = sign * factor
    return out


def deal_positions(relative_seat: int) -> tuple[int, ...]:
    """BB-2.3 / AB17: the deck positions (0 = top) a seat receives; A = 0, ..., E (dealer) = 4."""
    first = 4 * relative_seat
    return tuple(range(first, first + 4)) + tuple(range(20 + first, 20 + first + 4))
