"""The engine's errors: those of :mod:`stich.errors` (the module below the cards and the engine)."""

from stich.errors import (
    IllegalActionError,
    MalformedActionError,
    OptionError,
    RecordError,
    SetupError,
    StichError,
)

__all__ = ["StichError", "OptionError", "MalformedActionError", "IllegalActionError", "SetupError", "RecordError"]
