"""What each Biscambiggia action means, in words, for ``help ACTION`` at the table
(docs/rules/biscambiggia.md)."""

HELP = {
    "bid": "bid N: promise to take at least N of the 120 card points together with your secret partner. The "
           "first bid is at least 61 (the dealer's right must open), each later bid is higher (rules B2.3).",
    "pass": "pass: leave the auction for this hand; the last player left is the caller (rules BB-3.5).",
    "call": "call CARD: as the caller, name any card: its suit is trump for the hand and whoever holds it is "
            "your secret partner (the traditore), known when he plays it. Call one of your own cards to play "
            "alone against four (rules B2.4).",
    "play": "play CARD: play any card, you need not follow suit. The highest trump wins the trick, else the "
            "highest card of the suit led, in the order A 7 K Q J 6 5 4 3 2 (rules B2.5, B1).",
}
