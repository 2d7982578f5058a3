"""What the browser's table needs to know about Biscambiggia chiamata (the ``"page"`` companion,
``Game.companions``): the words on its action buttons.

Declarations only; ``stich.web.ui.table`` reads them (see its docstring for the names it looks for) and
translates the msgids in the reader's language (``locale/<lang>/LC_MESSAGES/biscambiggia.po``).
"""

# ruff: noqa: E501  (each text is one literal: the msgid python -m stich.i18n.extract reads)

from __future__ import annotations

from stich.engine.narration import N_

#: the words on the action buttons (English msgids)
VERBS = {"bid": N_("bid"), "call": N_("call")}

#: the page says why a trick was won (``text.trick_reason``: trump, the highest of the suit led)
EXPLAINS_TRICKS = True

#: seats are numbered counter-clockwise (everything goes to the right: docs/rules/biscambiggia.md)
SEATING = "counterclockwise"
#: the state rows shown on the felt (the text companion's labels, English msgids)
FELT_ROWS = (N_("Auction"), N_("Contract"), N_("Called card"), N_("Caller's partner"))
#: the marche each seat paid or received, hand by hand (BB-6.3)
SHEET = "marks"

#: what a decision means, said on its control (``title``)
HELP = {
    "bid": N_("Bid: the card points (of 120) your side promises to take; the highest bidder calls a card and its holder becomes the secret partner."),
    "pass": N_("Pass: you leave the auction for this hand."),
    "call": N_("Call a card: its holder is your secret partner and its suit is trump."),
}
#: the drop-down lists' labels, where the verb alone says too little
CHOICE_LABELS = {"bid": N_("Bid: card points (of 120)"), "call": N_("Call a card (its suit is trump)")}

#: the options (``game.option_specs``) as the create form and the table name them: option -> (label, what it
#: changes, {value: its word}); yes/no values are the pages' shared words (``stich.web.ui.env``)
OPTION_WORDS = {
    "ranking": (N_("Card order"), N_("The order and points of the cards."),
                {"biscambiggia": N_("Biscambiggia: Ace, 7, King, Queen, Jack, 6 … 2"),
                 "briscola": N_("Briscola: Ace, 3, King, Queen, Jack, 7 … 2")}),
    "follow_suit": (N_("Follow suit"), N_("A player holding a card of the suit led must play one."), {}),
    "opening_bid_compulsory": (N_("Opening bid compulsory"),
                               N_("The player at the dealer's right must open; off: he may pass, and if all five pass the deal is thrown in."), {}),
    "min_opening_bid": (N_("Lowest opening bid"), N_("The lowest first bid."), {}),
    "max_bid": (N_("Highest bid"), N_("The highest bid."), {}),
    "allow_call_own_card": (N_("Call your own card"), N_("The caller may call a card he holds and play alone."),
                            {}),
    "cappotto_double": (N_("Cappotto counts double"), N_("Every mark counts twice when one side takes all 120 card points."), {}),
    "hands_per_match": (N_("Hands in a match"), N_("How many hands a match lasts."), {}),
    "tie_break": (N_("Tie at the end"), N_("What happens while the top total is tied."),
                  {"shared": N_("the win is shared"), "extra_rounds": N_("further rounds of 5 hands")}),
    "piles_inspectable": (N_("Captured piles open"), N_("Everybody may look at each player's captured cards."),
                          {}),
}
