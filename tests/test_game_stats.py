"""Each game's figures of a finished match (its ``"stats"`` companion, read by ``stich.web.facts``)
against counts taken independently from the record: its actions (who raised, bid, called, folded),
its final scores and the rules' structure (two Ansager a hand, one of each Barbu contract per caller).
One short match per game, random legal moves from a seed through the engine (no server)."""

from __future__ import annotations

import json
import random

import pytest

import stich
from stich.roles.stats import BASE, Figure
from stich.web import facts
from stich.web.ui.figures import chart, rows


def played(name: str, variant: str | None = None, seed: int = 5, **options) -> dict:
    """A finished match of random legal moves, as its record (JSON, as the server stores it)."""
    state = stich.game(name, variant, **options).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return json.loads(json.dumps(state.record()))


def said(record: dict, seat: int, *verbs: str) -> int:
    """How often ``seat`` took an action whose verb is one of ``verbs`` (read from the actions alone)."""
    return sum(1 for s, text in record["actions"] if s == seat and text.split()[0] in verbs)


def all_facts(record: dict) -> list[dict]:
    n = stich.replay(record).game.num_players
    return [facts.of_record(record, seat) for seat in range(n)]


@pytest.mark.parametrize("variant", ["euregio", "bavarian_3", "bavarian_2"])
def test_watten_raises_folds_and_ansager_match_the_actions(variant):
    record = played("watten", variant)
    state = stich.replay(record)
    found = all_facts(record)
    scores = state.hand_summary()["scores"]
    for seat, f in enumerate(found):
        assert set(BASE) <= set(f) and f["hands"] == state.hand_number
        assert f["raises"] == said(record, seat, "raise")
        assert f["folds"] == said(record, seat, "fold", "concede")
        assert 0 <= f["raises_won"] <= f["raises"] and 0 <= f["ansager_won"] <= f["ansager"] <= f["hands"]
        side = state.side_of(seat) if len(scores) < state.game.num_players else seat
        assert f["points"] == scores[side]   # every point the seat's side scored came from a hand it won
    # Ansager: forehand and dealer, two seats a hand (§0); with three players forehand
    # names both (docs/rules/watten.md, the Ansage of bavarian_3)
    n = state.game.num_players
    assert sum(f["ansager"] for f in found) == (1 if n == 3 else 2) * state.hand_number
    # ... and a seat that named a Schlag or a trump or showed its card in a hand (a hand begins with its
    # cut) was an Ansager of it
    hands, announcers = [], set()
    for seat, text in record["actions"]:
        if text.startswith("cut "):
            announcers = set()
            hands.append(announcers)
        elif text.split()[0] in ("schlag", "trump", "show"):
            announcers.add(seat)
    assert all(f["ansager"] >= sum(seat in h for h in hands) for seat, f in enumerate(found))
    assert sum(len(h) for h in hands) > 0
    assert sum(f["raises"] for f in found) > 0   # the seed raises: the counts above are not all zero
    if variant == "euregio":   # partners win the same hands; the two sides share them all
        assert found[0]["won"] == found[2]["won"] and found[0]["won"] + found[1]["won"] == state.hand_number


def test_battn_calls_match_the_actions():
    record = played("battn")
    state = stich.replay(record)
    found = all_facts(record)
    for seat, f in enumerate(found):
        for verb in ("raise", "orbi", "x_play", "scheanara", "fold"):
            assert f[verb] == said(record, seat, verb), verb
            assert 0 <= f[f"{verb}_won"] <= f[verb]
        assert f["hands"] == state.hand_number and f["fold_won"] == 0   # a fold gives the turn away
    scores = state.hand_summary()["scores"]
    assert [found[0]["points"], found[1]["points"]] == scores and found[0]["won"] + found[1]["won"] == found[0]["hands"]
    assert sum(f["raise"] + f["orbi"] for f in found) > 0


def test_biscambiggia_bids_and_roles_match_the_record():
    record = played("biscambiggia", hands_per_match=4)
    state = stich.replay(record)
    found = all_facts(record)
    for seat, f in enumerate(found):
        assert f["bids"] == said(record, seat, "bid")
        assert f["points"] == state.scores[seat]
        assert f["caller"] + f["partner"] + f["defender"] == f["hands"] == 4
    # one caller a hand, as many as auctions won ("call" actions: the winner names the card)
    assert sum(f["caller"] for f in found) == 4 == sum(said(record, s, "call") for s in range(5))
    results = [ev for ev in record["events"] if ev["type"] == "hand_result"]
    assert sum(f["partner"] for f in found) == sum(1 for r in results if not r["alone"])


def test_barbu_contract_averages():
    record = played("barbu")
    state = stich.replay(record)
    found = all_facts(record)
    contracts = ("NO_TRICKS", "NO_HEARTS", "NO_QUEENS", "BARBU", "NO_LAST_TWO", "TRUMPS", "DOMINO")
    for seat, f in enumerate(found):
        assert f["hands"] == 28 and f["points"] == state.scores[seat]
        assert sum(f[f"points_{c}"] for c in contracts) == f["points"]
        # every caller plays each contract once in his seven deals (rules 1.3): four deals of each
        assert all(f[f"deals_{c}"] == 4 and f[f"called_{c}"] == 1 for c in contracts)
        assert f["points_TRUMPS"] >= 0   # a positive contract never costs points
    # the table: each contract's average per deal, and the chart draws it left or right of zero
    table = rows("barbu", found[0])
    by_key = {r["key"]: r for r in table}
    assert by_key["points_BARBU"]["average"] == round(found[0]["points_BARBU"] / 4, 1)
    drawn = chart(table, str)
    assert drawn["averages"] and len(drawn["bars"]) == 7
    for bar in drawn["bars"]:   # a loss ends at zero, a gain starts there
        edge = bar["x"] + bar["width"] if bar["value"].startswith("-") else bar["x"]
        assert edge == pytest.approx(drawn["zero"])
    assert {b["value"][0] for b in drawn["bars"]} == {"-", "+"}   # the seed has both


def test_a_record_not_over_or_a_seat_not_there_is_refused():
    record = played("watten", "bavarian_2")
    with pytest.raises(ValueError, match="no seat"):
        facts.of_record(record, 2)
    short = dict(record, actions=record["actions"][:5], terminal=False)
    short.pop("returns", None)
    short.pop("events", None)
    with pytest.raises(ValueError, match="not over"):
        facts.of_record(short, 0)


def test_totals_add_up_matches_and_rows_show_totals_per_hand_and_shares():
    a = {"hands": 4, "won": 3, "points": 9, "raises": 2, "raises_won": 1, "folds": 0, "ansager": 2, "ansager_won": 2}
    b = {**a, "hands": 6, "won": 1, "points": 3, "raises": 4, "raises_won": 0}
    [w] = facts.totals([("watten", json.dumps(a)), ("watten", json.dumps(b)), ("watten", None)])
    assert (w["matches"], w["counted"], w["totals"]["hands"], w["totals"]["raises"]) == (3, 2, 10, 6)
    table = {r["key"]: r for r in rows("watten", w["totals"])}
    assert table["points"]["per_hand"] == 1.2 and table["won"]["percent"] == 40
    assert (table["raises_won"]["total"], table["raises_won"]["of"]) == (1, 6)
    drawn = chart(list(table.values()), str)
    assert [b["key"] for b in drawn["bars"]] == ["won", "raises_won", "ansager_won"]
    assert drawn["bars"][0]["width"] == 0.4 * drawn["track"]
    with pytest.raises(ValueError, match="needs 'of'"):
        Figure("x", "x", kind="share")
