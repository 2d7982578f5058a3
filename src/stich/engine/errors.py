"""The errors stich raises.  All derive from :class:`StichError` (itself a ``ValueError``)."""


#: the longest error message; a longer one (it quotes huge input) keeps its start and its end
MAX_MESSAGE = 1000


class StichError(ValueError):
    """Base class of every error stich raises for bad input.

    A message never carries the whole of a huge input: past :data:`MAX_MESSAGE` characters the
    middle is cut (the start names the problem, the end usually lists what is valid)."""

    def __init__(self, message="", *args):
        text = str(message)
        if len(text) > MAX_MESSAGE:
            text = f"{text[:600]} … [{len(text) - 900} characters cut] … {text[-300:]}"
        super().__init__(text, *args)


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
