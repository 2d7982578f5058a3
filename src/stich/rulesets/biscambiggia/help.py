"""What each Biscambiggia action means, in words, for ``help ACTION`` at the table
(docs/rules/biscambiggia.md)."""

# ruff: noqa: E501  (each text is one literal, the msgid python -m stich.i18n.extract reads)

from stich.engine.narration import N_

HELP = {
    "bid": N_("bid N: promise to take at least N of the 120 card points together with your secret partner. The first bid is at least 61 (the dealer's right must open), each later bid is higher (rules B2.3)."),
    "pass": N_("pass: leave the auction for this hand; the last player left is the caller (rules BB-3.5)."),
    "call": N_("call CARD: as the caller, name any card: its suit is trump for the hand and whoever holds it is your secret partner (the traditore), known when he plays it. Call one of your own cards to play alone against four (rules B2.4)."),
    "play": N_("play CARD: play any card, you need not follow suit. The highest trump wins the trick, else the highest card of the suit led, in the order A 7 K Q J 6 5 4 3 2 (option ranking = briscola: A 3 K Q J 7 6 5 4 2) (rules B2.5, B1)."),
}

#: the game's own words, as the table and the narration use them (rules B2)
WORDS = {
    "chiamante": N_("chiamante (caller): the winner of the auction, who names the called card (rules B2.3, B2.4)."),
    "traditore": N_("traditore (traitor): the holder of the called card, the caller's secret partner, known when he plays it (rules B2.4)."),
    "marche": N_("marche: the points of the match, moved after each hand between the caller's side and the opponents (rules B2.6)."),
    "card points": N_("card points: A 11, 7 10, K 4, Q 3, J 2, the rest 0: 120 in the deck (rules B1)."),
}
