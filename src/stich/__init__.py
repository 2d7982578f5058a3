"""stich: the traditional trick-taking card games of the Alps, Italy and France.

    import stich
    stich.games()                                   # ['watten', 'battn', ...]
    g = stich.game("watten", variant="bavarian_4")  # options validated and frozen
    s = g.new_state(seed=7)
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    s.returns(); s.view(0); stich.replay(s.record())
"""

from stich.engine import (
    Action,
    IllegalActionError,
    MalformedActionError,
    OptionError,
    RecordError,
    SetupError,
    StichError,
    game,
    games,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "Action", "game", "games", "replay",
    "StichError", "OptionError", "MalformedActionError", "IllegalActionError", "SetupError", "RecordError",
    "__version__",
]
