"""Barbu rules as data and pure functions (``docs/rules/barbu.md``).

Everything here is independent of the engine: the deck layout, the seven contracts (§1.5),
the schedule (§1.3), the doubling legality (§3.2 rule 13, §3.3), the settlement (§3.4) and the
split of an undoubled negative contract (§4).  The state machine lives in ``state.py``.

Cards are indices of stich's ``french52`` deck: ``suit * 13 + (rank - 2)`` with suits
``S H D C`` = 0..3 and ranks 2..14 (A = 14, ace high); a set of cards is a bitmask.
"""

from __future__ import annotations

import functools

from stich.cards import deck, iter_bits

DECK = deck("french52")
SUITS = DECK.suit_codes  # ("S", "H", "D", "C")
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
RANKS = tuple(range(2, 15))  # numeric rank 2..14, A = 14 (§1.1 rule 2, R-9 ace high)
RANK_CODE = {r: DECK.rank_codes[r - 2] for r in RANKS}  # 10 -> "10", 14 -> "A"

CODES = DECK.codes
SUIT_OF = tuple(c // 13 for c in range(52))
RANK_OF = tuple(c % 13 + 2 for c in range(52))
BIT = tuple(1 << c for c in range(52))
SUIT_MASK = tuple(0x1FFF << (13 * s) for s in range(4))


def card(suit: int, rank: int) -> int:
    """The card index of ``(suit, rank)`` with rank 2..14."""
    return suit * 13 + rank - 2


HEART_MASK = SUIT_MASK[HEARTS]
QUEEN_MASK = sum(BIT[card(s, 12)] for s in range(4))
KH = card(HEARTS, 13)  # the barbu
AH = card(HEARTS, 14)

# --- the seven contracts (§1.5) --------------------------------------------------------------
NO_TRICKS, NO_HEARTS, NO_QUEENS, BARBU, NO_LAST_TWO, TRUMPS, DOMINO = range(7)
CONTRACTS = ("NO_TRICKS", "NO_HEARTS", "NO_QUEENS", "BARBU", "NO_LAST_TWO", "TRUMPS", "DOMINO")
CONTRACT_ID = {name: i for i, name in enumerate(CONTRACTS)}
TOTAL = (-26, -30, -24, -20, -30, 65, 65)  # deal total T per contract; the seven sum to 0
NEGATIVE = frozenset(range(5))
POSITIVE = frozenset((TRUMPS, DOMINO))
DOMINO_PLACES = (45, 20, 5, -5)  # §2.8 rule 9
DEALS = 28


def _domino_opens(start: int) -> tuple[int, ...]:
    """Per card: the card its play opens in a row started at rank ``start`` (§2.8 rules 2-3):
    the start card opens both neighbours, a lower card the next lower, a higher card the next
    higher; ranks run 2..A (A = 14) without wrap-around (R-9)."""
    opens = []
    for c in range(52):
        r = RANK_OF[c]
        m = 0
        if r <= start and r > 2:
            m |= BIT[c - 1]
        if r >= start and r < 14:
            m |= BIT[c + 1]
        opens.append(m)
    return tuple(opens)


DOMINO_OPENS = {start: _domino_opens(start) for start in RANKS}

assert sum(TOTAL) == 0


def seat_text(p: int) -> str:
    """A seat in action text: 1-based, as everywhere in stich's text (seat 1 = the rules' P0)."""
    return str(p + 1)


# --- schedule (§1.3, R-3) -------------------------------------------------------------------------
@functools.cache
def callers(first_caller: int, every_deal: bool) -> tuple[int, ...]:
    """Caller of deals 1..28 (index 0..27): blocks of 7 passing left, or a new caller every deal."""
    if every_deal:
        return tuple((first_caller + d) % 4 for d in range(DEALS))
    return tuple((first_caller + d // 7) % 4 for d in range(DEALS))


def displayed_dealer(caller: int, dealer_is_caller: bool) -> int:
    """S1: the dealer sits on the caller's right; display only (R-1, option DEALER_IS_CALLER)."""
    return caller if dealer_is_caller else (caller + 3) % 4


@functools.cache
def window_left(schedule: tuple[int, ...], hand_number: int) -> int:
    """k of §3.3: the deals of this deal's caller from ``hand_number`` (1-based) to deal 28 inclusive
    (his block's remaining deals, or with ROTATION = EVERY_DEAL his remaining turns, R-3)."""
    return schedule[hand_number - 1:].count(schedule[hand_number - 1])


@functools.cache
def deal_table(first_caller: int, every_deal: bool, dealer_is_caller: bool) -> tuple[tuple[int, ...], ...]:
    """Per deal 1..28 (index 0..27): (caller, k of §3.3, block position 1..7, displayed dealer), so
    that setting up a deal looks them up instead of counting through the schedule."""
    sched = callers(first_caller, every_deal)
    return tuple((sched[d], window_left(sched, d + 1), sched[:d + 1].count(sched[d]),
                  displayed_dealer(sched[d], dealer_is_caller)) for d in range(DEALS))


# --- raw contract scores (§2) ------------------------------------------------------------------------
def raw_scores(contract: int, taken: list[int], won: list[int], winners: list[int]) -> list[int]:
    """Raw deal scores of a trick contract from the cards each seat took (R-21), its trick counts
    and the trick winners in order."""
    if contract == NO_TRICKS:
        return [-2 * n for n in won]
    if contract == NO_HEARTS:
        return [-2 * (t & HEART_MASK).bit_count() - (4 if t >> AH & 1 else 0) for t in taken]
    if contract == NO_QUEENS:
        return [-6 * (t & QUEEN_MASK).bit_count() for t in taken]
    if contract == BARBU:
        return [-20 if t >> KH & 1 else 0 for t in taken]
    if contract == NO_LAST_TWO:
        raw = [0, 0, 0, 0]
        if len(winners) >= 12:
            raw[winners[11]] -= 10
        if len(winners) >= 13:
            raw[winners[12]] -= 20
        return raw
    if contract == TRUMPS:
        return [5 * n for n in won]
    raise ValueError(f"{CONTRACTS[contract]} is not a trick contract")


def trick_winner(cards: list[int], leader: int, trump: int = -1) -> int:
    """Appendix B ``trick_winner``: the seat winning a trick (cards in play order from ``leader``)."""
    best = 0
    for i in range(1, 4):
        s, sb = SUIT_OF[cards[i]], SUIT_OF[cards[best]]
        if (s == trump and sb != trump) or (s == sb and cards[i] > cards[best]):
            best = i
    return (leader + best) % 4


def domino_scores(out_order: list[int]) -> list[int]:
    """§2.8 rule 9: places +45, +20, +5, -5 in going-out order."""
    raw = [0, 0, 0, 0]
    for place, seat in enumerate(out_order):
        raw[seat] = DOMINO_PLACES[place]
    return raw


# --- settlement (§3.4, R-15) and the undoubled split (§4, R-14) ----------------------------------------
def settle(raw: list[int], business: dict[tuple[int, int], int]) -> tuple[list[int], list[int]]:
    """(adjustments, final scores): each pair settles ``m * (raw[a] - raw[b])`` from the raw scores."""
    adj = [0, 0, 0, 0]
    for (a, b), m in business.items():
        d = m * (raw[a] - raw[b])
        adj[a] += d
        adj[b] -= d
    return adj, [raw[0] + adj[0], raw[1] + adj[1], raw[2] + adj[2], raw[3] + adj[3]]  # (4 seats)


def undoubled_split(total: int, caller: int) -> list[int]:
    """§4 rule 2: each non-caller -ceil(|T|/3), the caller the remainder (0 or +1)."""
    share = total // 3  # floor: "rounded to the next more negative integer" (T < 0)
    scores = [share] * 4
    scores[caller] = total - 3 * share
    return scores


# --- doubling (§3.2 rule 13, §3.3) ---------------------------------------------------------------------
def doubling_rights(p: int, caller: int, positive: bool, doubled_me: int, caller_only_redouble: bool,
                    forced: bool) -> tuple[int, int, int]:
    """(may_double, may_redouble, must_double) as seat bitmasks for player ``p``.

    ``doubled_me``: seats that doubled ``p`` earlier in this round; ``forced``: §3.3 says ``p``
    must double the caller in this deal.
    """
    others = 0b1111 & ~(1 << p)
    may_redouble = doubled_me if (p == caller or not caller_only_redouble) else 0  # rules 5, 8, R-12
    if p == caller:
        may_double = 0  # rule 5: the caller never doubles
    elif positive:
        may_double = (1 << caller) & ~doubled_me  # rule 6, R-11: only the caller
    else:
        may_double = others & ~doubled_me  # rules 7 and 9
    must = (1 << caller) if (forced and p != caller) else 0  # rule 10, §3.3
    return may_double, may_redouble, must


def submasks(mask: int) -> list[int]:
    """All submasks of ``mask``, the empty one first."""
    out = [0]
    sub = mask
    subs = []
    while sub:
        subs.append(sub)
        sub = (sub - 1) & mask
    out.extend(reversed(subs))
    return out


def seats_of(mask: int) -> list[int]:
    """The seats in a seat bitmask, lowest first."""
    return list(iter_bits(mask))


SEATS = tuple(tuple(iter_bits(m)) for m in range(16))  # seats_of for every seat mask, precomputed
#: Per caller's used-contract mask: the names still available (the ``caller`` event's list).
AVAILABLE = tuple(tuple(CONTRACTS[c] for c in range(7) if not used >> c & 1) for used in range(128))


def doubling_text(doubles: int, redoubles: int) -> str:
    """Canonical action text of a doubling turn (seats 1-based): ``pass``, ``double 1,3``,
    ``redouble 2``, ``double 4 redouble 2``."""
    if not doubles and not redoubles:
        return "pass"
    parts = []
    if doubles:
        parts.append("double " + ",".join(seat_text(p) for p in seats_of(doubles)))
    if redoubles:
        parts.append("redouble " + ",".join(seat_text(p) for p in seats_of(redoubles)))
    return " ".join(parts)
