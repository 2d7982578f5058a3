"""The phases of a Biscambiggia state (the decision the seat to act faces), in a module of their own
so that the state and the position set-up (position.py) both read them without importing each other."""

AUCTION, CALL, PLAY, OVER, DEALING = "auction", "call", "play", "over", "deal"
