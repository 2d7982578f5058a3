"""What the browser's table needs to know about Battn (the ``"page"`` companion, ``Game.companions``):
the words on its action buttons and what their arguments mean.

Declarations only; ``stich.web.ui.table`` reads them (see its docstring for the names it looks for) and
translates the msgids in the reader's language (this game's catalogue, ``locale/<lang>/LC_MESSAGES/battn.po``).
"""

from __future__ import annotations

from stich.engine.narration import N_

#: the words on the action buttons (English msgids; the Sappada words stay as they are said)
VERBS = {
    "raise": N_("raise"), "accept": N_("accept"), "fold": N_("fold"), "cut": N_("cut"),
    "cut_done": N_("stop cutting"), "orbi": N_("Orbi"), "orbi_pass": N_("no Orbi"),
    "orbi_accept": N_("accept the Orbi"), "orbi_refuse": N_("refuse the Orbi"),
    "scheanara": N_("Scheanara"), "scheanara_pass": N_("no Scheanara"), "scheanara_yes": N_("yes"),
    "scheanara_no": N_("no"), "schlok": N_("Schlòk"), "trumpf": N_("Trumpf"), "x_play": N_("play the X"),
    "x_decline": N_("decline the X"), "misraise": N_("misraise"), "svista": N_("svista"),
}

#: verbs whose argument is a suit / a rank of the deck
SUIT_VERBS = frozenset({"trumpf"})
RANK_VERBS = frozenset({"schlok"})

#: cards dealt to each seat per turn
HAND_SIZE = 5
#: the page says why a trick was won (``text.trick_reason``: the critici, Il Buono, Uno Buono, trump ...)
EXPLAINS_TRICKS = True

#: seats are numbered counter-clockwise (seat k+1 sits at seat k's right: BT-1.4)
SEATING = "counterclockwise"
#: the state rows shown on the felt (the text companion's labels, English msgids)
FELT_ROWS = (N_("Schlòk · Trumpf"), N_("Stake"), N_("Orbi"), N_("X"))
#: the segnapunti: each team's new total under the old ones, the old ones crossed out
SHEET = "segnapunti"
