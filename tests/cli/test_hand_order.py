"""The compact hand: one line per suit (trumps first), strongest first in the current trump or contract,
the special cards named (Kritische, Rechte, Guate, Linke, the Weli, the Critici, Il Buono, the Barbu)."""

import re

from rich.text import Text

import stich
from stich.cli.render import hand_text, make_console
from stich.narration import Names


def hand(game, view, variant=None, lang="en", **options):
    """The hand's lines as the player reads them (colours left out)."""
    g = stich.game(game, variant, **options)
    return Text.from_markup(hand_text({"seat": 0, **view}, Names(g, lang, 0))).plain.splitlines()


def test_watten_before_the_ansage_names_the_kritische_and_sorts_by_rank():
    lines = hand("watten", {"hand": ["H7", "HK", "S7", "E7", "EA"], "schlag": None, "trump": None}, "bavarian_4")
    assert lines == ["Hearts: HK Max · H7", "Bells: S7 Belli", "Acorns: E7 Spitz · EA"]


def test_watten_with_schlag_and_trump_puts_the_trumps_first_strongest_first():
    view = {"hand": ["E8", "HO", "SO", "HK", "HA", "H7", "S6"], "schlag": "O", "trump": "H"}
    lines = hand("watten", view, "euregio")
    assert lines[0] == "Hearts (trump): HK Guate · HO Rechte · HA · H7"
    assert lines[1] == "Bells: SO Linke · S6 Weli"
    assert lines[2] == "Acorns: E8"
    lines = hand("watten", {"hand": ["HO", "SO", "HK", "H9"], "schlag": "O", "trump": "H"}, "bavarian_4")
    assert lines == ["Hearts (trump): HK Max · HO Hauptschlag · H9", "Bells: SO Blinde"]


def test_battn_names_the_critici_and_il_buono():
    view = {"hand": ["Po2", "PoK", "St4", "Ra7", "RaA", "Sc2"], "info": {"schlok": "2", "trumpf": "Ra"}}
    lines = hand("battn", view)
    assert lines[0].endswith(": Ra7 Spitz · RaA")
    assert any(line.endswith(": PoK Barba · Po2 Uno Buono") for line in lines)
    view["info"] = {"schlok": "2", "trumpf": "Po"}
    assert hand("battn", view)[0].endswith("(trump): PoK Barba · Po2 Il Buono")


def test_biscambiggia_orders_ace_seven_king_and_marks_the_called_card():
    view = {"hand": ["H2", "HA", "H7", "HK", "H3", "D7"], "trump": "D", "called_card": "DA"}
    assert hand("biscambiggia", view) == ["Diamonds (trump): D7", "Hearts: HA · H7 · HK · H3 · H2"]   # BB-0.2
    assert hand("biscambiggia", view, ranking="briscola")[1] == "Hearts: HA · H3 · HK · H7 · H2"
    view = {"hand": ["HA", "D7", "DA"], "trump": "D", "called_card": "DA"}
    assert hand("biscambiggia", view)[0] == "Diamonds (trump): DA called · D7"


def test_barbu_trumps_first_and_the_barbu_named_in_its_contract():
    view = {"hand": ["S2", "HK", "HA", "H3", "C10"], "contract": "TRUMPS", "trump": "C"}
    assert hand("barbu", view) == ["Clubs (trump): C10", "Spades: S2", "Hearts: HA · HK · H3"]
    view = {"hand": ["S2", "HK", "HA", "H3"], "contract": "BARBU", "trump": None}
    assert hand("barbu", view) == ["Spades: S2", "Hearts: HA · HK Barbu · H3"]


def test_every_deck_has_its_suit_colours():
    for game in ("watten", "battn", "biscambiggia", "barbu"):
        for variant in stich.game(game).variants:
            names = Names(stich.game(game, variant), "en", 0)
            assert any(names.suit_style(s) for s in names.deck.suit_codes), (game, variant)   # every deck


def test_a_partners_open_hand_is_ordered_and_marked_too():
    from stich.cli.render import view_table

    g = stich.game("battn")
    view = {"seat": 0, "num_players": 4, "hand": ["Sc2"], "known_hands": [["Sc2"], None, ["Po2", "St4", "PoA"], None],
            "info": {"schlok": "2", "trumpf": "Po"}}
    console = make_console(width=100, record=True)
    console.print(view_table(view, Names(g, "en", 0)))
    assert re.search(r"Seat 3 holds +St4 Belli · Po2 Il Buono · PoA", console.export_text())
