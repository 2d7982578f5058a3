"""The rules pages (issue #34): each game's players' guide in the reader's language, then the complete rulebook;
every link on them answers (or is an anchor that exists on its page); a rule number finds its ruling."""

from __future__ import annotations

import html
import re
import urllib.error
import urllib.parse
import urllib.request

import pytest

import stich
from stich.i18n import LANGS


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def fetch(server, path: str, lang: str = "en", follow: bool = True) -> tuple[int, str, object]:
    req = urllib.request.Request(urllib.parse.urljoin(server.base_url, path), headers={"Accept-Language": lang})
    opener = urllib.request.build_opener() if follow else urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(req, timeout=20) as res:
            return res.status, res.read().decode(), res.headers
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(), exc.headers


def ids(page: str) -> set[str]:
    return {html.unescape(i) for i in re.findall(r'\bid="([^"]*)"', page)}


def links(page: str) -> set[str]:
    return {html.unescape(h) for h in re.findall(r'<a\b[^>]*\bhref="([^"]*)"', page)}


@pytest.mark.parametrize("lang", LANGS)
def test_every_link_of_every_rules_page_answers(server, lang):
    pages = [f"/rules/{g}" for g in stich.games()] + [f"/rules/{g}/notes" for g in stich.games()]
    checked: dict[str, set[str]] = {}
    for path in pages:
        status, page, headers = fetch(server, path, lang)
        assert status == 200, path
        assert headers["Content-Language"] == lang
        for href in links(page):
            assert not href.endswith(".md") and ".md#" not in href, (path, href)   # no document path
            where, _sep, frag = href.partition("#")
            if not where:
                assert frag in ids(page), (path, href)
                continue
            if where not in checked:
                status, target, _h = fetch(server, where, lang)
                assert status == 200, (path, href, status)
                checked[where] = ids(target)
            if frag:
                assert frag in checked[where], (path, href)
    assert len(checked) >= 8


def test_the_guide_comes_first_in_the_readers_language_then_the_rulebook(server):
    _s, de, _h = fetch(server, "/rules/watten", "de")
    assert de.index("Watten — Spielanleitung") < de.index('id="rulebook"') < de.index("the rules as stich plays them")
    assert "Das vollständige Regelwerk (auf Englisch)" in de
    _s, it, _h = fetch(server, "/rules/barbu", "it")
    assert 'id="guide"' in it and 'id="rulebook"' in it and 'lang="en"' in it
    # the link the rulebook had to docs/watten.md (a 404) leads to the served notes with the project rulings
    _s, en, _h = fetch(server, "/rules/watten", "en")
    assert 'href="/rules/watten/notes#project-rulings"' in en and 'href="../watten.md' not in en


@pytest.mark.parametrize("game,number,anchor", [
    ("watten", "R14", "/rules/watten#R14"), ("watten", "r14", "/rules/watten#R14"),
    ("watten", "E.6", "/rules/watten#E.6"), ("watten", "§2.3", "/rules/watten#23-who-wins-a-trick"),
    ("watten", "PR-W6", "/rules/watten/notes#PR-W6"), ("battn", "BT-5.2", "/rules/battn#BT-5.2"),
    ("barbu", "R-5", "/rules/barbu#R-5"), ("biscambiggia", "BB-3.3", "/rules/biscambiggia#BB-3.3"),
])
def test_a_rule_number_finds_its_ruling(server, game, number, anchor):
    status, _body, headers = fetch(server, f"/rules/{game}?rule={urllib.parse.quote(number)}", follow=False)
    assert status == 303 and headers["location"] == anchor
    where, _sep, frag = anchor.partition("#")
    _s, page, _h = fetch(server, where)
    # the ruling's own paragraph carries the anchor, and opens with its number
    m = re.search(rf'<(p|li|h\d) id="{re.escape(frag)}">(.*?)</\1>', page, re.S)
    assert m, anchor
    if not frag[0].isdigit():
        assert re.sub(r"<[^>]+>", "", m.group(2)).startswith(frag), m.group(2)[:80]


def test_an_unknown_rule_number_says_so_and_the_search_needs_no_script(server):
    status, page, _h = fetch(server, "/rules/watten?rule=R999", "de")
    assert status == 200 and "Keine Regel „R999“ in diesem Regelwerk." in page
    form = re.search(r'<form class="rule-search[^"]*" method="get" action="/rules/watten".*?</form>', page, re.S)
    assert form and 'name="rule"' in form.group(0) and "<script" not in form.group(0)
