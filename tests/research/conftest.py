from __future__ import annotations

import stich
import stich.engine

GAMES = [name for name in stich.engine.games() if name in ("watten", "battn", "biscambiggia", "barbu")]
VARIANTS = [(name, v) for name in GAMES for v in type(stich.game(name)).variants]
