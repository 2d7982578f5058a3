"""The catalogues: every word the pages mark is translated in de, it and fr; languages are negotiated."""

from __future__ import annotations

from stich.i18n import LANGS, negotiate, translator
from stich.i18n.extract import DOMAINS, messages, missing


def test_every_marked_word_is_in_every_catalogue():
    assert len(messages()) > 100
    for domain in DOMAINS:
        for lang in LANGS:
            assert missing(lang, domain) == [], (lang, domain)


def test_placeholders_survive_translation():
    import re
    for lang in LANGS:
        tr = translator(lang)
        for m in (m for d in DOMAINS for m in messages(d)):
            assert sorted(re.findall(r"%\(\w+\)s", m)) == sorted(re.findall(r"%\(\w+\)s", tr.gettext(m))), (lang, m)


def test_accept_language_negotiation():
    assert negotiate("it-IT,it;q=0.9,en;q=0.5") == "it"
    assert negotiate("es-ES,fr;q=0.8,de;q=0.9") == "de"
    assert negotiate("pt-BR") == "en"
    assert negotiate(None) == "en"
    assert translator("fr").gettext("Your turn.") == "À vous de jouer."
    assert translator("xx").gettext("Your turn.") == "Your turn."
