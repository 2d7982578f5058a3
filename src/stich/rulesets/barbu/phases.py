"""The phases of a Barbu state (the decision the seat to act faces), in a module of their own
so that the state and the position set-up (position.py) both read them without importing each other."""

DECLARE, DOUBLING, TRICKS, DOMINO, OVER, DEALING = range(6)
PHASE_NAMES = ("declare", "doubling", "tricks", "domino", "over", "deal")
