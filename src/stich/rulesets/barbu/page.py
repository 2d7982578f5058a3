"""What the browser's table needs to know about Barbu (the ``"page"`` companion, ``Game.companions``): the
words on its action buttons, its contracts by their French names, the domino layout and the score sheet.

Declarations only (and two small readers of the view and the events); ``stich.web.ui.table`` reads them (see
its docstring for the names it looks for) and translates the msgids in the reader's language
(``locale/<lang>/LC_MESSAGES/barbu.po``).
"""

# ruff: noqa: E501  (each text is one literal: the msgid python -m stich.i18n.extract reads)

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

#: what a decision means, said on its control (``title``): the contracts and the doubling
HELP = {
    "contract": N_("The contract of this deal: you play each of the seven once in your seven deals as caller."),
    "double": N_("Double: a side bet with that player: the better of you two gains the difference of your scores in this deal, the other loses it (§3)."),
    "redouble": N_("Redouble a player who doubled you: your side bet with him counts twice (§3)."),
    "pass": N_("No double."),
}

#: the options (``game.option_specs``) as the create form and the table name them: option -> (label, what it
#: changes, {value: its word}); yes/no values are the pages' shared words (``stich.web.ui.env``)
OPTION_WORDS = {
    "heart_lead": (N_("Leading hearts"), N_("When a heart may be led in “no hearts” and “no king of hearts”."),
                   {"only_hearts_left": N_("only when you hold nothing else"),
                    "after_broken": N_("once hearts have been played"), "anytime": N_("at any time")}),
    "trumps_must_ruff": (N_("Must trump"), N_("A player void in the suit led must trump when no trump is in the trick."), {}),
    "trumps_must_overtrump": (N_("Must overtrump"), N_("A player must beat the highest trump in the trick if he can."), {}),
    "skip_undoubled_negative": (N_("Undoubled contracts split"), N_("A negative contract nobody doubled is not played: its points are split."), {}),
    "redouble": (N_("Who may redouble"), N_("Who may redouble a player who doubled him."),
                 {"any_doubled_player": N_("any doubled player"), "caller_only": N_("the caller only")}),
    "obligation": (N_("Doubling the caller"), N_("Whether each player must double the caller twice in his seven deals."),
                   {"caller_twice_per_block": N_("twice in his seven deals"), "none": N_("no obligation")}),
    "rotation": (N_("The caller changes"), N_("When the caller changes."),
                 {"block": N_("after his seven deals"), "every_deal": N_("after every deal")}),
    "forced_barbu": (N_("Forced king of hearts"), N_("Who holds the king of hearts must shed it when void in the suit led or after the ace of hearts fell."), {}),
    "domino_ace_replay": (N_("Ace plays again in domino"), N_("Who lays an ace in the domino plays again."), {}),
    "no_hearts_early_end": (N_("“No hearts” ends early"), N_("“No hearts” ends as soon as all 13 hearts are taken (the score is the same)."), {}),
    "dealer_is_caller": (N_("Caller shown as dealer"), N_("Only the display: the caller is shown as the dealer."),
                         {}),
}
