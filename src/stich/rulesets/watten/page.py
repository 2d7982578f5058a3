"""What the browser's table needs to know about Watten (the ``"page"`` companion, ``Game.companions``):
the words on its action buttons, the regional call said next to a verb, what its arguments mean.

Declarations only; ``stich.web.ui.table`` reads them (see its docstring for the names it looks for) and
translates the msgids in the reader's language (this game's catalogue, ``locale/<lang>/LC_MESSAGES/watten.po``).
"""

from __future__ import annotations

from stich.engine.narration import N_

#: the words on the action buttons (English msgids)
VERBS = {
    "raise": N_("raise"), "accept": N_("accept"), "fold": N_("fold"), "cut": N_("cut"), "schlag": N_("Schlag"),
    "trump": N_("trump"), "show": N_("show"), "challenge": N_("challenge (Farbe!)"), "hold": N_("hold"),
    "concede": N_("concede"), "ask_exchange": N_("ask for the Schönere"), "agree_exchange": N_("agree to the Schönere"),
    "refuse_exchange": N_("refuse the Schönere"), "ask_swap": N_("ask for the Schlagtausch"),
    "agree_swap": N_("agree to the Schlagtausch"), "refuse_swap": N_("refuse the Schlagtausch"),
}

#: the regional calls said next to the verb, per variant ("*": every other), untranslated: they are the
#: table's own words (docs/rules/watten.md §2.8: "gehen" raises in Bavaria and Tyrol but gives up in South
#: Tyrol, where one raises by "bieten")
CALLS = {
    "euregio": {"raise": "bieten", "fold": "gehen", "hold": "heben", "concede": "gehen"},
    "*": {"raise": "gehen", "accept": "schauen"},
}

#: verbs whose argument is a suit / a rank of the deck
SUIT_VERBS = frozenset({"trump"})
RANK_VERBS = frozenset({"schlag"})
#: arguments with a name of their own: the Schlag 6 is the Weli's (§1.4)
ARG_WORDS = {("schlag", "6"): "Weli"}

#: cards dealt to each seat per hand (the rest of the pack stays undealt)
HAND_SIZE = 5
#: the page says why a trick was won (``text.trick_reason``: Kritische, Guate, Rechte, Linke, trump ...)
EXPLAINS_TRICKS = True
#: the variants as the pages name them (the engine's names are identifiers: ``bavarian_4``)
VARIANTS = {
    "euregio": N_("Euregio"), "bavarian_4": N_("Bavarian, 4 players"), "bavarian_3": N_("Bavarian, 3 players"),
    "bavarian_2": N_("Bavarian, 2 players"), "tyrolean": N_("Tyrolean"), "guate": N_("Tyrolean with the Guate"),
    "blind": N_("Blind Watten"),
}

#: seats are numbered clockwise (the next seat sits on the left: docs/rules/watten.md §0.3)
SEATING = "clockwise"
#: the state rows shown on the felt (the text companion's labels, English msgids)
FELT_ROWS = (N_("Schlag, trump"), N_("Schlag"), N_("Trump"), N_("Stake"), N_("Decision"))
#: the board: each side's points as strokes, a side's column struck through at the lock (E.10)
SHEET = "strokes"


def struck(game, total: int) -> bool:
    """A side at the lock (target - 2) is gestrichen: its column is struck through (E.10)."""
    return total >= game.lock_at
