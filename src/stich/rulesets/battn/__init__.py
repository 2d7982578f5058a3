"""Battn (Plodar Battn, Sappada): rules in docs/rules/battn.md, notation in docs/battn.md."""

from stich.rulesets.battn.cards import display_name
from stich.rulesets.battn.game import BattnGame

__all__ = ["BattnGame", "display_name"]
