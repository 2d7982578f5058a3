"""The ``heuristic`` bot: a sensible club player for every stich game.

``HeuristicBot`` dispatches on ``view["game"]`` to the game's ``"heuristic"`` companion
(``Game.companions``: a module with ``choose(view, legal, rng)``; each module's docstring describes
its strategy).  It sees only the
seat's view and the legal action texts, uses ``self.rng`` only to break ties (same seed, same
choices), and always returns one of ``legal``: where the game's heuristic raises or chooses no
legal action it plays the first legal action, a fallback that is counted and logged
(:mod:`stich.bots.fallbacks`; under tests it raises).  A game that declares no heuristic
(``"heuristic": None``) gets the first legal action, by declaration.  Importing this package
registers the bot as ``heuristic``.
"""

from __future__ import annotations

from stich.bots import fallbacks
from stich.bots.base import Bot, register_bot
from stich.bots.heuristic import raising
from stich.engine import companion


def _player(game: str | None):
    """The game's heuristic ``choose(view, legal, rng)``, or None."""
    mod = companion(game, "heuristic") if isinstance(game, str) else None
    return None if mod is None else mod.choose


class HeuristicBot(Bot):
    """Rule-of-thumb play for every game with a heuristic companion (see ``docs/bots.md``)."""

    instant = True   # at most ~9 ms a decision, p99 under 1 ms in every game (measured 2026-11-28)

    @classmethod
    def supports(cls, game: str) -> bool:
        return _player(game) is not None

    def choose(self, view: dict, legal: list[str]) -> str:
        if not legal:
            raise ValueError("HeuristicBot.choose: there is no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        player = _player(view.get("game"))
        if player is None:
            return legal[0]
        try:
            bet, legal = raising.choose(view, legal)   # raise / accept / fold by the bet arithmetic
            if bet is not None:
                return bet
            action = player(view, legal, self.rng)
        except Exception as exc:  # noqa: BLE001 - a bot must never crash a match: counted, raised in tests
            fallbacks.fell_back("heuristic", exc)
            return legal[0]
        if action not in legal:
            fallbacks.fell_back("heuristic", AssertionError(f"{view.get('game')} heuristic chose {action!r}, "
                                                            f"not in {legal}"))
            return legal[0]
        return action


class ClassicHeuristicBot(HeuristicBot):
    """The heuristic with the fixed raising thresholds of before (raise from 3.2 expected tricks,
    accept from 1.8): kept to measure the new raising against."""

    def choose(self, view: dict, legal: list[str]) -> str:
        token = raising.CLASSIC.set(True)
        try:
            return super().choose(view, legal)
        finally:
            raising.CLASSIC.reset(token)


register_bot("heuristic", HeuristicBot)
register_bot("heuristic-classic", ClassicHeuristicBot)

__all__ = ["ClassicHeuristicBot", "HeuristicBot"]
