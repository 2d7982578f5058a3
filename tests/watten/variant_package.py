"""A Watten variant from a package of its own, written into a temporary directory: what a player who
adds one writes.  The package holds the row (``Variant``, made from a row of the rules file's table), a
game class with the table plus that row, a page companion that names the variant (its title), the
title's translations (``Game.catalogues``), and an entry point (a ``.dist-info`` beside it), so that a
``stich`` process started with the directory on ``PYTHONPATH`` finds the game as an installed one.

:func:`installed` puts such a package on the import path and in the registry for the ``with`` block
and takes it out again (the registry, the catalogues and the import path are global)."""

from __future__ import annotations

import importlib
import sys
from contextlib import contextmanager
from pathlib import Path

import stich.i18n
from stich.engine import registry

#: the title of the test's variant in the pages' languages other than English (the msgid)
TITLES = {"de": "Hausregel: Euregio auf 11", "it": "Regola della casa: Euregio a 11",
          "fr": "Règle de la maison : Euregio en 11"}
TITLE = "House rule: Euregio to 11"

INIT = '''"""Watten with one more row: {doc}"""

from dataclasses import replace
from pathlib import Path

from stich.rulesets.watten import WattenGame
from stich.rulesets.watten.options import VARIANT_TABLE, option_specs

ROW = replace(VARIANT_TABLE["euregio"], name="{variant}", target=11, base="euregio")
TABLE = {{**VARIANT_TABLE, ROW.name: ROW}}


class {cls}(WattenGame):
    name = "{game}"
    variants = tuple(TABLE)
    default_variant = ROW.name
    variant_table = TABLE
    option_specs = option_specs(TABLE)
    companions = {{**WattenGame.companions, "page": {page!r}}}
    catalogues = {catalogues}
'''

#: the page companion: Watten's, with the new variant's title
PAGE = '''"""Watten's page declarations and the new variant's title."""

from stich.engine.narration import N_
from stich.rulesets.watten.page import *  # noqa: F403
from stich.rulesets.watten.page import VARIANTS as _WATTEN

VARIANTS = {{**_WATTEN, {variant!r}: N_({title!r})}}
'''


def po(messages: dict[str, str]) -> str:
    return 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' + "".join(
        f'msgid "{k}"\nmsgstr "{v}"\n\n' for k, v in messages.items())


def write_words(pkg: Path, variant: str, title: str, translations: dict[str, str]) -> None:
    """A page companion ``pkg/page.py`` naming ``variant`` ``title``, and the title's catalogues under
    ``pkg/locale`` (``translations``: lang -> the title there)."""
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").touch()
    (pkg / "page.py").write_text(PAGE.format(variant=variant, title=title), encoding="utf-8")
    for lang, text in translations.items():
        where = pkg / "locale" / lang / "LC_MESSAGES"
        where.mkdir(parents=True)
        (where / f"{pkg.name}.po").write_text(po({title: text}), encoding="utf-8")


def write_package(root: Path, package: str, game: str, *, variant: str = "house", title: str | None = TITLE,
                  translations: dict[str, str] | None = None, cls: str = "HouseWatten") -> str:
    """Write package ``package`` under ``root`` with game ``game`` (a Watten with the row ``variant``);
    ``title``: the variant's title on its page (None: Watten's page, which does not name it);
    ``translations``: lang -> the title there (default :data:`TITLES`; ``{}``: none).  Returns the
    registry target."""
    pkg = root / package
    translations = TITLES if translations is None else translations
    if title:
        write_words(pkg, variant, title, translations)
    pkg.mkdir(parents=True, exist_ok=True)
    page = f"{package}.page" if title else "stich.rulesets.watten.page"
    catalogues = 'str(Path(__file__).parent / "locale")' if title and translations else "None"
    (pkg / "__init__.py").write_text(INIT.format(doc=f"{variant}, Euregio to 11.", variant=variant, cls=cls,
                                                 game=game, page=page, catalogues=catalogues), encoding="utf-8")
    dist = root / f"{package}-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 0.1\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text(f"[{registry.ENTRY_POINT_GROUP}]\n{game} = {package}:{cls}\n",
                                           encoding="utf-8")
    return f"{package}:{cls}"


@contextmanager
def installed(root: Path, package: str, game: str, target: str):
    """``package`` (written under ``root``) importable and its ``game`` registered for the block; yields
    the game class."""
    sys.path.insert(0, str(root))
    importlib.invalidate_caches()
    registry.register(game, target)
    try:
        yield registry.game_class(game)
    finally:
        registry._GAMES.pop(game, None)
        for key in [k for k in registry._COMPANIONS if k[0] == game]:
            del registry._COMPANIONS[key]
        for key in [k for k in registry._MADE if k[0].name == game]:
            del registry._MADE[key]
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            registry._CHECKED.discard(getattr(sys.modules[name], target.split(":")[1], None))
            del sys.modules[name]
        added = root / package / "locale"
        if added in stich.i18n._ADDED:
            stich.i18n._ADDED.remove(added)
            stich.i18n.translator.cache_clear()
        sys.path.remove(str(root))
