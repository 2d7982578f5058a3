"""Barbu: four players, seven contracts each, doubling, a 28-deal match (``rules/barbu.md``)."""

from stich.rulesets.barbu.game import BarbuGame
from stich.rulesets.barbu.state import BarbuState

__all__ = ["BarbuGame", "BarbuState"]
