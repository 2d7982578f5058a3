"""Watten at the terminal: its events as sentences, its view as rows, seats 1-based throughout."""

import io
import random

import pytest

import stich
from stich.cli.render import action_lines, make_console, view_table
from stich.narration import describe_event, game_line
from stich.rulesets.watten.options import VARIANTS

from .helpers import CardNames as Names  # the cards in the game's language, the reader's words in English

SHARED = {"hand_start", "deal", "play", "trick", "scores"}
RAW_FIELDS = ("Schlag seat", "Trump seat", "Tricks won", "Face up trick", "Fixed", "Watten hand", "Committed",
              "Request", "Answer", "Raise", "Accept", "Hand result")


def _seen(state, names):
    """The events ``names.human`` may see, from the state's event log, since the last call for ``names``."""
    start = getattr(names, "told", 0)
    names.told = len(state.events)
    bit = 0 if names.human is None else 1 << names.human
    return [dict(ev) for aud, ev in state.events[start:] if aud is None or aud & bit]


def _act(state, action, names):
    """Apply ``action`` and return what ``names.human`` reads about it."""
    actor = int(action.split(":")[0]) - 1 if ":" in action else state.current_player
    state.apply(action)
    return action_lines(actor, action.split(":")[-1], _seen(state, names), names)


def _table_text(view, names) -> str:
    console = make_console(file=io.StringIO(), width=200)
    console.print(view_table(view, names))
    return console.file.getvalue()


def test_open_ansage_and_raising_read_as_sentences():
    state = stich.game("watten", "bavarian_4").new_state(seed=1)
    n = Names(state.game, "en", human=0)
    assert [describe_event(ev, n) for ev in _seen(state, n)][1:] == [
        "You are forehand and choose the Schlag; Seat 4 chooses the trump"]
    assert _act(state, "cut 10", n) == [   # narrated: no "Seat 3: cut 10" line
        "Seat 3 cuts the pack, lifting 10 cards",
        "The cut shows HK (Hearts King): a Kritische (Max), dealt face up",
        "Seat 3 receives: HK (Hearts King)",
        "The cut shows SU (Bells Unter); it stays at the bottom of the pack",
        "You receive: H7 (Hearts 7), H8 (Hearts 8), S7 (Bells 7), L10 (Leaves 10), LU (Leaves Unter)"]
    assert _act(state, "schlag O", n) == ["[bold]You name the Schlag: O (Ober)[/bold]"]
    assert _act(state, "trump H", n)[:2] == ["[bold]Seat 4 names the trump: H (Hearts)[/bold]",
                                             "The Ansage is complete."]
    text = _table_text(state.view(0), n)
    for row in ("Forehand  ", "you (Seat 1)", "Schlag: you (Seat 1) · trump: Seat 4", "O (Ober)", "H (Hearts)",
                "Kritische HK (Max), S7 (Belli), E7 (Spitz) · Hauptschlag HO (Hearts Ober) · Blinde SO, EO, LO",
                "Target", "11; a score of 9 or more is gestrichen (may not raise)"):
        assert row in text, row
    assert not any(raw in text for raw in RAW_FIELDS + ("Cutter",))
    assert _act(state, "raise", n) == ["[bold]You raise to 3[/bold]"]
    assert "2; you raised to 3, Seat 2 to answer" in _table_text(state.view(0), n)
    assert _act(state, "raise", n) == ["Seat 2 accepts: the hand is worth 3", "[bold]Seat 2 raises to 4[/bold]"]
    lines = _act(state, "fold", n)
    assert lines[:2] == ["Seat 3 folds: the hand is given up at 3",
                         "[bold]Seat 2 and Seat 4 win the hand: 3 points (the others folded)[/bold]"]
    assert "Seat 2 is forehand and chooses the Schlag; you choose the trump" in lines


def test_blind_ansage_keeps_hidden_cards_hidden():
    game = stich.game("watten", "euregio")
    state = game.new_state(seed=2)
    fore, blind, dealer = (Names(game, "en", human=s) for s in (0, 2, 3))
    for n in (fore, blind, dealer):
        _seen(state, n)
    state.apply("cut 10")
    for n in (fore, blind, dealer):
        n.new = _seen(state, n)
    assert [describe_event(ev, dealer) for ev in dealer.new if ev["type"] == "stock_peek"] == [
        "You look at the stock: top card LK (Leaves King), bottom card EU (Acorns Unter)"]
    assert [describe_event(ev, blind) for ev in blind.new if ev["type"] == "cut_peek"] == [
        "You see the bottom card of the pack: EU (Acorns Unter)"]   # the cutter's peek, the same card
    # Forehand commits HU for the Schlag: he reads his action line only, the others that he chose face down.
    state.apply("show HU")
    assert action_lines(0, "show HU", _seen(state, fore), fore) == [
        "[bold]You[/bold]: show HU  [dim]Hearts Unter[/dim]"]
    assert action_lines(0, "show HU", _seen(state, blind), blind) == [
        "Seat 1: show …", "Seat 1 has chosen a card, face down"]
    assert [ev["type"] for ev in _seen(state, dealer)] == ["committed"]   # simultaneous: not even the dealer
    assert "HU" not in _table_text(state.view(3), dealer)
    state.apply("show S6")   # the dealer shows the Weli: trump Schellen
    assert action_lines(3, "show S6", _seen(state, fore), fore)[:2] == [   # the reveal shows forehand the card
        "Seat 4: show S6  [dim]Weli (Schellen 6)[/dim]",
        "[bold]The Ansage is revealed: Schlag U (Unter) (shown with HU (Hearts Unter)), trump S (Bells) "
        "(shown with S6 (Weli (Schellen 6))); the Rechte is SU (Bells Unter)[/bold]"]
    lines = action_lines(3, "show S6", _seen(state, blind), blind)
    assert lines[:3] == ["Seat 4: show …", "Seat 4 has chosen a card, face down", "The Ansage is complete."]
    assert not any("S6" in line or "HU" in line or "Unter" in line for line in lines[:3])
    text = _table_text(state.view(2), blind)
    assert "hidden: only the two Ansager know them" in text and "HU" not in text
    text = _table_text(state.view(0), fore)
    assert "you (Seat 1): HU (Hearts Unter) for the Schlag; Seat 4: S6 (Weli (Schellen 6)) for the trump" in text
    assert "Guate SO (Bells Ober) · Rechte SU (Bells Unter) · Linke HU, EU, LU" in text


def test_requests_swap_and_exchange():
    game = stich.game("watten", "euregio")
    state = game.new_state(seed=2)
    n = Names(game, "en", human=0)
    state.apply("cut 10")
    _seen(state, n)
    # E.6, R33: the dealer asks out of turn, before either Ansager has shown.
    assert _act(state, "4:ask_swap", n) == [
        "Seat 4 asks for a Schlagtausch (the Ansager would swap Schlag and trump)"]
    assert _act(state, "agree_swap", n) == [
        "You agree to the Schlagtausch", "[bold]Schlagtausch[/bold]: Seat 4 chooses the Schlag, you the trump"]
    view = state.view(0)
    assert not view["shown"]
    text = _table_text(view, n)
    assert "Schlag: Seat 4 · trump: you (Seat 1)" in text and "Shown" not in text
    assert _act(state, "ask_exchange", n) == [
        "Seat 4 asks for a Schönere (both Ansager would take new hands)"]
    lines = _act(state, "agree_exchange", n)
    assert lines[:2] == ["You agree to the Schönere",
                         "You and Seat 4 throw in their hands and take 5 new cards each (Schönere 1)"]
    assert lines[2].startswith("You now hold: ")
    assert lines[3] == "You are forehand and choose the Schlag; Seat 4 chooses the trump"   # the Ansage anew
    state.apply("ask_exchange")
    assert _act(state, "refuse_exchange", n)[-1] == "Seat 4 refuses the Schönere; no more exchanges in this deal"


def test_fixed_value_hands():
    state = stich.game("watten", "euregio").new_state(seed=1, scores=[16, 10])
    n = Names(state.game, "en", human=0)
    for action in ("cut 4", "show HO", "show S6"):
        lines = _act(state, action, n)
    assert lines[-1] == ("[bold]Es gehen die 4 Punkte[/bold]: Side 1 (seats 1+3, yours) is gestrichen and leads "
                         "by 4 or more; you decide: play for a fixed 4 (hold) or concede (2 to the others)")
    text = _table_text(state.view(0), n)
    assert "4 (fixed: no raising)" in text and "you (Seat 1): hold (play for 4) or concede" in text
    assert _act(state, "hold", n) == ["You hold: the hand is played for 4"]
    assert "Decision" not in _table_text(state.view(0), n)

    state = stich.game("watten", "euregio", four_points_raising="trailing_may_raise").new_state(seed=1, scores=[16, 10])
    for action in ("cut 4", "show HO", "show S6", "hold"):
        state.apply(action)
    assert "4 (fixed; only the trailing side may raise)" in _table_text(state.view(0), Names(state.game, "en", 0))

    state = stich.game("watten", "tyrolean", tyrolean_gestrichen="on").new_state(seed=1, scores=[5, 13])
    n = Names(state.game, "en", human=None)
    for action in ("cut 4", "schlag A", "trump H"):
        lines = _act(state, action, n)
    assert lines[-1] == ("Side 2 (seats 2+4) is gestrichen; Seat 2 decides: play for a fixed 3 (hold) or "
                         "concede (2 to the others)")
    assert _act(state, "concede", n)[:2] == [
        "Seat 2 concedes the hand", "[bold]Seat 1 and Seat 3 win the hand: 2 points (the others conceded)[/bold]"]


def test_partner_view_maschine_and_face_up():
    state = stich.game("watten", "tyrolean").new_state(seed=1)
    n = Names(state.game, "en", human=0)
    _act(state, "cut 4", n)
    assert _act(state, "schlag 6", n) == ["[bold]You name the Schlag: 6 (Weli)[/bold]"]
    lines = _act(state, "trump H", n)
    assert lines[2] == ("Schlag 6: your partner Seat 3 shows you their hand: H7 (Hearts 7), H8 (Hearts 8), "
                        "HK (Hearts King), EU (Acorns Unter), LK (Leaves King)")
    assert "Rechte S6 (Weli (Schellen 6))" in _table_text(state.view(0), n)

    state = stich.game("watten", "bavarian_4", maschine="on").new_state(seed=75)
    n = Names(state.game, "en", human=0)
    lines = _act(state, state.legal_actions()[0], n)
    assert "[bold]Seat 4 holds the Maschine (HK, S7, E7, all three Kritische): the hand ends[/bold]" in lines
    assert "[bold]Seat 2 and Seat 4 win the hand: 2 points (Maschine)[/bold]" in lines

    state = stich.game("watten", "blind", first_trick_display="until_trick_2").new_state(seed=1)
    n = Names(state.game, "en", human=1)
    face_up = []
    while len(state.view(1)["tricks"]) < 2:
        lines = _act(state, next(a for a in state.legal_actions() if a.verb not in ("ask_exchange", "raise")), n)
        if len(state.view(1)["tricks"]) == 1 and not face_up:
            face_up = lines[-1:]
            assert "First trick (face up)" in _table_text(state.view(1), n)
    assert face_up == ["The first trick stays face up until trick 2 is complete"]
    assert lines[-1] == "The first trick is turned face down"


def test_challenge_redeal_and_hand_results_as_events():
    n = Names(stich.game("watten", "tyrolean", last_trick_bluff="on"), "en", human=1)
    assert describe_event({"type": "challenge", "seat": 2, "raiser": 1, "card": "SO", "valid": False}, n) == (
        "Seat 3 calls “Farbe!” on your raise: the card is SO (Bells Ober), not a valid raise")
    assert describe_event({"type": "redeal", "dealer": 3}, n) == (
        "A third Schönere: all hands are thrown in and Seat 4 deals again")
    result = {"type": "hand_result", "side": 1, "seats": [1, 3], "points": 2, "reason": "challenge"}
    assert describe_event(result, n) == "[bold]You and Seat 4 win the hand: 2 points (the “Farbe!” challenge)[/bold]"
    assert game_line({"type": "play", "seat": 0, "card": "HK"}, n) is NotImplemented


def _random_match(game, seed, limit=1000):
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal() and limit:
        state.apply(rng.choice(state.legal_actions()))
        limit -= 1
    return state


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_watten_event_reads_as_a_sentence(variant):
    options = {"euregio": {"target": 8}, "tyrolean": {"tyrolean_gestrichen": "on", "last_trick_bluff": "on"},
               "blind": {"tyrolean_gestrichen": "on"}, "bavarian_3": {"maschine": "on"}}.get(variant, {})
    game = stich.game("watten", variant, **options)
    told = set()
    for seed in (1, 2, 3, 4):
        state = _random_match(game, seed)
        for human in (None, 0):
            n = Names(game, "en", human)
            for _aud, ev in state.events:
                line = game_line(ev, n)
                if ev["type"] in SHARED and not ev.get("partner_view"):
                    assert line is NotImplemented, ev
                    continue
                assert isinstance(line, str) and line and "None" not in line, (ev, line)
                if ev["type"] == "hand_result" and game.num_players == 3 and len(ev["seats"]) == 2:
                    assert " points each (" in line   # B3: each duo member scores the value
                told.add(ev["type"])
        for seat in (None, *range(game.num_players)):
            text = _table_text(state.view(seat), Names(game, "en", seat))
            assert not any(raw in text for raw in RAW_FIELDS[:5]), text
    assert {"watten_hand", "cut", "hand_result", "raise"} <= told
