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
