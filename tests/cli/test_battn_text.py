"""Battn at the terminal: its events as sentences, its view as rows, seats 1-based throughout."""

import io
import random

import pytest

import stich
from stich.cli.render import action_lines, make_console, view_table
from stich.narration import describe_event, game_line
from stich.narration.names import Names as ReaderNames  # the reader's words in the reader's language

from .helpers import CardNames as Names  # the cards in the game's language, the reader's words in English

#: the deck of the rules' example C2 (top first): cut 15 gives the Barba to L and the Belli to D
C2 = ("6-Po 6-Sc N-St 2-St 6-St A-St 3-Ra K-Ra 3-Po K-St 2-Sc A-Po A-Sc 4-St K-Po 3-St N-Ra K-Sc 4-Ra 7-Ra "
      "7-St N-Sc 4-Po 5-Ra 4-Sc J-St N-Po 3-Sc J-Sc 5-St 2-Ra 5-Sc J-Ra 5-Po 7-Sc 7-Po J-Po 6-Ra 2-Po A-Ra").split()
SHARED = {"hand_start", "deal", "play", "trick", "scores"}


def _step(state, action, names):
    """Apply ``action`` and return what the viewer (``names.human``) reads."""
    actor, before = state.current_player, len(state.events)
    state.apply(action)
    bit = 0 if names.human is None else 1 << names.human
    new = [dict(ev) for aud, ev in state.events[before:] if aud is None or aud & bit]
    return action_lines(actor, action, new, names)


def _table_text(view, names) -> str:
    console = make_console(file=io.StringIO(), width=220)
    console.print(view_table(view, names))
    return console.file.getvalue()


def _drive(state, prefs, until):
    """Play the first of ``prefs(state)`` that is legal (else the first legal action) until ``until``."""
    while not until(state):
        legal = [str(a) for a in state.legal_actions()]
        state.apply(next((p for p in prefs(state) if p in legal), legal[0]))


def test_cut_orbi_scheanara_and_choice_read_as_sentences():
    state = stich.game("battn").new_state(deck=C2, dealer=0)   # you (Seat 1) deal: R Seat 2, P Seat 3, L Seat 4
    n = Names(state.game, "en", human=0)
    assert _step(state, "cut 15", n) == [
        "Seat 4 cuts (lifting 15 cards) and shows PoK (Rollate (King) of Porcini) [bold]Barba[/bold], "
        "a Critico for Seat 4; then St4 (4 of Edelweiss) [bold]Belli[/bold], a Critico for you; "
        "then ScA (Ace of Skis)"]
    assert _step(state, "cut_done", n) == ["Seat 4 does not cut again"]
    lines = _step(state, "orbi", n)
    assert lines[0] == ("[bold]Seat 2 calls Orbi![/bold] The turn's base is 3; "
                        "the other team accepts or refuses it before play")
    assert lines[1].startswith("You now hold: ") and "St4 (4 of Edelweiss)" in lines[1]
    assert lines[2] == "Face up at the bottom of the stock: ScA (Ace of Skis)"
    assert _step(state, "scheanara", n) == ["Seat 2 asks “Scheanara?” (both would take new hands from the stock)"]
    lines = _step(state, "scheanara_yes", n)
    assert lines[:2] == ["You agree to the Scheanara", "[bold]Scheanara 1[/bold]: your hand and that of Seat 2 "
                                                       "are set aside unseen; each gets 5 new cards from the stock"]
    assert lines[2].startswith("You now hold: ")
    assert _step(state, "scheanara_pass", n) == ["Seat 2 does not ask for a Scheanara"]
    assert _step(state, "scheanara_pass", n) == ["You do not ask for a Scheanara"]
    assert _step(state, "schlok 5", n) == ["[bold]Seat 2 names the Schlòk: 5[/bold]"]
    lines = _step(state, "trumpf Po", n)
    assert lines[0] == "[bold]You name the Trumpf: Po (Porcini)[/bold]"
    assert lines[1] == ("Your partner (Seat 3) holds: St7 (7 of Edelweiss), RaJ (Woodcutter (Jack) of Hay rakes), "
                        "RaN (Miner (Knight) of Hay rakes), Sc4 (4 of Skis), ScJ (Woodcutter (Jack) of Skis)")
    assert _step(state, "orbi_accept", n) == ["You accept the Orbi: the stake is 3"]


def _orbi_accepted():
    """Deck C2, you (Seat 1) deal; Seats 2+4 call Orbi, Schlòk 5 and Trumpf Po, you accept: play begins."""
    state = stich.game("battn").new_state(deck=C2, dealer=0)
    for action in ("cut 15", "cut_done", "orbi", "scheanara_pass", "scheanara_pass", "schlok 5", "trumpf Po",
                   "orbi_accept"):
        state.apply(action)
    return state


def test_a_poll_pass_is_spoken_and_told():
    state = _orbi_accepted()
    n = Names(state.game, "en", human=2)
    assert state.current_player == 0 and "pass" in state.legal_actions()   # seat 1 is polled (PR-B7)
    assert _step(state, "pass", n) == ["Seat 1 does not raise"]
    assert state.view(2)["info"]["calls"][-1] == [0, "pass"]


def test_raise_fold_and_result():
    state = _orbi_accepted()
    n = Names(state.game, "en", human=0)
    assert state.current_player == 0   # the accepting team holds the raise right (BT-16.4); you are polled
    assert _step(state, "raise", n) == [
        "[bold]Your team (Seats 1+3) raises: “Quattro?”[/bold] (stake 3, 4 if accepted); Seats 2+4 to answer"]
    text = _table_text(state.view(0), n)
    assert "“Quattro?” 4 proposed by Seats 1+3 (your team), Seats 2+4 to accept, fold or raise" in text
    spectator = Names(state.game, "en", human=None)
    assert _step(state, "fold", spectator)[:2] == [
        "Seat 2 folds", "[bold]Seats 1+3 score 3[/bold] — Seats 2+4 folded at stake 3"]
    text = _table_text(state.view(None), spectator)
    assert "Last turn" in text and "Seats 1+3 scored 3: Seats 2+4 folded at stake 3" in text


def test_table_rows_replace_the_raw_fields():
    state = _orbi_accepted()
    n = Names(state.game, "en", human=0)
    view = state.view(0)
    before = repr(view)
    text = _table_text(view, n)
    assert repr(view) == before and "stake" in view["info"]   # the view is only read
    for row in ("Roles     ", "D you (Seat 1) · R Seat 2 · P Seat 3 · L Seat 4",
                "Schlòk 5 · Trumpf Po (Porcini); Il Buono Po5 (5 of Porcini)",
                "called by Seats 2+4; base 3, accepted", "Next raise by  ", "Seats 1+3 (your team)",
                "Seat 4 lifted 15: PoK Barba → Seat 4, St4 Belli → you (Seat 1), ScA",
                "Tricks (by team)", "Seats 1+3 (your team): 0 · Seats 2+4: 0 (trick 1; 3 tricks win the turn)"):
        assert row in text, row
    for raw in ("Raise right", "Raise pending", "Proposed", "Trick no", "Stock bottom", "Calls", "Cuts", "Schlok",
                "X team", "Seat 0", "'D'", "{"):
        assert raw not in text, raw
    assert "Stock " not in text   # the stock's count says nothing once the cards are played
    # the cutter reads the row about himself as a sentence of his own, in his language
    assert "You lifted 15: PoK Barba → you (Seat 4), St4 Belli → Seat 1, ScA" in _table_text(
        state.view(3), Names(state.game, "en", human=3))
    assert "Hai alzato 15 carte: " in _table_text(state.view(3), ReaderNames(state.game, "it", human=3))
    assert "Platz 4 hat 15 abgehoben: " in _table_text(state.view(0), ReaderNames(state.game, "de", human=0))


def test_the_x_and_the_match_end():
    g = stich.game("battn", orbi_enabled=False)
    state = g.new_state(seed=4, scores=[17, 12], dealer=0)
    n = Names(g, "en", human=1)

    def prefs(s):   # team A (Seats 1+3) raises at once, team B folds
        common = ["cut_done", "scheanara_pass", "schlok 5", "trumpf Po", "x_play"]
        return ["raise"] + common if s.current_player % 2 == 0 else ["fold", "pass"] + common

    _drive(state, prefs, lambda s: s.current_player == 1 and "fold" in map(str, s.legal_actions()))
    lines = _step(state, "fold", n)
    assert lines[:2] == ["You fold", "[bold]Seats 1+3 score 2[/bold] — Seats 2+4 (your team) folded at stake 2"]
    assert "[bold]Seats 1+3 reach 19 and get the X[/bold]: from now on every turn starts at 3" in lines
    assert "held by Seats 1+3: every turn starts at 3; they may decline a turn" in _table_text(state.view(1), n)
    _drive(state, prefs, lambda s: s.current_player == 1 and "fold" in map(str, s.legal_actions()))
    lines = _step(state, "fold", n)
    assert "[bold]Match over: Seats 1+3 win, 22 to 12[/bold]" in lines
    text = _table_text(state.view(1), n)
    assert "won by Seats 1+3" in text and "Stake " not in text   # the last status is stale: not shown


def test_x_decline_and_first_dealer_draw():
    state = stich.game("battn", orbi_enabled=False).new_state(seed=2, scores=[12, 19], dealer=0)
    n = Names(state.game, "en", human=0)
    _drive(state, lambda s: ["cut_done", "scheanara_pass", "schlok A", "trumpf Sc", "x_decline"],
           lambda s: "x_decline" in map(str, s.legal_actions()))
    lines = _step(state, "x_decline", n)
    assert lines[1] == "[bold]Your team (Seats 1+3) scores 2[/bold] — Seats 2+4 declined the turn (X team)"
    draw = next(ev for _aud, ev in stich.game("battn").new_state(seed=3).events if ev["type"] == "first_dealer")
    assert describe_event(draw, Names(state.game, "en", human=0)) == (
        "Draw for the first deal: you (Seat 1) St5 (5 of Edelweiss), Seat 2 Sc3 (3 of Skis) "
        "→ you deal first")
    assert describe_event(draw, Names(state.game, "en", human=1)).endswith("→ first dealer: Seat 1")


def test_manual_mode_calls():
    n = Names(stich.game("battn", manual_mode=True), "en", human=2)
    call = {"type": "call", "seat": 2}
    assert describe_event(call | {"call": "misraise"}, n) == (
        "You note a misraise: your team called “Tre?” by mistake in this Orbi turn")
    assert describe_event(call | {"seat": 3, "call": "svista RL"}, n) == (
        "Seat 4 notes a Svista by the team of R and L: they collected a trick not theirs")
    result = {"type": "turn_result", "team": 0, "points": 2, "reason": "svista+misraise", "stake": 3}
    assert describe_event(result, n) == (
        "[bold]Your team (Seats 1+3) scores 2[/bold] — Svista: Seats 2+4 had collected a trick not theirs "
        "(stake 3); only 2, for their misraise in this Orbi turn")


SWEEP = [
    {},
    {"manual_mode": True, "target": 11, "x_threshold": 7},
    {"kritish": True, "max_cuts": 1, "orbi_before_cut": True, "scheanara_first_speaker": "D"},
    {"partners_see_hands": False, "raise_alternation": False, "x_team_may_raise": False, "target": 9,
     "x_threshold": 5, "cut_next_card_from": "remaining_packet", "first_dealer": "random"},
]


@pytest.mark.parametrize("options", SWEEP, ids=lambda o: ",".join(o) or "default")
def test_sweep_every_battn_event_reads_in_words(options):
    g = stich.game("battn", **options)
    own = set()
    for seed in range(3):
        state = g.new_state(seed=seed)
        rng = random.Random(seed)
        human = seed % 4
        n = Names(g, "en", human=human)
        seen = len(state.events)
        while not state.is_terminal():
            actor, action = state.current_player, str(rng.choice(state.legal_actions()))
            state.apply(action)
            new = [dict(ev) for aud, ev in state.events[seen:] if aud is None or aud >> human & 1]
            seen = len(state.events)
            for line in action_lines(actor, action, new, n):
                assert line and "[blue]" not in line and "Seat 0" not in line, (action, line)
            if rng.random() < 0.05:
                text = _table_text(state.view(human), n)
                assert "Raise right" not in text and "Trick no" not in text and "Seat 0" not in text
        for _aud, ev in state.events:
            if ev["type"] in SHARED:
                continue
            own.add(ev["type"])
            line = game_line(ev, n)
            assert line is not NotImplemented, ev
            quiet = ev["type"] == "status" and ev["proposed"] is None or ev.get("call") == "raise"
            assert (line is None) if quiet else (isinstance(line, str) and line), ev
    assert {"status", "call", "cut", "stock_bottom", "turn_result", "match_end"} <= own
