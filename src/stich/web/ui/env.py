"""The pages' Jinja2 environment: templates in ``templates/``, autoescaping on, ``_`` for gettext."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2

from stich.i18n import LANG_NAMES, LANGS, translator

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"


class Environment(jinja2.Environment):
    def translator_for(self, lang: str):
        return translator(lang)

    def i18n_globals(self, lang: str) -> dict:
        tr = translator(lang)
        return {"_": tr.gettext, "ngettext": tr.ngettext, "lang": tr.lang, "langs": LANGS, "lang_names": LANG_NAMES}


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                      trim_blocks=True, lstrip_blocks=True)
    env.globals["static_version"] = static_version()
    return env


def static_version() -> str:
    """A short fingerprint of the static files, appended to their URLs so browsers fetch new ones."""
    import hashlib
    h = hashlib.sha256()
    for p in sorted(STATIC.rglob("*")):
        if p.is_file():
            h.update(p.name.encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:10]
