"""Card strength and the follow rule of one turn (rules A3.11 BT-10, A3.13 BT-12.3/12.4).

Once the Schlòk ``s`` (a rank) and the Trumpf ``t`` (a suit) are named, every card falls in
one class, highest first:

    CRIT   the Critici Barba > Belli > Spitz                       (BT-10.1 item 1, A4-1)
    BUONO  Il Buono: rank s of suit t, unless it is a critico       (item 2, A4-4)
    UNO    Uno Buono: the other cards of rank s (not critici); the first played wins (A4-5)
    TRUMP  the other cards of suit t, plain order A K N J 7 ... 2  (item 4, A1.4)
    PLAIN  everything else; only the suit led can win               (item 5, A4-3)

A :class:`Table` is built once per (Schlòk, Trumpf) and per option set, so deciding a
trick is a max over four small integers.
"""

from __future__ import annotations

from stich.rulesets.battn.cards import BARBA, BELLI, CRITICI_MASK, DECK, SPITZ, plain_rank_value

CRIT, BUONO, UNO, TRUMP, PLAIN = 5, 4, 3, 2, 1
CLASS_NAMES = {CRIT: "critico", BUONO: "Il Buono", UNO: "Uno Buono", TRUMP: "plain trump", PLAIN: "plain"}
_CRIT_ORDER = {BARBA: 3, BELLI: 2, SPITZ: 1}
_N = len(DECK)
_SUIT = tuple(DECK.suit(c) for c in range(_N))
_RANK = tuple(DECK.rank(c) for c in range(_N))


class Table:
    """The ranking and follow-rule masks for one (Schlòk, Trumpf) under a game's options."""

    __slots__ = ("schlok", "trumpf", "kind", "value", "trump_mask", "exempt_mask", "trigger_mask",
                 "crit_equal", "uno_last", "plain_any")

    def __init__(self, schlok: int, trumpf: int, opts):
        self.schlok = schlok
        self.trumpf = trumpf
        ace = opts["ace_rank"]
        kind = [PLAIN] * _N
        value = [0] * _N
        trump_mask = exempt_mask = 0
        for c in range(_N):
            bit = 1 << c
            if bit & CRITICI_MASK:
                kind[c] = CRIT
                value[c] = _CRIT_ORDER[c]
            elif _RANK[c] == schlok:
                kind[c] = BUONO if _SUIT[c] == trumpf else UNO
            elif _SUIT[c] == trumpf:
                kind[c] = TRUMP
                trump_mask |= bit
            if kind[c] in (CRIT, BUONO, UNO):
                exempt_mask |= bit
            if kind[c] in (TRUMP, PLAIN):
                value[c] = plain_rank_value(_RANK[c], ace)
        self.kind = tuple(kind)
        self.value = tuple(value)
        self.trump_mask = trump_mask     # plain trumps: the cards a follower may be forced to play
        self.exempt_mask = exempt_mask   # critici, Il Buono, Uno Buono: never forced, always allowed
        # A4-7 / option trump_lead_triggers: which leads create the obligation.
        triggers = opts["trump_lead_triggers"]
        trigger = 0
        for c in range(_N):
            k = kind[c]
            if k == TRUMP or (k == BUONO and triggers != "plain_only") or (
                    k == CRIT and triggers == "any_trumpf_suit_card" and _SUIT[c] == trumpf):
                trigger |= 1 << c
        self.trigger_mask = trigger
        self.crit_equal = bool(opts["critici_equal"])
        self.uno_last = opts["uno_buono_tie"] == "last_played"
        self.plain_any = bool(opts["plain_any_suit_wins"])

    def strength(self, card: int, pos: int, lead: int) -> int:
        """BT-10.1 strength of ``card`` played at position ``pos`` (0 = lead) as one integer."""
        k = self.kind[card]
        if k == CRIT:
            return 5000 + (3 - pos if self.crit_equal else self.value[card])
        if k == BUONO:
            return 4000
        if k == UNO:
            return 3000 + (pos if self.uno_last else 3 - pos)
        if k == TRUMP:
            return 2000 + self.value[card]
        if self.plain_any:
            return 1000 + self.value[card] * 10 - pos
        if self.kind[lead] == PLAIN and _SUIT[card] == _SUIT[lead]:
            return 1000 + self.value[card]
        return 0

    def winner(self, cards) -> int:
        """The position (0..3) of the winning card of a complete trick (BT-12.5)."""
        lead = cards[0]
        best = -1
        win = 0
        for pos, c in enumerate(cards):
            v = self.strength(c, pos, lead)
            if v > best:
                best, win = v, pos
        return win

    def obliged(self, trick, trick_no: int, opts) -> bool:
        """BT-12.4: whether the follow rule binds the next player of this trick."""
        if not trick or not (1 << trick[0]) & self.trigger_mask:
            return False
        if opts["follow_rule_first_trick_only"] and trick_no != 1:
            return False  # option, A4-8
        if opts["critico_releases_obligation"]:
            for c in trick[1:]:
                if (1 << c) & CRITICI_MASK:
                    return False  # option, A4-9
        return True

    def legal(self, hand: int, trick, trick_no: int, opts) -> int:
        """BT-12.4 legal-card function as a bitmask."""
        if not self.obliged(trick, trick_no, opts):
            return hand
        forced = hand & self.trump_mask
        if not forced:
            return hand  # no plain trump: any card (Il Buono is never forced, A4-6)
        return forced | (hand & self.exempt_mask)
