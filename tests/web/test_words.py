"""Words, not identifiers (issue #34): nothing a person reads on the pages is an engine identifier.

The pages are read as a person reads them - the text of the page with the card faces' corner indexes and the
code the rule documents quote (``<code>``) left out - in every language, and must hold no ``snake_case`` word,
no ``UPPER_CASE`` word and no bare card or suit code in a control's words (``L`` for Laub, ``NO_TRICKS``,
``only_hearts_left``).  The tables are read at many moments of every game and variant, for every seat, so
each game's own decisions (the Ansage, the cut, the Schönere, Orbi, the auction, the contract, the doubles)
come up; the other pages from a real server.  The controls' explanations (``title``) are read too.
"""

from __future__ import annotations

import html
import random
import re
import urllib.request

import pytest

import stich
from stich.i18n import LANGS
from stich.web.ui import render_table
from tests.web.browser.test_render import ctx_for

SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
UPPER = re.compile(r"\b[A-Z]{2,}_[A-Z_]+\b")
#: what a person reads in a control: buttons, list entries, labels, legends, the state rows
CONTROLS = re.compile(r"<(button|option|label|legend|dt|dd|summary)\b[^>]*>(.*?)</\1>", re.S)
GAMES = [("watten", v) for v in stich.game("watten").variants] + \
    [("battn", "standard"), ("biscambiggia", "standard"), ("barbu", "standard")]


def readable(page: str) -> str:
    """The words of an HTML page a person reads: no script, no card corner index, no quoted code; the
    explanations in ``title`` and ``placeholder`` attributes are read as words too."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r'<span class="ix[^"]*">[^<]*</span>', " ", page)
    page = re.sub(r"<code\b[^>]*>.*?</code>", " ", page, flags=re.S)
    said = " ".join(html.unescape(t) for t in re.findall(r'\b(?:title|placeholder|aria-label)="([^"]*)"', page))
    return html.unescape(re.sub(r"<[^>]+>", " ", page)) + " " + said


def identifiers(text: str) -> list[str]:
    return SNAKE.findall(text) + UPPER.findall(text)


def bare_codes(page: str, game) -> list[str]:
    """Suit and card codes standing alone as a word in a control's words (``trump: L``, ``Trump L (Leaves)``)."""
    codes = set(game.deck.suit_codes) | set(game.deck.codes)
    found = []
    for _tag, inner in CONTROLS.findall(page):
        words = readable(inner)
        found += [w for w in re.findall(r"(?<![\w'’-])[A-Za-z]+\d*(?![\w'’-])", words) if w in codes]
    return found


@pytest.mark.parametrize("game,variant", GAMES)
def test_a_table_says_words_at_every_moment_in_every_language(game, variant):
    g = stich.game(game, variant)
    rng = random.Random(f"words/{game}/{variant}")
    moments = seen = 0
    kinds = set()
    for _deal in range(2):
        state = g.new_state(seed=rng.randrange(1 << 30))
        for step in range(400):
            if state.is_terminal():
                break
            lang = LANGS[step % len(LANGS)]
            for seat in {state.current_player, step % g.num_players}:
                # every kind of moment in every language is read (the seat's decision, the phase, the
                # latest event), and one in three of the others: rendering a page was all of the
                # test's time, and most moments repeat a kind already read (the next card of a trick)
                verbs = frozenset(str(a).split()[0] for a in state.legal_actions(seat)) if seat is not None else ()
                kind = (lang, seat == state.current_player, verbs, getattr(state, "phase", None),
                        state.events[-1][1]["type"] if state.events else None)
                seen += 1
                if kind in kinds and seen % 3:
                    continue
                kinds.add(kind)
                page = render_table(ctx_for(state, seat, lang))
                text = readable(page)
                assert not identifiers(text), (game, variant, lang, step, identifiers(text))
                assert not bare_codes(page, g), (game, variant, lang, step, bare_codes(page, g))
                moments += 1
            state.apply(rng.choice(state.legal_actions()))
    assert moments > 50


def test_the_ansage_names_schlag_and_trump_with_the_card_shown():
    """Watten's blind Ansage: each Ansager's buttons say what the card names by his role, then the card."""
    state = stich.game("watten", "euregio").new_state(seed=11)
    state.apply(next(a for a in state.legal_actions() if a.verb == "cut"))
    schlag = state.current_player
    page = render_table(ctx_for(state, schlag, "de"))
    card = next(str(a).split()[1] for a in state.legal_actions() if a.verb == "show")
    deck = state.game.deck
    rank = "Weli" if card == "S6" else deck.rank_names["de"][deck.rank(deck.parse(card))]
    label = f"Schlag: {rank} (gezeigt mit {deck.long_name(deck.parse(card), 'de')})"
    assert label in html.unescape(page), label
    assert "show:" not in page and "zeigen:" not in page
    # the Schönere and the Schlagtausch say what they do, on the control itself
    assert re.search(r'data-action="ask_exchange" title="Schönere: [^"]+"', page)
    assert re.search(r'data-action="ask_swap" title="Schlagtausch: [^"]+"', page)


def test_a_non_ansager_is_told_why_his_cards_are_not_shown():
    """Euregio R30: the two who are not Ansager are dealt five cards and look at them after the Ansage; the
    page says so instead of "No cards in hand." beside "cards: 5"."""
    state = stich.game("watten", "euregio").new_state(seed=5)
    state.apply(next(a for a in state.legal_actions() if a.verb == "cut"))
    ansager = {state.view(None)["schlag_seat"], state.view(None)["trump_seat"]}
    other = next(s for s in range(4) if s not in ansager)
    assert state.view(other)["hand"] == []
    page = html.unescape(render_table(ctx_for(state, other, "en")))
    assert "No cards in hand." not in page
    assert "Your five cards lie face down: you look at them when the Ansage is over (rules §2.4)." in page
    once_played = state.clone()
    while not once_played.view(other)["hand"]:
        once_played.apply(once_played.legal_actions()[-1])
    assert "lie face down" not in render_table(ctx_for(once_played, other, "en"))


def get(server, path: str, lang: str) -> str:
    req = urllib.request.Request(server.base_url + path, headers={"Accept-Language": lang})
    with urllib.request.urlopen(req, timeout=20) as res:
        return res.read().decode()


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_says_words_in_every_language(server, lang):
    paths = ["/", "/lobby", "/replay", "/me", "/leaderboard", "/clubs"] + [f"/rules/{g}" for g in stich.games()] + \
        [f"/tournaments/new?play={g}/{stich.game(g).default_variant}" for g in stich.games()]   # a director's form
    for path in paths:
        page = get(server, path, lang)
        text = readable(page)
        assert not identifiers(text), (lang, path, identifiers(text))
    home = get(server, "/", lang)
    # every option of every game by its words, with its explanation: none by its name or its value
    for name in stich.games():
        for spec in stich.game(name).option_specs:
            assert f'data-option="{spec.name}"' in home
            if lang != "en" and spec.values is not int and len(spec.values) > 1:
                shown = re.search(rf'<select id="o-{name}-{spec.name}".*?</select>', home, re.S).group(0)
                words = re.findall(r'<option value="[^"]+">([^<]*)</option>', shown)
                assert all(w not in {str(v) for v in spec.values} or w.isdigit() for w in words), (name, words)


def test_option_words_are_complete_and_refused_when_missing():
    from stich.web.ui.env import option_words
    for name in stich.games():
        words = option_words(name)
        assert set(words) == {s.name for s in stich.game(name).option_specs}
    barbu = option_words("barbu")["heart_lead"]
    assert barbu["values"]["only_hearts_left"] == "only when you hold nothing else"


@pytest.mark.parametrize("lang,label,value", [("de", "Herz ausspielen", "jederzeit"),
                                              ("fr", "Entamer à cœur", "à tout moment"),
                                              ("en", "Leading hearts", "at any time")])
def test_the_tables_own_rules_are_in_its_details_in_words(lang, label, value):
    state = stich.game("barbu", "standard", heart_lead="anytime").new_state(seed=1)
    page = html.unescape(render_table(ctx_for(state, 0, lang)))
    details = re.search(r'<details class="more" id="details">.*?</details>', page, re.S).group(0)
    assert f"<dt>{label}</dt><dd>{value}</dd>" in details
    assert "anytime" not in readable(page) and "heart_lead" not in readable(page)
    plain = html.unescape(render_table(ctx_for(stich.game("barbu").new_state(seed=1), 0, lang)))
    assert label not in plain   # the variant's own rules are not repeated
