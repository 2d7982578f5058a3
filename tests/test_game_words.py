"""Every game's own words in German, Italian and French: its narration (the terminal's ``describe_event`` and
the browser's ``event_lines``), its table rows, Barbu's contracts and the decks' French card names.

A scripted hand (seeded random play) is told in English and in each language; a line that reads the same as
the English one is an untranslated sentence unless it is made only of names, codes and numbers.  What a
placeholder carries (card codes, numbers) must survive translation.  Card names are left out of the
comparison (the narrator names cards by their codes), so that a translated card name cannot hide an
English sentence.
"""

from __future__ import annotations

import random
import re

import pytest

import stich
from stich.i18n import translator
from stich.narration import Names, describe_event, game_line, game_text
from stich.web.ui import narration
from stich.web.ui.table import seat_label

#: the games and variants whose own events differ (Watten: open, blind, Bavarian Ansage; three players)
GAMES = [("watten", "euregio", 3), ("watten", "tyrolean", 5), ("watten", "bavarian_3", 2), ("watten", "blind", 4),
         ("battn", "standard", 1), ("biscambiggia", "standard", 2), ("barbu", "standard", 3)]
LANGS = ("de", "it", "fr")

#: the tables' own words, the same in every language (and seat words, which the terminal's own domain
#: translates): a line made only of these, codes and numbers needs no translation
SAME_EVERYWHERE = {
    "seat", "seats", "you", "schlag", "schlagtausch", "schönere", "weli", "rechte", "guate", "linke", "kritische",
    "max", "belli", "spitz", "hauptschlag", "blinde", "maschine", "orbi", "scheanara", "schlòk", "trumpf", "il",
    "buono", "uno", "barba", "critico", "critici", "svista", "x", "tre", "quattro", "cinque", "sei", "sette", "otto",
    "barbu", "marche", "ansager", "farbe",
    "base",   # the same word in Italian and French
    "stock",  # the same word in German (Watten and Battn tables say "der Stock")
    "d", "r", "p", "l",   # Battn's roles: dealer, his right, partner, left (BT-2)
}


class CodeNames(Names):
    """A narrator that names cards by their codes only: the sentence around them is what is compared."""

    def card(self, code: str) -> str:
        return str(code)


def words(line: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[^\W\d_]+", line)}


def only_names(line: str, deck) -> bool:
    codes = {c.lower() for c in deck.codes} | {s.lower() for s in deck.suit_codes} | \
        {r.lower() for r in deck.rank_codes}
    return words(line) <= SAME_EVERYWHERE | codes


def carried(line: str, deck) -> tuple[set[str], set[str]]:
    """What placeholders carry into a line: its card codes and its numbers."""
    tokens = re.findall(r"[A-Za-z0-9]+", line)
    return {t for t in tokens if t in deck.codes}, set(re.findall(r"\d+", line))


def scripted_hand(game: str, variant: str, seed: int):
    """A hand played at random (seeded) from the start to its result; the states seen on the way."""
    state = stich.game(game, variant).new_state(seed=seed)
    rng = random.Random(seed)
    states = []
    while not state.is_terminal() and state.hand_number <= 1:
        states.append(state.view(0))
        state.apply(rng.choice(state.legal_actions()))
    return state, states


def assert_translated(pairs, deck, where):
    """``pairs``: (English line, translated line); every line differs unless made only of names and numbers,
    and the card codes and numbers survive."""
    assert pairs, where
    untranslated = [en for en, other in pairs if en == other and not only_names(en, deck)]
    assert not untranslated, (where, untranslated)
    for en, other in pairs:
        assert "%(" not in other and ")s" not in other, (where, other)
        en_codes, en_numbers = carried(en, deck)
        codes, numbers = carried(other, deck)
        assert en_codes == codes, (where, en, other)
        assert en_numbers == numbers, (where, en, other)


@pytest.mark.parametrize("game,variant,seed", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_terminal_tells_a_hand_in_the_readers_language(game, variant, seed, lang):
    state, views = scripted_hand(game, variant, seed)
    g, own = state.game, game_text(state.game)
    en, other = CodeNames(g, "en", 0), CodeNames(g, lang, 0)
    pairs = []
    for ev in state.visible_events(0):
        if ev.get("type") not in own.TELLERS or game_line(ev, en) is NotImplemented:
            continue   # the generic events are the terminal's own words (domain "cli")
        a, b = describe_event(ev, en), describe_event(ev, other)
        if a is not None:
            pairs.append((narration.plain(a), narration.plain(b)))
    for view in views[::3]:   # and the table rows on the way (labels and values)
        for (la, va), (lb, vb) in zip(own.rows(view, en), own.rows(view, other), strict=True):
            pairs += [(narration.plain(la), narration.plain(lb)), (narration.plain(va), narration.plain(vb))]
    assert_translated(pairs, g.deck, (game, variant, lang))


@pytest.mark.parametrize("game,variant,seed", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_browser_tells_a_hand_in_the_readers_language(game, variant, seed, lang):
    state, views = scripted_hand(game, variant, seed)
    g = state.game
    events = state.visible_events(0)

    def lines(code_lang):
        _ = translator(code_lang).gettext
        label = lambda s: seat_label(s, [], 0, _)   # noqa: E731
        names = narration.PageNames(g, code_lang, 0, label)
        names.card = lambda code: str(code)        # cards by code, as above
        names.named = lambda code, name: str(code)   # and suits and ranks (the page says their names alone)
        return [narration.event_lines([ev], names, _, label) for ev in events]

    pairs = [(a, b) for la, lb in zip(lines("en"), lines(lang), strict=True) for a, b in zip(la, lb, strict=True)]
    assert_translated(pairs, g.deck, (game, variant, lang, "browser"))


def test_barbu_contracts_read_in_french_at_the_terminal_and_on_the_page():
    from stich.rulesets.barbu.text import contract_text

    state = stich.game("barbu").new_state(seed=2, first_caller=0)
    fr = Names(state.game, "fr", human=1)
    caller = next(ev for _aud, ev in state.events if ev["type"] == "caller")
    line = describe_event(caller, fr)
    for name in ("pas de plis", "pas de cœurs", "pas de dames", "barbu", "pas les deux derniers", "atout",
                 "réussite"):
        assert name in line
    assert "NO_TRICKS" not in line and "NO_LAST_TWO" not in line
    assert contract_text({"contract": "TRUMPS", "trump": "S"}, fr) == "atout à S (pique)"
    assert contract_text({"contract": "NO_LAST_TWO"}, fr) == "pas les deux derniers"
    # English keeps the codes one types (``contract NO_TRICKS``)
    assert contract_text({"contract": "NO_TRICKS"}, Names(state.game, "en")) == "NO_TRICKS"
    state.apply("contract NO_QUEENS")
    ev = state.events[-1][1]
    assert describe_event(ev, Names(state.game, "fr", human=0)) == "[bold]Vous annoncez pas de dames[/bold]"
    from stich.web.ui import render_table
    from tests.web.browser.test_render import ctx_for
    state = stich.game("barbu").new_state(seed=2, first_caller=0)
    page = render_table(ctx_for(state, 0, "fr"))
    assert "pas de plis" in page and "NO_TRICKS</button>" not in page


@pytest.mark.parametrize("deck,code,name", [
    ("german33", "S6", "Weli (six de grelots)"), ("german33", "EO", "Ober de glands"),
    ("german32", "LA", "as de feuilles"), ("german32", "H7", "sept de cœur"),
    ("sappadine40", "PoK", "Rollate (roi) de cèpes"), ("sappadine40", "St4", "quatre d'edelweiss"),
    ("sappadine40", "Ra7", "sept de râteaux"), ("sappadine40", "ScA", "as de skis"),
    ("genoese40", "DA", "as de carreau"), ("genoese40", "C7", "sept de trèfle"), ("genoese40", "SJ", "valet de pique"),
    ("french52", "SQ", "dame de pique"),
])
def test_every_deck_names_its_cards_in_french(deck, code, name):
    d = stich.cards.deck(deck)
    assert d.long_name(d.parse(code), "fr") == name
    assert all(d.long_name(i, "fr") != d.long_name(i, "en") for i in range(len(d)) if not d.long_name(i, "en")
               .split()[0].isdigit()), deck   # no French name falls back to English


def test_the_browser_modules_know_no_game_by_name():
    """What the pages know of a game is in its package (its "page" and "narration" companions): the code of
    stich.web.ui names no game (docstrings and comments may, as examples)."""
    import ast
    import io
    import tokenize
    from pathlib import Path

    for path in Path(narration.__file__).parent.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        docs = set()
        for node in ast.walk(ast.parse(source)):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                    and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                docs.add(body[0].lineno)
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT or (tok.type == tokenize.STRING and tok.start[0] in docs):
                continue
            assert not re.search(r"(?i)watten|battn|biscambiggia|barbu", tok.string), (path.name, tok.start, tok.string)


def help_entries(module):
    """``(verb or word, text, is_action)`` for every text of a game's help companion: ``HELP``, each
    variant's own texts (``VARIANT_HELP``, or per rule of its row: Watten's ``RULE_HELP``) and ``WORDS``."""
    out = [(verb, text, True) for verb, text in module.HELP.items()]
    for variant in [*getattr(module, "VARIANT_HELP", {}).values(), *getattr(module, "RULE_HELP", {}).values()]:
        out += [(verb, text, True) for verb, text in variant.items()]
    return out + [(word, text, False) for word, text in getattr(module, "WORDS", {}).items()]


@pytest.mark.parametrize("game", ["watten", "battn", "biscambiggia", "barbu"])
@pytest.mark.parametrize("lang", LANGS)
def test_help_texts_are_translated_and_keep_the_command_and_the_rules_cited(game, lang):
    from stich.engine import companion

    tr = translator(lang)
    for key, text, is_action in help_entries(companion(game, "help")):
        other = tr.gettext(text)
        assert other != text, (lang, text)
        if is_action:   # an action's help starts with the command as it is typed, in every language
            assert other.startswith(key), (lang, other)
        cited = re.findall(r"(?:[A-Z]{1,2}-)?[A-Z]?\d+(?:\.\d+)*", text[text.rindex("rules "):])
        assert cited and all(c in other for c in cited), (lang, text, other)
