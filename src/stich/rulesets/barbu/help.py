"""What each Barbu action means, in words, for ``help ACTION`` at the table (docs/rules/barbu.md)."""

# ruff: noqa: E501  (each text is one literal, the msgid python -m stich.i18n.extract reads)

from stich.engine.narration import N_

HELP = {
    "contract": N_("contract NAME: as the caller, choose one of your seven contracts not yet played: NO_TRICKS (-2 a trick), NO_HEARTS (-2 a heart, -6 the ace), NO_QUEENS (-6 a queen), BARBU (-20 the king of hearts), NO_LAST_TWO (-10 and -20 for the last two tricks), TRUMPS S (+5 a trick) or DOMINO R (lay out from rank R) (rules 1.5, 2)."),
    "double": N_("double SEATS: start a side bet with those seats on this deal's difference between you. In TRUMPS and DOMINO you may double only the caller; you must double each caller at least twice in his seven deals (rules 3.1, 3.2, 3.3)."),
    "redouble": N_("redouble SEATS: answer those who doubled you in this round: your business with them counts twice (rules 3.1, 3.2)."),
    "pass": N_("pass: in the doubling round, double nobody; in DOMINO, no card of yours fits the layout (rules 3.2, 2.8). When it is your only move it plays itself."),
    "play": N_("play CARD: follow suit if you can, else play any card; the highest card of the suit led wins. In TRUMPS a void player must trump, and over-trump a trump already played, if he can; in DOMINO you lay a card next to its neighbour on the layout (rules 2.1, 2.7, 2.8)."),
}

#: the game's own words, as the table and the narration use them
WORDS = {
    "caller": N_("caller: the player who chooses this deal's contract; each is the caller for seven deals, choosing each contract once (rules 1.2, 1.3)."),
    "business": N_("business: the side bet between two players made by a double (x1) or a redouble (x2): after the deal they settle the difference of their scores once more, or twice (rules 3.1, 3.4)."),
    "barbu": N_("Barbu: the king of hearts; in the BARBU contract taking it costs 20 (rules 2.5)."),
    "layout": N_("layout: the DOMINO rows, one per suit, built up and down from the opening rank (rules 2.8)."),
    "businesses": N_("businesses: the side bets of this deal, one per pair of players who doubled (x1) or redoubled (x2) each other; each settles the difference of their scores (rules 3.1, 3.4)."),
    "block": N_("block: a caller's seven deals in a row, one of each contract (rules 1.3)."),
}
