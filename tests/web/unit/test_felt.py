"""The felt's model (stich.web.ui.felt, .sheet, .table) and the replay's hand ends, on real engine states:
where each seat sits, the trick that closed a hand kept until the next lead, the hand's summary, each
game's score sheet, and the replay's trick labels (issue #34)."""

from __future__ import annotations

import random
import re

import pytest

import stich
from stich.web.ui import render_table
from stich.web.ui.felt import closing_trick, positions
from stich.web.ui.replay import build as replay
from stich.web.ui.sheet import tally

#: actions a steady test player leaves out where it can (they only prolong or end a hand early)
AVOID = ("raise", "fold", "ask_", "challenge", "misraise", "svista", "concede", "orbi ", "double", "redouble")


def ctx_for(state, seat, lang="en"):
    g = state.game
    return {"table": "T", "game": g.name, "variant": g.variant, "options": dict(g.options), "seat": seat,
            "view": state.view(seat), "legal": [str(a) for a in state.legal_actions(seat)] if seat is not None
            else [], "events": state.visible_events(seat), "seats": [], "lang": lang, "seq": 1,
            "finished": state.is_terminal(), "chat": []}


def steady(state, rng):
    legal = state.legal_actions()
    return rng.choice([a for a in legal if not str(a).startswith(AVOID)] or legal)


def to_hand_end(state, rng):
    """Plays to the end of the current hand; the last action's text."""
    hand = state.hand_number
    while state.hand_number == hand and not state.is_terminal():
        action = steady(state, rng)
        state.apply(action)
    return str(action)


@pytest.mark.parametrize("game,variant,me,expected", [
    ("watten", "euregio", 0, ["s", "w", "n", "e"]),          # clockwise: the next seat on the left
    ("watten", "euregio", 2, ["n", "e", "s", "w"]),          # the partner opposite whoever reads
    ("battn", "standard", 0, ["s", "e", "n", "w"]),          # counter-clockwise: the next on the right
    ("biscambiggia", "standard", 3, ["ne", "nw", "w", "s", "e"]),
    ("watten", "bavarian_2", 1, ["n", "s"]),
    ("watten", "bavarian_3", 0, ["s", "nw", "ne"]),
    ("barbu", "standard", None, ["s", "w", "n", "e"]),       # a spectator: seat 1 at the bottom
])
def test_seats_around_the_felt(game, variant, me, expected):
    assert positions(stich.game(game, variant), me) == expected


def test_the_deciding_trick_stays_until_the_next_lead_then_the_summary_moves_aside():
    rng = random.Random(3)
    state = stich.game("watten", "euregio").new_state(seed=11)
    last = to_hand_end(state, rng)
    assert last.startswith("play ")   # decided by its last trick (nobody folded)
    events = state.visible_events(0)
    trick_events = [e for e in events if e.get("type") == "trick"]
    closing = closing_trick(events)
    assert closing["winner"] == trick_events[-1]["winner"]
    assert len(closing["cards"]) == 4 and closing["cards"][-1][1] == last.split()[1]
    page = render_table(ctx_for(state, 0))
    trick = re.search(r'<ol class="trick gathered"[^>]*data-trick[^>]*>(.*?)</ol>', page, re.S).group(1)
    cards = re.findall(r'data-card="(\w+)" data-seat="(\d)"', trick)
    assert sorted(cards) == sorted((c, str(s)) for s, c in closing["cards"])
    summary = page.index("data-hand-result")
    assert page.index("data-trick") < summary < page.index('class="col-side"')   # below the felt
    # the next hand's first card: only it is on the felt; the summary waits beside it
    while not state.view(0).get("trick"):
        state.apply(steady(state, rng))
    assert closing_trick(state.visible_events(0)) is None
    page = render_table(ctx_for(state, 0))
    assert 'class="trick gathered"' not in page and len(re.findall(r'data-card="\w+" data-seat', page)) == 1
    assert page.index('class="col-side"') < page.index("data-hand-result")


def test_the_reader_is_told_they_won_the_trick_in_their_own_words():
    # "Won by You (Seat 1)" read as "Vinta da Tu (Posto 1)", "Gewonnen von Du": the reader's own trick
    # has its own sentence; another seat's keeps the seat's label
    rng = random.Random(5)
    state = stich.game("watten", "euregio").new_state(seed=4)
    seen = set()
    while len(seen) < 2 and not state.is_terminal():
        state.apply(steady(state, rng))
        tricks = [e for e in state.visible_events(0) if e.get("type") == "trick"]
        if state.view(0).get("trick") or not tricks:
            continue
        winner = tricks[-1]["winner"]
        page = render_table(ctx_for(state, 0, "de"))
        said = re.search(r'<p class="won-by">(.*?)</p>', page, re.S).group(1)
        if winner == 0:
            assert said.startswith("Du hast ihn gewonnen") and "Du (Platz" not in said
        else:
            assert f"Gewonnen von Platz {winner + 1}" in said
        seen.add(winner == 0)
    assert seen == {True, False}


def test_a_folded_hand_does_not_bring_back_an_older_trick():
    rng = random.Random(5)
    state = stich.game("watten", "euregio").new_state(seed=2)
    to_hand_end(state, rng)
    # the next hand ends by a fold: no trick closed it, so none is shown
    for _ in range(200):
        legal = [str(a) for a in state.legal_actions()]
        if "fold" in legal and state.view(0).get("tricks") == [] and not state.view(0).get("trick"):
            state.apply("fold")
            break
        if "raise" in legal and not state.view(0).get("trick"):
            state.apply("raise")
            continue
        state.apply(steady(state, rng))
    else:
        pytest.skip("no fold came")
    assert closing_trick(state.visible_events(0)) is None


@pytest.mark.parametrize("game,variant,style,columns", [
    ("watten", "euregio", "strokes", 2), ("battn", "standard", "segnapunti", 2),
    ("biscambiggia", "standard", "marks", 5), ("barbu", "standard", "deals", 4)])
def test_each_games_sheet_adds_up_to_the_score(game, variant, style, columns):
    from stich.i18n import translator
    from stich.web.ui.table import build
    rng = random.Random(7)
    state = stich.game(game, variant).new_state(seed=4)
    for _ in range(3):
        to_hand_end(state, rng)
    model = build(ctx_for(state, 0), translator("de").gettext)
    sheet = model["sheet"]
    assert sheet["style"] == style and len(sheet["heads"]) == columns and len(sheet["rows"]) >= 3
    assert [sum(r["points"][c] for r in sheet["rows"]) for c in range(columns)] == sheet["totals"] \
        == list(state.view(0)["scores"])
    if columns == 2:   # a board is headed "Wir" / "Ihr": the reader's side first here
        assert [h["word"] for h in sheet["heads"]] == ["Wir", "Ihr"]
    if style == "marks":
        assert all(sum(r["points"]) == 0 for r in sheet["rows"])      # marche are zero-sum (BB-6.3)
    if style == "deals":
        assert sheet["deals"] == 28
    assert [sum(g) for g in sheet["tallies"]] == [abs(v) for v in sheet["totals"]]


def test_tally_groups_strokes_by_five():
    assert tally(12) == [5, 5, 2] and tally(5) == [5] and tally(0) == [] and tally(-3) == [3]


def test_the_replay_labels_tricks_by_their_hand_and_shows_a_hand_as_it_ended():
    rng = random.Random(1)
    state = stich.game("watten", "euregio").new_state(seed=8)
    for _ in range(3):
        to_hand_end(state, rng)
    record = state.record()
    r = replay(record, 0, None, "en")
    labels = [text for _step, text in r["marks"]]
    hand, trick = 1, 0
    for text in labels:
        if text == f"Hand {hand}, the end":
            hand, trick = hand + 1, 0
            continue
        trick += 1
        assert text == f"Hand {hand}, trick {trick}", labels
    assert hand == 4
    # the end of hand 1: its number, its deciding trick and summary; the players' hands as they ended
    end = dict((t, s) for s, t in r["marks"])["Hand 1, the end"]
    page = replay(record, end, None, "en")
    assert page["hand"] == 1 and "data-hand-result" in page["html"] and 'class="trick gathered"' in page["html"]
    first = next(s for s, t in r["marks"] if t == "Hand 2, trick 1")
    assert replay(record, first, None, "en")["hand"] == 2
