"""Who won each trick and why ("the Rechte", "trump", "the highest of the suit led"), from what the viewer
knows only: where the viewer does not know the Schlag or the trump, no reason is given."""

import stich
from stich.narration import Names, describe_event, trick_reason


def why(game, view, plays, winner, variant=None):
    g = stich.game(game, variant)
    cards = [{"seat": s, "card": c} for s, c in plays]
    return trick_reason({"seat": 0, **view}, cards, winner, Names(g, "en", 0))


def test_watten_names_the_winning_card_by_its_rank_in_the_hand():
    known = {"schlag": "O", "trump": "H"}
    assert why("watten", known, [(2, "SA"), (3, "HO"), (0, "H9")], 3, "euregio") == "the Rechte"
    assert why("watten", known, [(2, "SA"), (3, "HO"), (0, "HK")], 0, "euregio") == "the Guate"
    assert why("watten", known, [(2, "SO"), (3, "EO"), (0, "H9")], 2, "euregio") == "the first Linke"
    assert why("watten", known, [(2, "SA"), (3, "H7"), (0, "S9")], 3, "euregio") == "trump"
    assert why("watten", known, [(2, "S9"), (3, "SA"), (0, "E9")], 3, "euregio") == "the highest of the suit led"
    assert why("watten", known, [(2, "SA"), (3, "S7"), (0, "HO")], 3, "bavarian_4") == "the Belli (a Kritische)"
    assert why("watten", {"schlag": None, "trump": None}, [(2, "SA"), (3, "HO")], 3, "euregio") is None
    assert why("watten", known, [(2, "EA"), (3, "S6")], 3, "tyrolean") == "trump (the Weli, the lowest trump)"


def test_battn_names_critici_il_buono_and_uno_buono():
    known = {"info": {"schlok": "2", "trumpf": "Po"}}
    assert why("battn", known, [(1, "ScA"), (2, "PoK"), (3, "Po2")], 2) == "the Barba"
    assert why("battn", known, [(1, "ScA"), (2, "Po2"), (3, "Sc3")], 2) == "Il Buono"
    assert why("battn", known, [(1, "ScA"), (2, "St2"), (3, "Ra2")], 2) == "the first Uno Buono"
    assert why("battn", known, [(1, "ScA"), (2, "Po3"), (3, "Sc3")], 2) == "trump"
    assert why("battn", known, [(1, "Sc3"), (2, "ScA"), (3, "St3")], 2) == "the highest of the suit led"


def test_barbu_and_biscambiggia_trump_or_the_suit_led():
    assert why("barbu", {"contract": "TRUMPS", "trump": "C"}, [(1, "SA"), (2, "C2")], 2) == "trump"
    assert why("barbu", {"contract": "NO_TRICKS", "trump": None}, [(1, "S9"), (2, "SA"), (3, "CA")], 2) \
        == "the highest of the suit led"
    assert why("biscambiggia", {"trump": "D"}, [(1, "SA"), (2, "D2")], 2) == "trump"
    assert why("biscambiggia", {"trump": "D"}, [(1, "S2"), (2, "S7"), (3, "HA")], 2) == "the highest of the suit led"


def test_the_trick_line_says_the_card_and_the_reason():
    g = stich.game("barbu")
    line = describe_event({"type": "trick", "winner": 2, "card": "SA", "why": "the highest of the suit led"},
                          Names(g, "en", 0))
    assert "Seat 3 wins the trick" in line and "SA" in line and "the highest of the suit led" in line


def test_replay_tells_why_too():
    import io
    import random

    from rich.console import Console

    from stich.cli.replay import replay_record

    state = stich.game("barbu").new_state(seed=4)
    rng = random.Random(4)
    while state.hand_number < 2:
        state.apply(rng.choice(state.legal_actions()))
    out = io.StringIO()
    replay_record(state.record(), seat=0, console=Console(file=out, width=200, color_system=None), lang="en")
    assert "wins the trick with" in out.getvalue() and "the highest of the suit led" in out.getvalue()
