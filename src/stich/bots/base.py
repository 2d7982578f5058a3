"""The bot interface and the bot registry."""

from __future__ import annotations

import random


class Bot:
    """A player that chooses actions from one seat's view.

    Subclasses implement :meth:`choose`.  ``seed`` makes a bot's choices reproducible:
    two bots of the same class built with the same seed choose the same actions when
    shown the same views in the same order.  ``self.rng`` is a ``random.Random`` seeded
    from it (``None`` = seeded from the system).
    """

    #: the name the bot is registered under (set by :func:`register_bot`)
    name: str = "bot"

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: dict, legal: list[str]) -> str:
        """Return one of ``legal`` (action texts) for the seat whose ``view`` this is.

        ``view`` is the dict from ``state.view(seat)``; it holds only what that seat may
        know.  ``legal`` is never empty when a bot is asked to choose.
        """
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} seed={self.seed!r}>"


_BOTS: dict[str, type[Bot]] = {}


def register_bot(name: str, cls: type[Bot]) -> None:
    """Register a Bot subclass under ``name`` (lower case) for :func:`make_bot`."""
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise TypeError(f"{cls!r} is not a Bot subclass")
    key = name.strip().lower()
    cls.name = key
    _BOTS[key] = cls


def bot_names() -> list[str]:
    """The names of the registered bots."""
    return list(_BOTS)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot by registry name, e.g. ``make_bot("random", seed=3)``.

    Raises ``ValueError`` with the list of known bots for an unknown name.
    """
    key = str(name).strip().lower()
    cls = _BOTS.get(key)
    if cls is None:
        raise ValueError(f"unknown bot {name!r}; bots are: {', '.join(bot_names())}")
    return cls(seed=seed)
