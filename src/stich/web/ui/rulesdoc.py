"""The rules pages' documents: a game's players' guide in the reader's language (``docs/guides/<game>.<lang>.md``),
its complete rulebook (``docs/rules/<game>.md``, English) and the project's notes with its project rulings
(``docs/<game>.md``), rendered from the repository's Markdown.

Two things the plain Markdown does not give a page:

* **links that answer**: a link between documents is rewritten to the page that serves its target (the rulebook
  part of ``/rules/<game>``, the notes at ``/rules/<game>/notes``, another language's guide); a link to a document
  no page serves (``engine.md``) keeps its words and loses its link - a reader never follows a link to a 404;
* **anchors per rule**: every heading gets an id (its slug, as GitHub makes them, so the documents' own
  ``#project-rulings`` links land), and every ruling that opens a paragraph or an item (``**R14 — …**``,
  ``* **BT-5.2** …``) gets its number as id (``#R14``); :func:`find` looks a number up for the search field.
"""

from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

#: a ruling's number as the rulebooks write it: R14, R-5, B1.7, E.11, T1.8, BT-5.2, A4-10, PR-W6, BB-3.3, AB18
RULE = r"(?:PR-)?[A-Z]{1,2}[-.]?[A-Z]?\d+(?:[.\-]\d+)*"
_RULE_START = re.compile(r"<(p|li)>(<strong>(" + RULE + r")\b)")
_HEADING = re.compile(r"<(h[1-6])>(.*?)</\1>", re.S)
_HREF = re.compile(r'<a href="([^"]*)">(.*?)</a>', re.S)
#: a heading's number (``2.3 Who wins a trick``, ``2.B1 Bavarian Watten``), searchable as ``§2.3``
_HEADING_NUMBER = re.compile(r"^(\d+(?:\.[0-9A-Z]+)*)\s")


def roots() -> list[Path]:
    """Where the ``docs`` folder is looked for: the working directory, then the repository of this package."""
    return [Path.cwd(), Path(__file__).resolve().parents[4]]


def doc_path(rel: str) -> Path | None:
    """A document under ``docs/`` (``rules/watten.md``) if this installation has it."""
    for root in roots():
        p = root / "docs" / rel
        if p.is_file():
            return p
    return None


def slug(text: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"<[^>]+>", "", html.unescape(text)).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def key(number: str) -> str:
    """A rule number as typed in the search field, for comparing: ``§ 2.3`` -> ``2.3``, ``r14`` -> ``R14``."""
    return re.sub(r"\s+", "", number).lstrip("§").upper()


@dataclass
class Doc:
    """One rendered document: its HTML and the anchors of its numbered headings and rulings (key -> id)."""

    html: str
    anchors: dict[str, str] = field(default_factory=dict)


def target(game: str, rel: str, href: str) -> str | None:
    """Where a link of the document ``rel`` (a path under ``docs/``) leads on the served pages, or None where
    no page serves it."""
    if href.startswith(("http://", "https://", "mailto:")):
        return href
    path, _sep, frag = href.partition("#")
    if not path:
        return href   # an anchor of the same document (its headings have their slugs as ids)
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(rel), path))
    m = re.fullmatch(r"rules/(\w+)\.md", resolved)
    if m:
        return f"/rules/{m.group(1)}#" + (frag or "rulebook")
    m = re.fullmatch(r"guides/(\w+)\.(\w\w)\.md", resolved)
    if m:
        return f"/rules/{m.group(1)}?lang={m.group(2)}"
    m = re.fullmatch(r"(\w+)\.md", resolved)
    if m and doc_path(f"{m.group(1)}.md") and doc_path(f"rules/{m.group(1)}.md"):
        return f"/rules/{m.group(1)}/notes" + (f"#{frag}" if frag else "")
    return None


def render(rel: str, game: str, prefix: str = "", shift: int = 0) -> Doc | None:
    """The document ``rel`` as HTML for the pages, or None if this installation lacks it; its heading ids are
    ``prefix`` + slug (two documents on one page keep their ids apart), its headings ``shift`` levels lower
    (a document shown under the page's own heading)."""
    path = doc_path(rel)
    if path is None:
        return None
    return _render(str(path), path.stat().st_mtime_ns, rel, game, prefix, shift)


@lru_cache(maxsize=64)
def _render(path: str, _mtime: int, rel: str, game: str, prefix: str, shift: int) -> Doc:
    from markdown_it import MarkdownIt
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    body = md.render(Path(path).read_text(encoding="utf-8"))
    anchors: dict[str, str] = {}
    used: set[str] = set()

    def heading(m: re.Match) -> str:
        ident = prefix + slug(m.group(2))
        while ident in used:
            ident += "-1"
        used.add(ident)
        number = _HEADING_NUMBER.match(re.sub(r"<[^>]+>", "", m.group(2)))
        if number:
            anchors.setdefault(key(number.group(1)), ident)
        level = f"h{min(6, int(m.group(1)[1]) + shift)}"
        return f'<{level} id="{ident}">{m.group(2)}</{level}>'

    def ruling(m: re.Match) -> str:
        number = m.group(3)
        if key(number) in anchors or number in used:
            return m.group(0)   # the first place a number opens a ruling is its anchor
        used.add(number)
        anchors[key(number)] = number
        return f'<{m.group(1)} id="{number}">{m.group(2)}'

    def link(m: re.Match) -> str:
        to = target(game, rel, html.unescape(m.group(1)))
        if to is None:
            return m.group(2)   # no page serves it: the words stay, the dead link goes
        return f'<a href="{html.escape(to)}">{m.group(2)}</a>'

    # wide tables and code scroll sideways on a phone: a keyboard reaches them too (axe:
    # scrollable-region-focusable)
    body = body.replace("<pre>", '<pre tabindex="0">').replace("<table>", '<table tabindex="0">')
    body = _HEADING.sub(heading, body)
    body = _RULE_START.sub(ruling, body)
    body = _HREF.sub(link, body)
    return Doc(body, anchors)


def guide(game: str, lang: str) -> tuple[Doc | None, str]:
    """The players' guide in ``lang`` (else in English) and the language it is in."""
    for code in (lang, "en"):
        doc = render(f"guides/{game}.{code}.md", game, prefix="guide-")
        if doc is not None:
            return doc, code
    return None, lang


def rulebook(game: str) -> Doc | None:
    return render(f"rules/{game}.md", game, shift=1)


def notes(game: str) -> Doc | None:
    return render(f"{game}.md", game, prefix="") if doc_path(f"rules/{game}.md") else None


def find(game: str, number: str) -> str | None:
    """The address of the rule ``number`` (``R14``, ``§2.3``, ``PR-W6``): an anchor of the rulebook
    (``#R14``), else of the notes (``/rules/<game>/notes#PR-W6``); None where neither has it."""
    k = key(number)
    if not k:
        return None
    book = rulebook(game)
    if book is not None and k in book.anchors:
        return f"/rules/{game}#{book.anchors[k]}"
    more = notes(game)
    if more is not None and k in more.anchors:
        return f"/rules/{game}/notes#{more.anchors[k]}"
    return None
