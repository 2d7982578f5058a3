"""The players' own words as input: Watten's *bieten*, *schauen*, *gehen*, Battn's *rilancio*, Barbu's *contre*,
accepted where they mean one action of the game, refused with the accepted words where they do not."""

import random

import pytest

import stich
from stich.cli.play import resolve_input
from stich.cli.words import REGIONAL, regional_verbs
from stich.narration import Names


def _first(game, pred, seed=7, **kw):
    """The first state of a random-play match of ``game`` where ``pred(legal verbs)`` holds."""
    for s in range(seed, seed + 40):
        state = stich.game(game, **kw).new_state(seed=s)
        rng = random.Random(s)
        while not state.is_terminal():
            if pred({a.verb for a in state.legal_actions()}):
                return state
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no such state")


@pytest.mark.parametrize(("game", "variant", "words"), [
    ("watten", "bavarian_4", {"bieten": "raise", "schauen": "accept", "heben": "accept", "gehen": "fold",
                              "passa": "fold", "rilancio": "raise", "relance": "raise", "tenir": "accept"}),
    ("battn", None, {"rilancio": "raise", "bieten": "raise", "non vado": "accept", "passen": "pass"}),
    ("biscambiggia", None, {"bieten": "bid", "passo": "pass", "passa": "pass", "offro": "bid", "chiamo": "call"}),
    ("barbu", None, {"contre": "double", "kontra": "double", "surcontre": "redouble", "passe": "pass"}),
])
def test_a_regional_word_means_one_action_of_the_game(game, variant, words):
    g = stich.game(game, variant)
    for word, verb in words.items():
        assert regional_verbs(word, g) == [verb], (word, regional_verbs(word, g))


def test_watten_words_are_taken_at_the_prompt():
    state = _first("watten", lambda v: {"play", "raise"} <= v, variant="bavarian_4")
    assert resolve_input("bieten", state).action == "raise"
    assert resolve_input("Bieten", state).action == "raise"
    card = next(a for a in state.legal_actions() if a.verb == "play")
    assert resolve_input(f"spiele {card.arg}", state).action == str(card)     # a verb with its card
    answer = _first("watten", lambda v: {"accept", "fold"} <= v, variant="bavarian_4")
    assert resolve_input("schauen", answer).action == "accept"
    assert resolve_input("gehen", answer).action == "fold"


def test_an_ambiguous_word_is_refused_with_the_accepted_words():
    # in Battn 'passo' may be the poll's pass or giving the turn up (fold): the player must say which
    state = _first("battn", lambda v: v == {"pass", "raise"})
    bad = resolve_input("passo", state, names=Names(state.game, "it"))
    assert bad.kind == "error"
    assert "pass / fold" in bad.message and "battn" in bad.message
    assert "raise (" in bad.message and "rilancio" in bad.message     # what is accepted now, with its words
    assert resolve_input("rilancio", state).action == "raise"
    assert resolve_input("passen", state).action == "pass"


def test_an_unknown_word_lists_the_accepted_words_in_the_readers_language():
    state = _first("watten", lambda v: {"play", "raise"} <= v, variant="bavarian_4")
    before = len(state.history)
    bad = resolve_input("foo", state, names=Names(state.game, "de"))
    assert bad.kind == "error"
    assert bad.message.startswith("'foo' ist keine Aktion von watten. Jetzt möglich: ")
    assert "raise (" in bad.message and "bieten" in bad.message and "play (" in bad.message
    assert len(state.history) == before   # nothing changed


def test_regional_words_do_not_shadow_the_games_verbs_or_cards():
    state = _first("barbu", lambda v: {"double", "pass"} <= v)
    assert resolve_input("pass", state).action == "pass"
    for word in REGIONAL:   # no regional word is a verb of a game (it would hide that verb)
        for game in ("watten", "battn", "biscambiggia", "barbu"):
            assert word not in {a.verb for a in stich.game(game).action_space}, (word, game)
