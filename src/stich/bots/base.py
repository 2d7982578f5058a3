"""The bot interface, thinking budgets and the bot registry."""

from __future__ import annotations

import inspect
import random
import re
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """How long a bot may think per decision: ``seconds`` or ``iterations`` (or neither).

    ``Budget.parse`` reads ``None`` (no budget: the bot's own default), an ``int`` (iterations),
    a ``float`` (seconds), or text: ``"1s"``, ``"0.5s"``, ``"250ms"`` (seconds), ``"800"``,
    ``"800it"`` (iterations).  Search bots read ``self.budget.seconds`` /
    ``self.budget.iterations``; ``deadline()`` and ``done(start, iterations)`` help loops.
    """

    seconds: float | None = None
    iterations: int | None = None

    @classmethod
    def parse(cls, value) -> Budget:
        if value is None or isinstance(value, Budget):
            return value if value is not None else cls()
        if isinstance(value, bool):
            raise ValueError(f"a budget is seconds ('1s', '250ms') or iterations ('800'), not {value!r}")
        if isinstance(value, int):
            return cls._checked(iterations=value)
        if isinstance(value, float):
            return cls._checked(seconds=value)
        text = str(value).strip().lower().replace(" ", "")
        m = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)(ms|s|sec|it|its|iter|iterations)?", text)
        if not m:
            raise ValueError(f"a budget is seconds ('1s', '0.5s', '250ms') or iterations ('800', '800it'), "
                             f"not {value!r}")
        number, unit = m.groups()
        if unit == "ms":
            return cls._checked(seconds=float(number) / 1000)
        if unit in ("s", "sec") or (unit is None and "." in number):
            return cls._checked(seconds=float(number))
        if "." in number:
            raise ValueError(f"iterations are a whole number, not {value!r}")
        return cls._checked(iterations=int(number))

    @classmethod
    def _checked(cls, seconds=None, iterations=None) -> Budget:
        if (seconds is not None and not seconds > 0) or (iterations is not None and iterations < 1):
            raise ValueError("a budget must be positive")
        return cls(seconds=seconds, iterations=iterations)

    def __bool__(self) -> bool:
        return self.seconds is not None or self.iterations is not None

    def __str__(self) -> str:
        if self.seconds is not None:
            return f"{self.seconds:g}s"
        if self.iterations is not None:
            return f"{self.iterations}it"
        return "default"

    def deadline(self, start: float | None = None) -> float | None:
        """``time.perf_counter()`` value at which thinking must stop (None without a time budget)."""
        if self.seconds is None:
            return None
        return (time.perf_counter() if start is None else start) + self.seconds

    def done(self, start: float, iterations: int, default_iterations: int = 1000) -> bool:
        """Whether a search loop begun at ``start`` (perf_counter) with ``iterations`` done must stop."""
        if self.seconds is not None:
            return time.perf_counter() - start >= self.seconds
        return iterations >= (self.iterations if self.iterations is not None else default_iterations)


class Bot:
    """A player that chooses actions from one seat's view.

    Subclasses implement :meth:`choose`.  ``seed`` makes a bot's choices reproducible:
    two bots of the same class built with the same seed choose the same actions when
    shown the same views in the same order.  ``self.rng`` is a ``random.Random`` seeded
    from it (``None`` = seeded from the system).  ``budget`` (a :class:`Budget`, parsed from
    ``"1s"``, ``"250ms"``, ``800``, ...) bounds the thinking per decision; bots without search
    ignore it.

    A table (``stich play``, the arena) builds one bot per seat and match, calls
    :meth:`choose` with a private copy of ``state.view(seat)`` and the legal action texts,
    then :meth:`end` once with the final view and the returns, then :meth:`close`.

    Only a bot class with ``sees_everything = True`` (the ``cheat`` upper bound, always
    labelled as such) is given the full state instead: the table calls
    :meth:`choose_with_state` with a clone of the state.  Every other bot only ever receives
    views; the table enforces it.
    """

    #: the name the bot is registered under (set by :func:`register_bot`)
    name: str = "bot"
    #: True only for bots that cheat by design (they get :meth:`choose_with_state`)
    sees_everything: bool = False
    #: True for bots that answer polls (:class:`stich.engine.Turns`): a seat not on turn that may
    #: act is asked with its actions and ``wait``.  A table answers ``wait`` for the others, which
    #: then act on their own turns only (so do ``sees_everything`` bots, whose
    #: ``choose_with_state`` is always asked for the seat on turn).
    answers_polls: bool = False
    #: True for bots that decide in about a millisecond whatever their budget (no search): a web
    #: server thinks for them in a lane of their own, never behind a search (docs/scaling.md)
    instant: bool = False
    #: the budget of a decision when none is given (an empty Budget: the bot's own number of
    #: iterations); a web server caps a table's bots by it (``stich.web.spec``)
    default_budget: Budget = Budget()

    def __init__(self, seed: int | None = None, budget=None):
        self.seed = seed
        self.rng = random.Random(seed)
        self.budget = Budget.parse(budget)

    @classmethod
    def supports(cls, game: str) -> bool:
        """Whether this bot can play ``game`` (a game name); the default bot choice skips others."""
        return True

    def choose(self, view: dict, legal: list[str]) -> str:
        """Return one of ``legal`` (action texts) for the seat whose ``view`` this is.

        ``view`` is the dict from ``state.view(seat)``; it holds only what that seat may
        know.  ``legal`` is never empty when a bot is asked to choose.
        """
        raise NotImplementedError

    def choose_with_state(self, state, seat: int, legal: list[str]) -> str:
        """For ``sees_everything`` bots only: choose from a clone of the full state."""
        raise NotImplementedError(f"{type(self).__name__} does not see the state; use choose(view, legal)")

    def end(self, view: dict, returns: list[float]) -> None:
        """Called once when the match is over, with the seat's final view and the returns."""

    def close(self) -> None:
        """Release resources (processes, files); called once after the match."""

    def __repr__(self) -> str:
        extra = f" budget={self.budget}" if self.budget else ""
        return f"<{type(self).__name__} {self.name!r} seed={self.seed!r}{extra}>"


_BOTS: dict[str, type[Bot]] = {}
#: bot subpackages/modules of ``stich.bots`` that failed to import: name -> error text
LOAD_ERRORS: dict[str, str] = {}
_loaded = False


def _load_bot_modules() -> None:
    """Import every module of ``stich.bots`` once (heuristic, search, ...) so they register their bots.

    A module that fails to import is skipped (its error is kept in ``LOAD_ERRORS``): a bot under
    construction must not break the tables of the others."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib
    import os
    import pkgutil

    for info in pkgutil.iter_modules([os.path.dirname(__file__)]):   # the modules beside this one
        if info.name in ("base", "random_bot") or info.name.startswith("_"):
            continue
        try:
            importlib.import_module(f"stich.bots.{info.name}")
        except Exception as exc:  # noqa: BLE001 - reported, never fatal
            LOAD_ERRORS[info.name] = f"{type(exc).__name__}: {exc}"

#: the bots ``default_bot_name`` prefers, best first
PREFERRED = ("pimc", "ismcts", "heuristic", "random")
#: the default thinking budget of ``stich play`` and hints: None = each bot's own default, the
#: measured one (``pimc``: 16 worlds per decision, 40-48 in three Watten variants; README figures)
DEFAULT_BUDGET = None


#: bots given as ``PREFIX:ARGUMENT`` (``cmd:PROGRAM``), made by a factory a bot module registers
#: (``stich.bots.external``: outside programs speaking the stich-bot protocol)
PROGRAM_PREFIXES = ("cmd",)
_FACTORIES: dict[str, object] = {}


def register_bot_factory(prefix: str, factory) -> None:
    """Register ``factory(argument, seed=, budget=, **kwargs) -> Bot`` for names ``PREFIX:ARGUMENT``."""
    _FACTORIES[prefix.strip().lower()] = factory


def program_bot(prefix: str, argument: str, **kwargs) -> Bot:
    """The bot a registered factory makes for ``PREFIX:ARGUMENT``."""
    factory = _FACTORIES.get(prefix)
    if factory is None:
        _load_bot_modules()
        factory = _FACTORIES.get(prefix)
    if factory is None:
        raise ValueError(f"no bot factory for {prefix}: ({'; '.join(LOAD_ERRORS.values()) or 'none registered'})")
    return factory(argument, **kwargs)


def register_bot(name: str, cls: type[Bot]) -> None:
    """Register a Bot subclass under ``name`` (lower case) for :func:`make_bot`."""
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise TypeError(f"{cls!r} is not a Bot subclass")
    key = name.strip().lower()
    if not key or key.startswith("cmd:") or "," in key or "@" in key:
        raise ValueError(f"{name!r} cannot be a bot name")
    cls.name = key
    _BOTS[key] = cls


def bot_names() -> list[str]:
    """The names of the registered bots."""
    _load_bot_modules()
    return list(_BOTS)


def bot_class(name: str) -> type[Bot]:
    """The registered class of a bot name; ValueError listing the bots for an unknown one."""
    key = str(name).strip().lower()
    cls = _BOTS.get(key)
    if cls is None:
        _load_bot_modules()
        cls = _BOTS.get(key)
    if cls is None:
        raise ValueError(f"unknown bot {name!r}; bots are: {', '.join(bot_names())} (or cmd:PROGRAM)")
    return cls


def default_bot_name(game: str | None = None) -> str:
    """The best registered bot (first of ``pimc``, ``ismcts``, ``heuristic``, ``random``) for ``game``."""
    _load_bot_modules()
    for name in PREFERRED:
        cls = _BOTS.get(name)
        if cls is None or cls.sees_everything:
            continue
        if game is None or cls.supports(game):   # a supports() that raises is a bug to see, not a "no"
            return name
    return "random"


def make_bot(name: str, seed: int | None = None, budget=None, **kwargs) -> Bot:
    """A new bot by registry name, e.g. ``make_bot("random", seed=3)`` or ``make_bot("ismcts", budget="1s")``.

    ``name`` may also be ``cmd:PROGRAM ARGS`` for an outside program speaking the stich-bot
    protocol (see ``docs/protocol.md``); ``kwargs`` go to its :class:`stich.bots.external.ExternalBot`.
    Raises ``ValueError`` with the list of known bots for an unknown name, and for a bad budget.
    """
    text = str(name).strip()
    prefix, sep, rest = text.partition(":")
    if sep and prefix.strip().lower() in PROGRAM_PREFIXES:
        return program_bot(prefix.strip().lower(), rest.strip(), seed=seed, budget=budget, **kwargs)
    cls = bot_class(text)
    parsed = Budget.parse(budget)
    if not parsed:
        return cls(seed=seed, **kwargs)
    params = inspect.signature(cls.__init__).parameters
    if "budget" in params or any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return cls(seed=seed, budget=parsed, **kwargs)
    bot = cls(seed=seed, **kwargs)  # an older bot that takes no budget
    bot.budget = parsed
    return bot
