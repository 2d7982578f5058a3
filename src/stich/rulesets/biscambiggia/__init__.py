"""Biscambiggia chiamata (Liguria, 5 players): ``stich.game("biscambiggia")``.

Rules: ``rules/biscambiggia.md``; notation, seat convention and project rulings:
``docs/biscambiggia.md``.
"""

from stich.rulesets.biscambiggia.game import BiscambiggiaGame
from stich.rulesets.biscambiggia.state import BiscambiggiaState

__all__ = ["BiscambiggiaGame", "BiscambiggiaState"]
