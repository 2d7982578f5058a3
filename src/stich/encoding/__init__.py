"""Fixed-size numeric observations and legal-action masks for every stich game.

Everything here is built from ``state.view(seat)`` only (the fold of the events the seat may
see), so an observation cannot leak hidden information.  The vector's length depends only on the
game, its variant and its options; masks are over ``game.action_space`` (fixed order).

>>> import stich, stich.encoding as enc
>>> g = stich.game("watten", variant="bavarian_3")    # (an example game)
>>> s = g.new_state(seed=1)
>>> x = enc.encode(s.view(s.current_player), g)        # np.float32, len == enc.observation_size(g)
>>> m = enc.action_mask(s, g)                          # np.int8, len == len(g.action_space)

The layout of each game is documented in docs/research.md (``enc.layout(g).table()`` prints it).
"""

from __future__ import annotations

import numpy as np

from stich.engine import companion
from stich.roles.encoding import Layout, action_mask

__all__ = ["action_mask", "encode", "encoder", "layout", "observation", "observation_size"]


def encoder(game):
    """The encoder module of a game (``observation_size``, ``encode``, ``layout``): its
    ``"encoder"`` companion (``Game.companions``)."""
    mod = companion(game, "encoder")
    if mod is None:
        raise ValueError(f"no observation encoder for game {game.name!r}")
    return mod


def layout(game) -> Layout:
    return encoder(game).layout(game)


def observation_size(game) -> int:
    return encoder(game).observation_size(game)


def encode(view: dict, game) -> np.ndarray:
    return encoder(game).encode(view, game)


def observation(state, seat: int) -> np.ndarray:
    """``encode(state.view(seat), state.game)``."""
    return encode(state.view(seat), state.game)
