"""The shared machinery of every stich game: actions, options, the Game/State protocol."""

from stich.engine.actions import Action
from stich.engine.core import RECORD_FORMAT, TERMINAL, Game, State
from stich.engine.errors import (
    IllegalActionError,
    MalformedActionError,
    OptionError,
    RecordError,
    SetupError,
    StichError,
)
from stich.engine.options import OptionRule, Options, OptionSpec, only_with, ordered
from stich.engine.registry import (
    check_words,
    companion,
    game,
    game_class,
    games,
    member,
    register,
    replay,
    word_problems,
)
from stich.engine.roles import ROLES, CompanionError, Role
from stich.engine.turns import WAIT, Turns
from stich.engine.views import fold_events

__all__ = [
    "Action", "Game", "State", "TERMINAL", "RECORD_FORMAT", "fold_events",
    "OptionRule", "OptionSpec", "Options", "only_with", "ordered",
    "StichError", "OptionError", "MalformedActionError", "IllegalActionError", "SetupError", "RecordError",
    "companion", "member", "ROLES", "Role", "CompanionError", "check_words", "word_problems",
    "game", "game_class", "games", "register", "replay", "Turns", "WAIT",
]
