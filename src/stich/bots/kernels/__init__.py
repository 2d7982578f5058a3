"""Each game's kernel for the fast card-play path (``stich.bots.search.fastplay``), one module per
game, found through the game's ``companions["kernel"]``: a module with ``of(state)``."""
