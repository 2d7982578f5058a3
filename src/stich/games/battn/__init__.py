"""Battn (Plodar Battn, Sappada): rules in /work/shared/rules/battn.md, notation in docs/battn.md."""

from stich.games.battn.cards import display_name
from stich.games.battn.game import BattnGame

__all__ = ["BattnGame", "display_name"]
