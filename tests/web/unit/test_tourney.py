"""The tournaments' pure parts (stich.web.tourney): the draws, the scoring, the checked request, and the
engine fact duplicate rests on (docs/tournaments.md)."""

from __future__ import annotations

import itertools
import random

import pytest

import stich
from stich.web.spec import BadRequest
from stich.web.tourney import draw, scoring
from stich.web.tourney.rules import parse_tournament
from stich.web.tourney.stored import sides_of


def _players(n, bots=0):
    return [{"name": f"P{i}", "kind": "human"} for i in range(n - bots)] + \
           [{"name": f"B{i}", "kind": "bot:random"} for i in range(bots)]


def test_preiswatten_draw_of_16_redraws_partners_without_repeats():
    """16 players, three rounds of four-player Watten: nobody has the same partner twice, and the draw
    is a function of the generator's seed (the tournament's secret)."""
    sides = sides_of(stich.game("watten", "tyrolean"))
    assert sides == [0, 1, 0, 1]
    hist, rounds = draw.History(), []
    for r in range(3):
        tables = draw.draw_round(list(range(16)), 4, hist, sides, random.Random(f"t/{r}"))
        assert sorted(p for t in tables for p in t) == list(range(16))
        assert tables == draw.draw_round(list(range(16)), 4, hist, sides, random.Random(f"t/{r}"))
        for t in tables:
            hist.add(t, sides)
        rounds.append(tables)
    assert max(hist.partnered.values()) == 1, "a partnership was drawn twice"
    assert max(hist.met.values()) <= 2


def test_swiss_pairs_by_standing_without_repeats():
    sides = [0, 1]   # two-player Watten
    hist = draw.History()
    for t in [[0, 1], [2, 3], [4, 5]]:
        hist.add(t, sides)
    tables = draw.draw_swiss([0, 1, 2, 3, 4, 5], 2, hist, sides)
    # greedy would give [0, 2], [1, 3] and leave 4 and 5, who met: the search looks ahead
    assert tables == [[0, 2], [1, 4], [3, 5]]
    assert all(hist.met[draw.pair(*t)] == 0 for t in tables)


def test_duplicate_seats_rotate_each_player_through_the_seats():
    sides = list(range(4))   # Barbu: no partners
    hist = draw.History()
    for r in range(4):
        for t in draw.draw_duplicate(list(range(8)), 4, hist, sides, random.Random(r)):
            hist.add(t, sides)
    assert all(hist.seats[(p, s)] == 1 for p in range(8) for s in range(4)), "a seat was held twice in 4 rounds"


def test_match_points_rank_by_the_same_cards_and_leave_bots_unranked():
    # one duplicate round, three tables: seat 0 scored 5, 5, 1; seat 1 scored 0, 2, 4
    played = [scoring.Played(1, 1, [0, 1], {"scores": [5, 0], "won": [True, False]}),
              scoring.Played(1, 2, [2, 3], {"scores": [5, 2], "won": [True, False]}),
              scoring.Played(1, 3, [4, 5], {"scores": [1, 4], "won": [False, True]})]
    table = scoring.standings(["a", "b", "c", "d", "e", "f"], [False] * 5 + [True], played, "duplicate",
                              False, [0, 1])
    by = {s["name"]: s for s in table}
    assert by["a"]["score"] == by["c"]["score"] == 1.5 and by["e"]["score"] == 0   # beat one, tied one
    assert by["f"]["score"] == 2 and by["f"]["rank"] is None and by["f"]["bot"]     # top, but a bot
    assert by["a"]["rank"] == by["c"]["rank"] == 1 and by["d"]["rank"] == 3          # shared rank, then 3
    assert by["d"]["tiebreaks"]["tops"] == 0 and by["f"]["tiebreaks"]["tops"] == 1
    assert [s["name"] for s in table][-1] == "f"   # the sheet read from the top names people only


def test_preiswatten_scores_twenty_per_match_won_then_match_points():
    played = [scoring.Played(1, 1, [0, 1, 2, 3], {"scores": [15, 9, 15, 9], "won": [True, False, True, False]}),
              scoring.Played(2, 1, [0, 2, 1, 3], {"scores": [15, 13, 15, 13], "won": [True, False, True, False]})]
    table = scoring.standings(list("abcd"), [False] * 4, played, "rounds", True, [0, 1, 0, 1])
    assert [(s["name"], s["score"], s["tiebreaks"]["points"], s["rank"]) for s in table] == \
        [("a", 40, 30, 1), ("c", 20, 28, 2), ("b", 20, 24, 3), ("d", 0, 22, 4)]


def test_paper_result_is_checked():
    sides = [0, 1, 0, 1]
    assert scoring.paper_result([15, 9, 15, 9], sides, True)["won"] == [True, False, True, False]
    with pytest.raises(BadRequest, match="partners"):
        scoring.paper_result([15, 9, 14, 9], sides, True)
    with pytest.raises(BadRequest, match="4 numbers"):
        scoring.paper_result([15, 9], sides, True)


@pytest.mark.parametrize(("body", "message"), [
    ({"game": "watten", "format": {"kind": "duplicate", "rounds": 1, "games_per_round": 4}}, "cut"),
    ({"game": "barbu", "format": {"kind": "duplicate", "rounds": 1, "games_per_round": 4}}, "28 deals"),
    ({"game": "biscambiggia", "format": {"kind": "rounds", "rounds": 1, "games_per_round": 1}}, "add 3 player"),
    ({"game": "barbu", "format": {"kind": "knockout", "rounds": 1, "games_per_round": 1}}, "format.kind"),
    ({"game": "barbu", "format": {"kind": "swiss", "rounds": 0, "games_per_round": 1}}, "format.rounds"),
])
def test_bad_requests_say_why(body, message):
    with pytest.raises(BadRequest, match=message):
        parse_tournament({**body, "players": _players(7)})


def test_duplicate_sets_the_match_length_in_deals():
    cfg = parse_tournament({"game": "biscambiggia", "format": {"kind": "duplicate", "rounds": 2, "games_per_round": 3},
                            "players": _players(10, bots=2)})
    assert cfg.game.options["hands_per_match"] == 3 and cfg.tables == 2


@pytest.mark.parametrize(("name", "options"), [("biscambiggia", {"hands_per_match": 3}), ("barbu", {})])
def test_duplicate_games_deal_from_the_seed_alone(name, options):
    """Why duplicate is offered for these games: two tables dealt from one seed hold the same cards,
    seat for seat, deal after deal, whatever is played."""
    game = stich.game(name, **options)

    def deals(play_seed):
        s, rng = game.new_state(seed=11), random.Random(play_seed)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
        return [(e["seat"], e["cards"]) for _aud, e in s.events if e.get("type") == "deal"]

    a, b = deals(1), deals(2)
    assert a == b and len(a) >= game.num_players


def test_table_cost_counts_partners_heavier_than_meetings():
    hist = draw.History()
    hist.add([0, 1, 2, 3], [0, 1, 0, 1])
    assert draw.table_cost([0, 1, 2, 3], hist, [0, 1, 0, 1]) == 2 * draw.PARTNER_COST + 6
    assert draw.table_cost([0, 2, 1, 3], hist, [0, 1, 0, 1]) == 6
    assert all(hist.met[draw.pair(a, b)] == 1 for a, b in itertools.combinations(range(4), 2))
