"""The director's forms, their pure parts (stich.web.ui.tourney_new.parse, stich.web.ui.tourney_director.parse_sheet):
what a director types becomes the API's body, or says what is wrong in the reader's language and makes nothing."""

from __future__ import annotations

import pytest

import stich
from stich.i18n import translator
from stich.web.tourney.rules import parse_tournament
from stich.web.ui.tourney_director import parse_sheet
from stich.web.ui.tourney_new import from_preset, parse


def words(lang: str):
    """The reader's gettext, once every game's own catalogue (the options' labels) is read."""
    for name in stich.games():
        stich.game(name)
    return translator(lang).gettext


DE, EN = words("de"), words("en")


def form(**fields) -> dict:
    base = {"play": "watten/tyrolean", "opt-target": "5", "format": "rounds", "rounds": "3", "games": "3",
            "people": "Anna\nSepp\n\n  Vroni  \nBot 1\n", "bots": "4", "level": "beginner"}
    return {**base, **fields}


def test_a_filled_form_is_the_apis_body_with_the_bots_named_around_the_people():
    body, errors = parse(form(), EN)
    assert errors == []
    assert body["options"] == {"target": 5} and body["format"] == {"kind": "rounds", "rounds": 3, "games_per_round": 3}
    names = [(p["name"], p["kind"]) for p in body["players"]]
    # blank lines and spaces left out; a person named "Bot 1" keeps the name, the bots count on past it
    assert names == [("Anna", "human"), ("Sepp", "human"), ("Vroni", "human"), ("Bot 1", "human"),
                     ("Bot 2", "bot:beginner"), ("Bot 3", "bot:beginner"), ("Bot 4", "bot:beginner"),
                     ("Bot 5", "bot:beginner")]
    assert parse_tournament(body).tables == 2   # the API's own check takes it as it is


def test_a_tournament_open_to_registration_may_start_short_of_people():
    """People register by link until round 1: the form takes few names or none, and the API takes the body."""
    for people in ("", "Anna\nSepp\nVroni"):
        body, errors = parse(form(people=people, bots="0", registration="on"), EN)
        assert errors == [] and body["registration"] is True
        assert parse_tournament(body).registration and len(body["players"]) == len(people.split())
    assert "registration" not in parse(form(), EN)[0]


@pytest.mark.parametrize(("fields", "said"), [
    ({"people": "\n \n", "bots": "0"}, "Die Namen der Personen eintragen, einen je Zeile."),
    ({"people": "Anna\nSepp\nanna\nVroni", "bots": "0"}, "Der Name „anna“ steht zweimal da"),
    ({"people": "Anna\nSepp\nVroni", "bots": "2"}, "5 Spieler und Bots füllen keine Tische zu 4: noch 3 dazu"),
    ({"people": "A" * 41}, "ist länger als 40 Zeichen"),
    ({"format": "duplicate"}, "Eine der angebotenen Formen wählen."),   # Watten: the cut is a player's action
    ({"rounds": "0"}, "Runden: eine ganze Zahl von 1 bis 20."),
    ({"games": "eleven"}, "Partien je Runde: eine ganze Zahl von 1 bis 10."),
    ({"opt-target": "0"}, "Punkte zum Sieg: eine ganze Zahl, mindestens 1."),
    ({"play": "watten/nowhere"}, "Zuerst ein Spiel und seine Variante wählen."),
    ({"play": "barbu/standard", "format": "duplicate", "games": "4", "opt-target": ""},
     "Eine Partie Barbu hat 28 Spiele"),
])
def test_bad_input_says_what_is_wrong_in_the_readers_language(fields, said):
    body, errors = parse(form(**fields), DE)
    assert body is None
    assert any(said in e for e in errors), errors


def test_the_score_sheet_takes_a_line_per_side_and_only_what_changed():
    table = {"players": ["Anna", "Sepp", "Vroni", "Bot 2"], "paper": True,
             "matches": [{"table": "p1", "finished": True, "result": {"scores": [15, 9, 15, 9]}},
                         {"table": "p2", "finished": False, "result": None},
                         {"table": "p3", "finished": False, "result": None}]}
    sides = [0, 1, 0, 1]
    # match 1 typed as it stands (not stored again), match 2 with a decimal comma, match 3 left blank
    entries, errors = parse_sheet({"s-0-0": "15", "s-0-1": "9", "s-1-0": "7,5", "s-1-1": "15"}, table, sides, EN)
    assert errors == [] and entries == [("p2", [7.5, 15, 7.5, 15])]
    entries, errors = parse_sheet({"s-1-0": "15", "s-1-1": "", "s-2-0": "x", "s-2-1": "3"}, table, sides, DE)
    assert entries == [] and errors == ["Partie 2: die Punkte jeder Seite eintragen.",
                                        "Partie 3, Anna & Vroni: „x“ ist keine Zahl."]
    assert parse_sheet({}, table, sides, EN) == ([], ["Nothing to save: no points were typed or changed."])
    # an online table's match still being played is not offered, even if a field is forged
    online = dict(table, paper=False)
    assert parse_sheet({"s-1-0": "15", "s-1-1": "3"}, online, sides, EN)[0] == []


def test_a_club_preset_fills_the_form_with_its_game_and_options_only():
    """A preset (a POST /api/tables body) gives the form its game, variant and options; seats and table
    settings are no tournament's.  A preset the rules no longer take is said, not half used."""
    assert from_preset({"game": "watten", "variant": "bavarian_2", "options": {"target": 7, "lock_at": 0},
                        "seats": ["human", "bot"], "timer": "fast"}) == {
        "play": "watten/bavarian_2", "opt-target": "7", "opt-lock_at": "0"}
    assert from_preset({"game": "watten"})["play"] == f"watten/{stich.game('watten').default_variant}"
    with pytest.raises(ValueError):
        from_preset({"game": "watten", "options": {"no_such_option": 1}})
