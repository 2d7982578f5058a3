"""A Watten variant is a row (issue #33): a package of its own adds one - the row, made from the Euregio
row, and its title in every language (tests/watten/variant_package.py) - and nothing in stich names it.
Its rules text, its regional calls, its narration and its bots follow from the row (or from its base
row, where stich keeps words or tuning per variant); it plays random matches, in the terminal and with
every bot (over the socket: tests/web/test_new_variant.py).  The same row without its words is refused
with a message naming the game, the variant and the missing word."""

from __future__ import annotations

import random

import pytest
from tests.cli.helpers import answer_until_end, check_record, spawn
from tests.watten.variant_package import TITLE, TITLES, installed, write_package

import stich
from stich.arena.table import ask
from stich.bots import bot_class, bot_names, make_bot
from stich.cli.render import action_help, variant_title
from stich.engine import CompanionError, check_words
from stich.i18n import translator
from stich.testing import check_game
from stich.web.ui.table import action_label

GAME, PACKAGE = "watten_house", "house_watten"


@pytest.fixture(scope="module")
def house(tmp_path_factory):
    root = tmp_path_factory.mktemp("house")
    target = write_package(root, PACKAGE, GAME)
    with installed(root, PACKAGE, GAME, target) as cls:
        yield root, cls


def test_the_variant_is_its_row_and_its_words(house):
    g = stich.game(GAME)
    assert g.variant == "house" and g.variant_lineage == ("house", "euregio")
    assert g.options["target"] == 11 and g.options["lock_at"] == 9       # the row's target
    assert g.euregio and g.blind and g.num_players == 4 and len(g.deck) == 33
    assert {k for k in g.options} == {k for k in stich.game("watten", "euregio").options}   # the row's options
    check_words(house[1])
    for lang, title in TITLES.items():
        assert variant_title(g, translator(lang).gettext) == title
    assert variant_title(g) == TITLE


def test_what_is_kept_per_variant_follows_the_row_or_its_base(house):
    g = stich.game(GAME)
    # the rules text of the row's rules (E.5, E.8, E.11), not a text per variant name
    assert "third agreed request" in action_help(g, "ask_exchange")
    assert "only the two Ansager" in action_help(g, "play")
    assert "4 Punkte" in action_help(g, "hold")
    # the regional call is a word of the Euregio table: the base row's
    assert "bieten" in action_label("raise", g, g.variant, str, "en")
    # tuning kept per variant: the variant's own entry, else its base's, else the default
    assert g.by_variant({"euregio": 40}) == 40 and g.by_variant({"house": 7, "euregio": 40}) == 7
    assert g.by_variant({"guate": 48}, 16) == 16
    assert make_bot("pimc", seed=1).default_worlds({"game": GAME, "variant": "house"}) == 16   # Euregio: none


@pytest.mark.parametrize("seed", range(20))
def test_twenty_random_matches_end_and_replay(house, seed):
    state = stich.game(GAME).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert stich.replay(state.record()).record() == state.record()


def test_the_package_passes_the_conformance_kit(house):
    report = check_game(house[1], matches=2, pairwise=False)
    assert report["companions"] >= 6


def test_it_plays_in_the_terminal(house, tmp_path):
    root, _cls = house
    child = spawn(["play", GAME, "--seed", "1", "--bots", "random"], tmp_path, timeout=60, toy=False,
                  path=(str(root),))
    assert answer_until_end(child, lang="de") > 5
    log = child.transcript.getvalue()
    assert TITLES["de"] in log and "Partie vorbei." in log
    rec = check_record(tmp_path / f"stich-{GAME}-1.json")
    assert rec["game"] == GAME and rec["variant"] == "house"


# the game is registered only while the tests run: the bots that play Watten (whose companions it keeps)
@pytest.mark.parametrize("bot", [b for b in bot_names() if bot_class(b).supports("watten")])
def test_every_bot_plays_a_match(house, bot):
    """The bot in every seat, a whole match at the row's own options (the search bots on a small
    budget: what is tested is that each plays the row, not how well)."""
    state = stich.game(GAME).new_state(seed=5)
    players = [make_bot(bot, seed=s, budget=4) for s in range(4)]
    rng = random.Random(5)
    while not state.is_terminal():
        seat = state.current_player
        action, fault = ask(players[seat], state, seat, rng)
        assert fault is None, fault
        state.apply(action)
    assert state.hand_number > 1 and stich.replay(state.record()).is_terminal()


def test_without_its_title_the_variant_is_refused(tmp_path):
    target = write_package(tmp_path, "house_untitled", "watten_untitled", title=None)
    with installed(tmp_path, "house_untitled", "watten_untitled", target) as cls:
        message = "game 'watten_untitled': .*variant 'house' has no title: its 'page' companion's VARIANTS"
        with pytest.raises(CompanionError, match=message):
            check_words(cls)
        with pytest.raises(CompanionError, match=message):
            check_game(cls, matches=1, pairwise=False)
        with pytest.raises(CompanionError, match=message):   # the terminal does not show the identifier
            variant_title(stich.game("watten_untitled"))


def test_without_its_translations_the_variant_is_refused(tmp_path):
    title = "House rule, in English only"
    target = write_package(tmp_path, "house_english", "watten_english", title=title,
                           translations={"de": "Hausregel, nur auf Englisch"})
    with installed(tmp_path, "house_english", "watten_english", target) as cls:
        with pytest.raises(CompanionError, match=f"game 'watten_english': .*variant 'house': its title "
                                                 f"'{title}' is not translated into it, fr"):
            check_words(cls)
