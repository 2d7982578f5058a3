"""The match result in words: "You and Seat 3 win 18:16", "Seat 2 wins with 124 (...)", "A draw"."""

import random

import stich
from stich.cli.render import match_result_text
from stich.narration import Names


def finished(game, variant=None, seed=3):
    state = stich.game(game, variant).new_state(seed=seed)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


def words(state, human):
    return match_result_text(state.view(human), state.returns(), Names(state.game, "en", human))


def test_sides_read_winners_first_then_the_score():
    state = finished("watten", "euregio", seed=8)   # returns [1, -1, 1, -1], scores [18, 17]
    assert state.returns() == [1, -1, 1, -1]
    assert words(state, 0) == "You and Seat 3 win 18:17"
    assert words(state, 1) == "Seat 1 and Seat 3 win 18:17; you lose"
    state = finished("battn")                       # returns [-1, 1, -1, 1], scores [19, 28]
    assert words(state, 3) == "You and Seat 2 win 28:19"


def test_three_seats_and_more_name_the_winner_and_every_total():
    state = finished("watten", "bavarian_3")        # returns [1, -0.5, -0.5], scores [14, 7, 4]
    assert words(state, 1) == "Seat 1 wins 14:7:4; you lose"
    state = finished("barbu")                       # totals [124, -91, -5, -28]
    assert words(state, 0) == "You win with 124 (Seat 2 -91, Seat 3 -5, Seat 4 -28)"


def test_a_draw():
    view = {"scores": [5, 5], "num_players": 2}
    assert match_result_text(view, [0.0, 0.0], Names(stich.game("watten", "bavarian_2"), "en", 0)) == "A draw"
