"""Help texts that name games, written from the game registry when the help is shown.

An outside game package (``examples/stich-trio``) adds a game through an entry point alone, so a help
text that lists games by hand would leave it out: the games, their default languages and the search
worlds they declare come from ``stich.games()`` and each game's own declarations instead.  They are
written when ``--help`` is shown, not when the command line is built: reading every installed
package's entry points and importing each game is not for ``stich play watten`` to pay.
"""

from __future__ import annotations

import click


class RegistryHelpOption(click.Option):
    """A click option whose help is ``help_from()``, called when the help is shown."""

    def __init__(self, *args, help_from, **kwargs):
        super().__init__(*args, **kwargs)
        self.help_from = help_from

    def get_help_record(self, ctx):
        self.help = self.help_from()
        return super().get_help_record(ctx)


def and_list(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def language_defaults() -> str:
    """``de for watten, it for battn and biscambiggia, fr for barbu``: each game's default language
    (``Game.default_language``), the games grouped by it in the registry's order."""
    from stich.engine import game_class, games

    by_lang: dict[str, list[str]] = {}
    for name in games():
        by_lang.setdefault(game_class(name).default_language, []).append(name)
    return ", ".join(f"{lang} for {and_list(names)}" for lang, names in by_lang.items())


def search_worlds() -> str:
    """``pimc: 16 sampled worlds, 40-48 in watten's guate, tyrolean and bavarian_2``: the pimc bot's
    default and the variants whose game declares more (``SEARCH_WORLDS`` in its ``"bets"``
    companion; a game-wide number under None is the whole game's)."""
    from stich.bots import bot_class
    from stich.bots.bets import declared
    from stich.engine import games

    parts = [f"{bot_class('pimc').default_iterations} sampled worlds"]
    for name in games():
        declared_worlds = declared(name).search_worlds
        if not declared_worlds:
            continue
        low, high = min(declared_worlds.values()), max(declared_worlds.values())
        count = str(low) if low == high else f"{low}-{high}"
        variants = [v for v in declared_worlds if v is not None]
        where = name if None in declared_worlds else f"{name}'s {and_list(variants)}"
        parts.append(f"{count} in {where}")
    return "pimc: " + ", ".join(parts)


def raise_poll_games() -> str:
    """``battn``: the games that poll a seat to raise or pass during play (their ``"bets"`` companion
    declares ``POLL_PASS``), or ``no installed game``."""
    from stich.bots.bets import declared
    from stich.engine import games

    polling = [name for name in games() if declared(name).poll_pass is not None]
    return and_list(polling) if polling else "no installed game"
