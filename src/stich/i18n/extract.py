"""Collect the marked words of each domain and bring the catalogues up to date.

    python -m stich.i18n.extract          # adds new msgids (empty msgstr) to every catalogue
    python -m stich.i18n.extract --check  # exit 1 listing the msgids a catalogue lacks

Words are marked ``_("...")`` in the templates and ``N_("...")`` / ``_("...")`` in Python.  Each
domain (``DOMAINS``) is a catalogue file per language, fed by the folders it names.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from stich.i18n import LANGS, LOCALE_DIR, read_po

PACKAGE = Path(__file__).resolve().parents[1]
#: the game packages: each is a domain of its own, its catalogues in its package (a game is one package)
GAMES = [p for p in sorted((PACKAGE / "rulesets").iterdir()) if (p / "__init__.py").exists()]
#: domain -> the folders whose marked words it holds: ``stich`` the pages, ``cli`` the terminal's own
#: words and the generic narration both apps tell a match in (``stich.narration``, once the terminal's:
#: its translations stay where they were), and one domain per game package for its narration, help and names
DOMAINS: dict[str, list[Path]] = {
    "stich": [PACKAGE / "web" / "ui"],
    "cli": [PACKAGE / "cli", PACKAGE / "narration"],
    **{p.name: [p] for p in GAMES},
}
#: domain -> the locale directory its catalogues are in: stich's own words beside ``stich.i18n``, a
#: game's in its package (``rulesets/<game>/locale``, its ``Game.catalogues``)
LOCALES: dict[str, Path] = {"stich": LOCALE_DIR, "cli": LOCALE_DIR, **{p.name: p / "locale" for p in GAMES}}


def catalogue_path(lang: str, domain: str = "stich") -> Path:
    """The ``.po`` file of ``domain`` in ``lang``."""
    return LOCALES[domain] / lang / "LC_MESSAGES" / f"{domain}.po"
PATTERN = re.compile(r"""\b(?:N_|_)\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*[,)]""")


def messages(domain: str = "stich") -> list[str]:
    """Every marked msgid in the files of a domain, sorted."""
    found = set()
    for root in DOMAINS[domain]:
        for path in sorted(root.rglob("*")):
            if path.suffix in (".html", ".py") and path.is_file():
                for m in PATTERN.finditer(path.read_text(encoding="utf-8")):
                    text = m.group(1) if m.group(1) is not None else m.group(2)
                    found.add(text.encode().decode("unicode_escape").encode("latin-1").decode("utf-8")
                              if "\\" in text else text)
    return sorted(found)


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def write_po(lang: str, entries: dict[str, str], domain: str = "stich") -> None:
    path = catalogue_path(lang, domain)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"# stich: the words of {domain!r} in {lang}.", 'msgid ""', 'msgstr ""',
             '"Content-Type: text/plain; charset=UTF-8\\n"', f'"Language: {lang}\\n"', ""]
    for msgid in sorted(entries):
        lines += [f"msgid {quote(msgid)}", f"msgstr {quote(entries[msgid])}", ""]
    path.write_text("\n".join(lines), encoding="utf-8")


def existing(lang: str, domain: str) -> dict[str, str]:
    path = catalogue_path(lang, domain)
    return read_po(path) if path.exists() else {}


def missing(lang: str, domain: str = "stich") -> list[str]:
    have = existing(lang, domain)
    return [m for m in messages(domain) if not have.get(m)]


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--check" in argv:
        bad = {(lang, d): missing(lang, d) for d in DOMAINS for lang in LANGS if lang != "en"}
        for (lang, d), ids in bad.items():
            for m in ids:
                print(f"{lang} ({d}): {m}")
        return 1 if any(bad.values()) else 0
    for d in DOMAINS:
        for lang in LANGS:
            have = existing(lang, d)
            write_po(lang, {m: have.get(m, m if lang == "en" else "") for m in messages(d)}, d)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
