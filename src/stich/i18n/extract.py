"""Collect the words the pages show and bring the catalogues up to date.

    python -m stich.i18n.extract          # adds new msgids (empty msgstr) to every catalogue
    python -m stich.i18n.extract --check  # exit 1 listing the msgids a catalogue lacks

Words are marked ``_("...")`` in the templates and ``N_("...")`` / ``_("...")`` in the pages' Python.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from stich.i18n import LANGS, catalogue_path, read_po

ROOTS = [Path(__file__).resolve().parents[1] / "web" / "ui"]
PATTERN = re.compile(r"""\b(?:N_|_)\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*[,)]""")


def messages() -> list[str]:
    """Every marked msgid in the templates and the pages' code, sorted."""
    found = set()
    for root in ROOTS:
        for path in sorted(root.rglob("*")):
            if path.suffix in (".html", ".py") and path.is_file():
                for m in PATTERN.finditer(path.read_text(encoding="utf-8")):
                    text = m.group(1) if m.group(1) is not None else m.group(2)
                    found.add(text.encode().decode("unicode_escape").encode("latin-1").decode("utf-8")
                              if "\\" in text else text)
    return sorted(found)


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def write_po(lang: str, entries: dict[str, str]) -> None:
    path = catalogue_path(lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"# stich: the words of the pages in {lang}.", 'msgid ""', 'msgstr ""',
             '"Content-Type: text/plain; charset=UTF-8\\n"', f'"Language: {lang}\\n"', ""]
    for msgid in sorted(entries):
        lines += [f"msgid {quote(msgid)}", f"msgstr {quote(entries[msgid])}", ""]
    path.write_text("\n".join(lines), encoding="utf-8")


def missing(lang: str) -> list[str]:
    have = read_po(catalogue_path(lang)) if catalogue_path(lang).exists() else {}
    return [m for m in messages() if not have.get(m)]


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--check" in argv:
        bad = {lang: missing(lang) for lang in LANGS if lang != "en"}
        for lang, ids in bad.items():
            for m in ids:
                print(f"{lang}: {m}")
        return 1 if any(bad.values()) else 0
    for lang in LANGS:
        have = read_po(catalogue_path(lang)) if catalogue_path(lang).exists() else {}
        write_po(lang, {m: have.get(m, m if lang == "en" else "") for m in messages()})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
