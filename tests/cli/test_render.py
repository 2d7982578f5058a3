"""Rendering helpers: names, values, narration, echo detection, the view table."""

import stich
from stich.cli.render import default_lang, is_echo, legal_list, make_console, view_table
from stich.narration import Names, describe_event, hand_result


def names(lang="en", human=0):
    return Names(stich.game("toy"), lang, human)


def test_card_and_value_names():
    n = names("de")
    assert n.card("EO") == "Eichel-Ober" and n.card_label("eo".upper()) == "EO (Eichel-Ober)"
    assert n.action("play EO") == "play EO  [dim]Eichel-Ober[/dim]"
    assert n.action("trump H") == "trump H"
    assert n.seat(0) == "du (Platz 1)" and n.seat(1) == "Platz 2"   # the reader's words in German too
    assert n.value({"seat": 1, "suit": "H", "card": "LA"}) == "seat: Platz 2, suit: H (Herz), card: LA (Laub-Ass)"
    assert n.value({"seats": [0, 1], "side": 1, "cards": ["H7", "H8"]}) == (
        "seats: du (Platz 1), Platz 2, side: Partei 2, cards: H7 (Herz-Sieben), H8 (Herz-Acht)")
    assert n.value(None) == "—" and n.value(True) == "ja" and n.value([]) == "—"
    en = names("en")
    assert en.seat(0) == "you (Seat 1)" and en.seat(1) == "Seat 2" and en.value(True) == "yes"


def test_default_languages():
    langs = [default_lang(g) for g in ("watten", "battn", "biscambiggia", "barbu", "toy")]
    assert langs == ["de", "it", "it", "fr", "en"]


def test_describe_events():
    n = names()
    assert "Hand 2" in describe_event({"type": "hand_start", "hand": 2, "dealer": 1}, n)
    assert describe_event({"type": "deal", "seat": 0, "cards": ["H7"]}, n) == "You receive: H7 (Hearts 7)"
    assert "Seat 2 wins the trick" in describe_event({"type": "trick", "winner": 1}, n)
    assert describe_event({"type": "trick", "winner": 0}, n) == "[green]You win the trick[/green]"
    assert "you (Seat 1): 2, Seat 2: 1" in describe_event({"type": "scores", "scores": [2, 1]}, n)
    line = describe_event({"type": "trump", "seat": 1, "suit": "L"}, n)
    assert line == "[blue]trump[/blue]: seat: Seat 2, suit: L (Leaves)"


def test_echo_detection():
    assert is_echo({"type": "play", "seat": 1, "card": "EO"}, 1, "play EO")
    assert not is_echo({"type": "play", "seat": 1, "card": "EO"}, 0, "play EO")
    assert is_echo({"type": "trump", "seat": 1, "suit": "L"}, 1, "trump L")
    assert not is_echo({"type": "trump", "seat": 1, "suit": "L", "extra": 5}, 1, "trump L")
    assert is_echo({"type": "call", "seat": 2, "call": "schlok 4"}, 2, "schlok 4")
    assert not is_echo({"type": "call", "seat": 2, "call": "schlok 4"}, 1, "schlok 4")
    assert describe_event({"type": "status", "stake": 2}, names()) is None


def test_view_table_shows_the_view():
    g = stich.game("toy")
    s = g.new_state(seed=1, hands=[["EO", "E7", "HK"], ["EA", "L8", "S9"]], dealer=0)
    s.apply("trump H")
    s.apply("play EA")
    console = make_console(width=100, record=True)
    console.print(view_table(s.view(0), Names(g, "en", 0)))
    console.print(legal_list(s.view(0)["legal_actions"], Names(g, "en", 0)))
    out = console.export_text()
    for text in ("Your hand", "Hearts: HK", "Acorns: EO · E7", "Seat 2 EA", "Trump", "H (Hearts)",
                 "you (Seat 1)", "1) play E7", "2) play EO"):
        assert text in out, text
    assert "L8" not in out  # the other seat's cards stay hidden


def test_many_legal_actions_go_in_columns():
    console = make_console(width=100, record=True)
    console.print(legal_list([f"play {c}" for c in ("H7", "H8", "H9", "H10", "HU", "HO", "HK", "HA",
                                                    "S7", "S8", "S9", "S10", "SU")], names()))
    out = console.export_text()
    assert len(out.strip().splitlines()) < 13 and "13)" in out


def test_hand_result_at_the_end_of_a_match_is_the_result_not_the_summary():
    result = {"side": 0, "seats": [0, 2], "points": 2, "reason": "tricks"}
    summary = {"hand": 9, "stake": 2, "stock_size": 22, "result": result}   # the match is over
    assert hand_result(summary, 9) == result
    assert hand_result(summary, 9, [{"type": "hand_result", **result}]) is None   # already told
    assert hand_result({"hand": 9, "stake": 2}, 9) == {"hand": 9, "stake": 2}
    later = {"hand": 10, "last_result": {"hand": 9, "points": 3}}
    assert hand_result(later, 9) == {"hand": 9, "points": 3} and hand_result(later, 8) is None
