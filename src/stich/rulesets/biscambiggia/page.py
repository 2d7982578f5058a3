"""What the browser's table needs to know about Biscambiggia chiamata (the ``"page"`` companion,
``Game.companions``): the words on its action buttons.

Declarations only; ``stich.web.ui.table`` reads them (see its docstring for the names it looks for) and
translates the msgids in the reader's language (``locale/<lang>/LC_MESSAGES/biscambiggia.po``).
"""

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
