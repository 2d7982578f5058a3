"""A Watten variant is one row of the variant table (rules §2.V).  Kritisch-Watten with a Guate
(R5(d): out of scope for stich, some online rooms play it) is defined here, in a test only: the
Bavarian row with ``guate=True`` plus the ranking switch (a Guate that coincides with a Kritische
stays a Kritische), and it passes the conformance kit.  Its words (the title the pages show, in every
language) come from a package written for the test (tests/watten/variant_package.py)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from tests.watten.variant_package import installed, write_words

import stich
from stich.rulesets.watten import WattenGame
from stich.rulesets.watten.options import VARIANT_TABLE, option_specs
from stich.rulesets.watten.ranking import GUATE, KRITISCHE, TRUMP, build_ranking, guate_rank
from stich.testing import check_game

ROW = replace(VARIANT_TABLE["bavarian_4"], name="kritisch_guate", guate=True)
TABLE = {**VARIANT_TABLE, ROW.name: ROW}


class KritischGuateWatten(WattenGame):
    """Watten with one more table row."""

    name = "watten_kritisch_guate"
    variants = tuple(TABLE)
    default_variant = ROW.name
    variant_table = TABLE
    option_specs = option_specs(TABLE)
    companions = {**WattenGame.companions, "page": "kritisch_guate_words.page"}

    def ranking(self, schlag: int, trump: int):
        """The ranking switch: the Bavarian ranking, and the Guate above the Rechte where the row has one."""
        r = self._rankings.get((schlag, trump))
        if r is None:
            r = build_ranking(self.deck, self.family, schlag, trump)
            rank = guate_rank(schlag)
            card = self.deck.find(trump, rank) if self.row.guate and rank is not None else None
            if card is not None and card not in self.kritische:
                key = list(r.key)
                key[card] = GUATE * 16
                r = replace(r, key=tuple(key), guate=1 << card)
            self._rankings[(schlag, trump)] = r
        return r


TITLES = {"de": "Bayerisch mit dem Guaten", "it": "Bavarese con il Guate", "fr": "Bavarois avec le Guate"}


@pytest.fixture(scope="module", autouse=True)
def kritisch_guate_registered(tmp_path_factory):
    root = tmp_path_factory.mktemp("kritisch_guate")
    write_words(root / "kritisch_guate_words", ROW.name, "Bavarian with the Guate", TITLES)
    KritischGuateWatten.catalogues = str(root / "kritisch_guate_words" / "locale")
    with installed(root, "kritisch_guate_words", KritischGuateWatten.name, f"{__name__}:KritischGuateWatten"):
        yield KritischGuateWatten.name


def test_the_new_variant_is_the_row_and_nothing_else_changed():
    g = stich.game(KritischGuateWatten.name)
    assert g.variant == "kritisch_guate" and g.num_players == 4 and g.bavarian and len(g.deck) == 32
    assert g.options["target"] == 11 and g.options["maschine"] == "off"     # the Bavarian row's defaults
    for name in VARIANT_TABLE:   # the table's own variants are untouched
        assert stich.game(KritischGuateWatten.name, name).ranking(5, 0) == stich.game("watten", name).ranking(5, 0)


def test_the_guate_beats_the_rechte_and_loses_to_the_kritische():
    g = stich.game(KritischGuateWatten.name)
    d = g.deck
    rk = g.ranking(d.rank(d.parse("HO")), d.suit(d.parse("LA")))     # Schlag Ober, trump Laub
    guate = d.parse("LK")                                            # one above the Schlag (T2)
    assert rk.key[guate] == GUATE * 16 and rk.guate == 1 << guate
    assert rk.key[d.parse("LO")] < rk.key[guate] < rk.key[d.parse("HK")] == KRITISCHE * 16 + 3
    # Schlag 10, trump Herz: the Guate would be the Herz-Unter; Schlag 6... on 32 cards every Schlag has one,
    # but a Guate that is a Kritische stays one (R5(d)): Schlag Ober, trump Herz -> Guate H-K = Max.
    rk = g.ranking(d.rank(d.parse("HO")), d.suit(d.parse("HA")))
    assert rk.key[d.parse("HK")] == KRITISCHE * 16 + 3 and rk.guate == 0
    assert rk.key[d.parse("HA")] == TRUMP * 16 + d.rank(d.parse("HA"))


@pytest.mark.parametrize("seed", [1, 2])
def test_matches_of_the_new_variant_end_and_replay(seed):
    state = stich.game(KritischGuateWatten.name).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert stich.replay(state.record()).record() == state.record()


def test_the_new_variant_passes_the_conformance_kit():
    report = check_game(KritischGuateWatten, matches=4)
    assert report["view_comparisons"] >= 2 * len(TABLE)
