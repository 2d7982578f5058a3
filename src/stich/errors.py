"""The errors stich raises.  All derive from :class:`StichError` (itself a ``ValueError``).

The lowest module of stich: the cards and the engine both raise these (``stich.engine.errors``
re-exports them), so neither imports the other's errors back."""


class StichError(ValueError):
    """Base class of every error stich raises for bad input."""


class OptionError(StichError):
    """An unknown game, variant or option, or a value an option does not take."""


class MalformedActionError(StichError):
    """Text that is not an action of this game at all (unknown verb, unknown card)."""


class IllegalActionError(StichError):
    """A well-formed action that the rules do not allow now (wrong seat, wrong phase, bad card)."""


class SetupError(StichError):
    """An explicit set-up (hands, stock, dealer, scores) that does not describe a valid position."""


class RecordError(StichError):
    """A game record that is malformed or does not replay."""
