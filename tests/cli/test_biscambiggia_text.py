"""Biscambiggia at the terminal: auction, call, secret partner, results and marche in words, seats 1-based."""

import io
import random

import pytest

import stich
from stich.cli.render import action_lines, make_console, view_table
from stich.cli.replay import replay_record
from stich.narration import describe_event, game_line
from stich.rulesets.biscambiggia import text as bt

from .helpers import CardNames as Names  # the cards in the game's language, the reader's words in English

#: the events every game shares, told by the generic narration
SHARED = {"hand_start", "deal", "play", "scores"}   # ("trick" is told with its points)

#: raw view field names this module replaces by its own labels
RAW_LABELS = ("Phase", "High bid", "High bidder", "Traitor public", "Role", "Teams", "Points taken",
              "Last result", "Alone")


def _dealt(**options):
    """Hand 1 with every seat's 8 cards in deck order (seat 1 H2..HQ, seat 2 HK..D7, seat 3 DJ..C5,
    seat 4 C6..S3, seat 5 S4..SA); dealer seat 5, so seat 1 opens and leads."""
    g = stich.game("biscambiggia", **options)
    codes = g.deck.codes
    return g.new_state(seed=1, hands=[codes[8 * i:8 * i + 8] for i in range(5)], dealer=4)


def _visible(state, seat, start=0):
    """The events ``seat`` may see from index ``start`` on."""
    return [ev for aud, ev in state.events[start:] if aud is None or (seat is not None and aud >> seat & 1)]


def _act(state, action, seat):
    """Apply ``action`` and return what ``seat`` (the human) reads."""
    actor, start = state.current_player, len(state.events)
    state.apply(action)
    return action_lines(actor, action, _visible(state, seat, start), Names(state.game, "en", human=seat))


def _called(seat=3):
    """Seat 2 wins the auction at 70 and calls DA, held by seat 3 (0-based seat 2)."""
    state = _dealt()
    for action in ("bid 61", "bid 70", "pass", "pass", "pass", "pass", "call DA"):
        state.apply(action)
    return state


def _table_text(view, names) -> str:
    console = make_console(file=io.StringIO(), width=200)
    console.print(view_table(view, names))
    return console.file.getvalue()


def test_auction_reads_as_sentences_once():
    state = _dealt()
    n = Names(state.game, "en", human=3)
    start = next(ev for _aud, ev in state.events if ev["type"] == "auction_start")
    assert describe_event(start, n) == "Seat 1 opens the auction; the first bid is at least 61"
    assert _act(state, "bid 61", 3) == ["Seat 1 bids 61"]
    assert _act(state, "bid 70", 3) == ["Seat 2 bids 70"]
    assert _act(state, "pass", 3) == ["Seat 3 passes"]
    table = _table_text(state.view(3), n)
    assert "high bid 70 by Seat 2; passed: Seat 3; still bidding: Seat 1, Seat 2, you (Seat 4), Seat 5" in table
    assert _act(state, "pass", 3) == ["You pass"]
    assert _act(state, "pass", 1) == ["Seat 5 passes"]
    assert _act(state, "pass", 1) == ["Seat 1 passes", "[bold]You win the auction at 70[/bold]: now call a card"]
    assert dict(bt.rows(state.view(None), n))["Contract"] == \
        "Seat 2 bid 70 (of 120 card points); the card is being called"


def test_the_call_names_the_partner_only_to_himself():
    state = _dealt()
    for action in ("bid 61", "bid 70", "pass", "pass", "pass", "pass"):
        state.apply(action)
    before = len(state.events)
    state.apply("call DA")
    call = ("[bold]Seat 2 calls DA (Ace of Diamonds)[/bold]: trumps D (Diamonds); whoever holds it is Seat 2's "
            "secret partner")
    for seat in (None, 0, 3, 4):   # neither the caller nor the holder: one line, no partner named
        lines = action_lines(1, "call DA", _visible(state, seat, before), Names(state.game, "en", human=seat))
        assert lines == [call]
    lines = action_lines(1, "call DA", _visible(state, 1, before), Names(state.game, "en", human=1))
    assert lines == ["[bold]You call DA (Ace of Diamonds)[/bold]: trumps D (Diamonds); whoever holds it is your "
                     "secret partner"]
    lines = action_lines(1, "call DA", _visible(state, 2, before), Names(state.game, "en", human=2))
    assert lines == [call, "You hold the called card and are Seat 2's partner (secret until it is played)"]


def test_tables_keep_the_partner_secret_until_the_called_card_is_played():
    state = _called()
    partner_rows = {
        None: "secret: the holder of DA, known when it is played",
        0: "secret, not you: the holder of DA, known when it is played",
        1: "secret: the holder of DA, known when it is played",
        2: "you: you hold DA (secret until you play it)",
        3: "secret, not you: the holder of DA, known when it is played",
    }
    while not any(ev["type"] == "partner_revealed" for _aud, ev in state.events):
        for seat, expected in partner_rows.items():
            n = Names(state.game, "en", human=seat)
            rows = dict(bt.rows(state.view(seat), n))
            assert rows["Contract"] == ("you" if seat == 1 else "Seat 2") + " bid 70 (of 120 card points)"
            assert rows["Called card"] == "DA (Ace of Diamonds), trumps D (Diamonds)"
            assert rows["Caller's partner"] == expected
            if seat != 2:   # nothing but the holder's own table names seat 3 as the partner
                about = [text for label, text in rows.items() if label != "Card points"]
                assert "Seat 3" not in " ".join(about), rows
                assert "Sides" not in rows and "caller's side" not in rows.get("Card points", "")
        state.apply(state.legal_actions()[0])
    n = Names(state.game, "en", human=3)
    revealed = next(ev for _aud, ev in state.events if ev["type"] == "partner_revealed")
    assert describe_event(revealed, n) == "[bold]Seat 3 is Seat 2's partner[/bold] (the called card is out)"
    assert describe_event(revealed, Names(state.game, "en", human=1)) == \
        "[bold]Seat 3 is your partner[/bold] (the called card is out)"
    assert describe_event(revealed, Names(state.game, "en", human=2)) == \
        "[bold]You are Seat 2's partner[/bold] (the called card is out)"
    rows = dict(bt.rows(state.view(3), n))
    assert rows["Caller's partner"] == "Seat 3, revealed when DA was played"
    assert rows["Sides"] == "Seat 2 + Seat 3 against Seat 1, you (Seat 4), Seat 5"
    assert rows["Card points"].endswith("; caller's side 36 of the 70 needed")


def test_hand_result_with_points_and_marche_and_no_raw_fields():
    state = _called()
    while state.hand_number == 1:
        state.apply(state.legal_actions()[0])
    result = next(ev for _aud, ev in state.events if ev["type"] == "hand_result")
    n = Names(state.game, "en", human=3)
    assert describe_event(result, n) == (
        "[bold]Hand 1: Seat 2 bid 70, called DA (Ace of Diamonds), held by Seat 3; [green]made[/green] with 120 of "
        "120 card points (opponents 0); points Seat 1 0, Seat 2 60, Seat 3 60, you (Seat 4) 0, Seat 5 0; "
        "marche Seat 1 -1, Seat 2 +2, Seat 3 +1, you (Seat 4) -1, Seat 5 -1[/bold]")
    text = _table_text(state.view(3), n)
    assert "Last hand" in text and "marche Seat 1 -1, Seat 2 +2, Seat 3 +1, you (Seat 4) -1, Seat 5 -1" in text
    assert "Seat 0" not in text and "Seat 6" not in text
    for raw in RAW_LABELS:
        assert raw not in text, raw


def test_cappotto_throw_in_playing_alone_and_match_end():
    state = _dealt(opening_bid_compulsory=False, hands_per_match=1, cappotto_double=True)
    lines = [line for _ in range(5) for line in _act(state, "pass", 1)]
    assert ("[bold]All five passed: the cards are thrown in[/bold]; no marche, the next dealer deals hand 1 "
            "again") in lines
    assert lines[-1] == "You open the auction; the first bid is at least 61"   # the new deal follows at once
    assert dict(bt.rows(state.view(1), Names(state.game, "en", 1)))["Last hand"] == \
        "Hand 1: thrown in (all five passed), no marche"
    for action in ("bid 120", "pass", "pass", "pass", "pass"):   # seat 2 (0-based 1) opens the new deal
        state.apply(action)
    own = state.view(1)["hand"][0]
    assert _act(state, f"call {own}", 1)[-1] == \
        "You hold the called card and play alone against the other four (secret until it is played)"
    assert dict(bt.rows(state.view(1), Names(state.game, "en", 1)))["Caller's partner"] == \
        f"none: you hold {own} yourself and play alone (secret until you play it)"
    n = Names(state.game, "en", human=0)
    assert dict(bt.rows(state.view(0), n))["Caller's partner"].startswith("secret, not you")
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    told = {ev["type"]: describe_event(ev, n) for _aud, ev in state.events}
    assert told["partner_revealed"] == "[bold]Seat 2 plays alone[/bold] (the called card was Seat 2's own)"
    result = next(ev for _aud, ev in state.events if ev["type"] == "hand_result")
    assert result["cappotto"] and ", cappotto: marche doubled; points " in told["hand_result"]
    assert f"called {n.card_label(own)} and held it (alone)" in told["hand_result"]
    won = state.view(None)["winners"]
    winners = ", ".join(n.seat(s) for s in won)
    others = ", ".join(n.seat(s) for s in won if s != 0)
    assert 0 in won and others   # the reader shares the win: told to him in the second person
    assert told["match_end"].startswith(f"[bold]Match end[/bold]: you and {others} win with ")
    assert describe_event(state.events[-1][1], Names(state.game, "en")).startswith(   # a spectator: as it was
        f"[bold]Match end[/bold]: won by {winners.replace('you (Seat 1)', 'Seat 1')} with ")
    rows = dict(bt.rows(state.view(0), n))
    assert rows["Winners"] == winners and "Contract" not in rows


def test_extra_rounds_show_in_the_match_row():
    state = _dealt(hands_per_match=1, tie_break="extra_rounds")
    for action in ("bid 120", "pass", "pass", "pass", "pass", "call H2"):   # seat 1 alone at 120
        state.apply(action)
    while state.hand_number == 1:
        state.apply(state.legal_actions()[0])
    assert not state.is_terminal()   # alone and failed: four seats tied at +1
    n = Names(state.game, "en", human=None)
    assert dict(bt.rows(state.view(None), n))["Match"] == "extended to 6 hands: the top total was tied after 1"
    extended = next(ev for _aud, ev in state.events if ev["type"] == "match_extended")
    tied = ", ".join(n.seat(s) for s in extended["tied"])
    assert len(extended["tied"]) == 4 and describe_event(extended, n) == (
        f"[bold]The top total is tied[/bold] ({tied}): the match goes on to hand 6")
    assert "Match extended" not in _table_text(state.view(None), n)


def test_a_trick_is_told_with_its_points():
    n = Names(stich.game("biscambiggia"), "en", human=2)
    mine, theirs = {"type": "trick", "winner": 2, "points": 21}, {"type": "trick", "winner": 0, "points": 1}
    assert describe_event(mine, n) == "[green]You win the trick (21 points)[/green]"
    assert describe_event(theirs, n) == "[green]Seat 1 wins the trick (1 point)[/green]"


def test_a_replayed_match_has_no_generic_lines():
    state = _called()
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    for seat in (None, 2):
        console = make_console(file=io.StringIO(), width=200)
        replay_record(state.record(), seat=seat, console=console, lang="en")
        out = console.file.getvalue()
        for generic in ("auction start:", "contract:", "call:", "partner revealed:", "hand result:", "match end:",
                        "Hand 1 result", "Seat 2: bid", "Seat 2: call"):
            assert generic not in out, generic
        assert ("You hold the called card" in out) == (seat == 2)


OPTION_SETS = [
    {},
    {"opening_bid_compulsory": False, "hands_per_match": 3},
    {"tie_break": "extra_rounds", "hands_per_match": 2, "cappotto_double": True},
    {"piles_inspectable": True, "allow_call_own_card": False, "follow_suit": True, "ranking": "briscola",
     "hands_per_match": 3},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "default")
def test_sweep_every_event_is_told_and_every_table_renders(options):
    g = stich.game("biscambiggia", **options)
    seen = set()
    for seed in range(2):
        state = g.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            passes = [a for a in legal if str(a) == "pass"]
            state.apply(passes[0] if passes and rng.random() < 0.8 else rng.choice(legal))
            if rng.random() < 0.05:
                seat = rng.choice([None, 0, 1, 2, 3, 4])
                text = _table_text(state.view(seat), Names(g, "en", seat))
                assert "Seat 0" not in text and "Traitor public" not in text and "{" not in text
        for _aud, ev in state.events:
            seen.add(ev["type"])
            for human in (None, 0):
                line = game_line(ev, Names(g, "en", human))
                if ev["type"] in SHARED:
                    assert line is NotImplemented
                else:
                    assert isinstance(line, str) and line, ev
                    assert "Seat 0" not in line
    assert seen - SHARED <= set(bt.TELLERS)
    assert {"bid", "contract", "call", "partner", "partner_revealed", "hand_result", "match_end"} <= seen
    assert ("throw_in" in seen) == (options.get("opening_bid_compulsory") is False)
