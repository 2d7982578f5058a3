"""Watten, in the seven variants of the rules file ``watten.md`` (§2.V).

``stich.game("watten", variant=...)`` with variant ``euregio`` (default), ``bavarian_4``,
``bavarian_3``, ``bavarian_2``, ``tyrolean``, ``guate`` or ``blind``; the options are those of
the rules file's §2.W.  See ``docs/watten.md`` for the action notation and project rulings.
"""

from stich.rulesets.watten.game import WattenGame
from stich.rulesets.watten.state import WattenState

WattenGame.state_class = WattenState

__all__ = ["WattenGame", "WattenState"]
