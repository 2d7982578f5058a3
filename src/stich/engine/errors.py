"""The engine's errors: those of :mod:`stich.errors` (the module below the cards and the engine)."""

from stich.errors import (
    MAX_MESSAGE,
    IllegalActionError,
    MalformedActionError,
    OptionError,
    RecordError,
    SetupError,
    StichError,
)

__all__ = [
    "MAX_MESSAGE", "StichError", "OptionError", "MalformedActionError", "IllegalActionError", "SetupError",
    "RecordError",
]
