"""What the browser's table needs to know about Barbu (the ``"page"`` companion, ``Game.companions``): the
words on its action buttons, its contracts by their French names, the domino layout and the score sheet.

Declarations only (and two small readers of the view and the events); ``stich.web.ui.table`` reads them (see
its docstring for the names it looks for) and translates the msgids in the reader's language
(``locale/<lang>/LC_MESSAGES/barbu.po``).
"""

from __future__ import annotations

from stich.engine.narration import N_

#: the words on the action buttons (English msgids)
VERBS = {"contract": N_("contract"), "double": N_("double"), "redouble": N_("redouble")}

#: the contracts as the buttons and the score sheet name them: their French table names (docs/rules/barbu.md)
CONTRACTS = {"NO_TRICKS": N_("no tricks (pas de plis)"), "NO_HEARTS": N_("no hearts (pas de cœurs)"),
             "NO_QUEENS": N_("no queens (pas de dames)"), "BARBU": N_("no king of hearts (barbu)"),
             "NO_LAST_TWO": N_("not the last two (pas les deux derniers)"), "TRUMPS": N_("trumps (atout)"),
             "DOMINO": N_("domino (réussite)")}
#: verbs whose first argument is a name of its own (a button group each), and what a second argument is
NAMED_ARGS = {"contract": CONTRACTS}
EXTRA_ARG = {"TRUMPS": "suit", "DOMINO": "rank"}
#: verbs whose argument lists seats by number (``double 2,3``)
SEAT_VERBS = frozenset({"double", "redouble"})

#: the page says why a trick was won (``text.trick_reason``: trump, the highest of the suit led)
EXPLAINS_TRICKS = True
#: deals in a match per player (each is the caller for seven, one of each contract: rules 1.3)
DEALS_PER_PLAYER = 7


def counts_unknown(view: dict) -> bool:
    """In DOMINO the cards left in each hand do not follow from the tricks (rules 2.8)."""
    return view.get("contract") == "DOMINO"


def layout(view: dict) -> dict | None:
    """The domino layout, ``{suit: [lowest, highest] | None}``, while DOMINO is played."""
    layout = view.get("layout")
    return layout if isinstance(layout, dict) else None


def sheet_rows(events: list[dict]) -> list[dict]:
    """The score sheet: one row per scored deal (``hand``, ``caller``, ``contract`` code, ``final`` points)."""
    return [ev for ev in events if ev.get("type") == "deal_result" and isinstance(ev.get("final"), list)]
#: verbs whose argument is a set of seats, combined in one action (``double 2,4 redouble 3``): the page
#: offers them as one check box per seat and an OK when there are many combinations
SEAT_SET_VERBS = ("double", "redouble")

#: seats are numbered clockwise (left(p) = p+1: docs/rules/barbu.md)
SEATING = "clockwise"
#: the state rows shown on the felt (the text companion's labels, English msgids)
FELT_ROWS = (N_("Caller"), N_("Contract"))
#: the 28-deal sheet: caller, contract and each seat's points
SHEET = "deals"
