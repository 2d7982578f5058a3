"""Raising as a bet: the arithmetic (``stich.bots.bets``), the heuristic's and pimc's use of it,
the classic bots kept for measurement, and the levels."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stich
from stich.bots import bets, bot_class, make_bot
from stich.bots.bets import Score, break_even, kind_of, match_win, race_win, respond, should_raise


def test_linear_break_even_is_one_over_two_stake_plus_one():
    for s in (2, 3, 4, 7):
        assert break_even(Score(), s) == pytest.approx(1 / (2 * (s + 1)), abs=1e-6)


def test_raise_only_as_the_favourite():
    for score in (Score(), Score.of(4, 4, 18)):
        assert not should_raise(score, 0.45, 2)
        assert not should_raise(score, 0.52, 2)      # within the estimation margin
        assert should_raise(score, 0.7, 2)
    assert respond(Score(), 0.3, 2, can_raise=True) == "accept"
    assert respond(Score(), 0.1, 2, can_raise=True) == "fold"
    assert respond(Score(), 0.8, 2, can_raise=True) == "raise"


def test_match_win_is_a_probability_and_symmetric():
    assert match_win(18, 18) == pytest.approx(0.5)
    assert match_win(0, 5) == 1.0 and match_win(5, 0) == 0.0
    assert match_win(3, 15) > 0.9 > 0.1 > match_win(15, 3)


def test_the_score_changes_what_a_point_is_worth():
    # folding would give the opponents the match: accept whatever the hand
    assert respond(Score.of(0, 15, 18), 0.02, 3) == "accept"
    # the stake already wins me the match: a raise adds nothing and risks more, even with a strong hand
    assert not should_raise(Score.of(16, 0, 18), 0.9, 2) and should_raise(Score.of(0, 0, 18), 0.9, 2)
    # near my target a point I lose costs more than one I win gains: accepting needs more
    assert break_even(Score.of(14, 0, 18), 2) > break_even(Score.of(0, 0, 18), 2) + 0.04
    # a far-off target leaves the linear break-even nearly as it is
    assert break_even(Score.of(0, 0, 100), 2) == pytest.approx(1 / 6, abs=0.02)


def test_with_own_scores_the_match_is_a_race_against_every_other_seat():
    """Three-player Watten: everybody keeps his own score, so the partner of a hand is a rival
    for the match (R18; docs/rules/watten.md §2.B3)."""
    # two players: the race is the two-sided score
    assert Score.race(8, [5], [], 11) == Score.of(8, 5, 11)
    # in the duo at 8, the partner at 9, the solo at 5 (to 11): winning the hand for 2 makes the
    # partner win the match - worth nothing to me - and losing it is not the end
    duo = Score.race(8, [5], [9], 11)
    assert duo.value(won=2) == 0.0 < duo.value(lost=2)
    assert Score.of(8, 5, 11).value(won=2) > 0.8            # what the two-sided score thought
    assert respond(duo, 0.9, 2) == "fold"                  # so a raise of the solo is folded
    # both of the duo reach the target with the hand: the higher total wins, equal totals share (R18)
    assert Score.race(10, [0], [9], 11).value(won=2) == 1.0
    assert Score.race(9, [0], [10], 11).value(won=2) == 0.0
    assert Score.race(9, [0], [9], 11).value(won=2) == 0.5
    # the solo races both of the duo: a hand they win takes both a step closer
    solo = Score.race(5, [8, 9], [], 11)
    assert solo.need_them == 2 and solo.also_them == (3,)
    assert solo.value(lost=1) < Score.of(5, 9, 11).value(lost=1)
    # the sides of the hand come from the world
    from stich.bots.search.betting import match_score

    state = stich.game("watten", variant="bavarian_3").new_state(seed=1)
    state.scores = [5, 8, 9]                                 # forehand (seat 0) alone
    assert match_score(state, 1, {"options": {"target": 11}}) == duo
    assert match_score(state, 0, {"options": {"target": 11}}) == solo


@settings(max_examples=200, deadline=None)
@given(st.tuples(st.integers(1, 15), st.integers(1, 15), st.integers(1, 15)), st.integers(0, 2))
def test_three_seat_race_shares_the_match(needs, solo):
    """The three-seat race (Watten for three) is a distribution over who wins the match: the
    shares sum to one, and a point more never lowers a seat's share.

    (Two seats of the duo are not ordered by their needs alone: the next solo is the next seat, so
    who plays alone next counts too - needing (6, 5, 1) with seat 2 solo, seat 0, solo next,
    has 0.107 and seat 1 0.079.  The earlier form of this test claimed that order; hypothesis found
    the counterexample.)"""
    shares = race_win(needs, solo)
    assert sum(shares) == pytest.approx(1.0) and all(0.0 <= x <= 1.0 for x in shares)
    for i in range(3):
        if needs[i] > 1:
            closer = tuple(n - (k == i) for k, n in enumerate(needs))
            assert race_win(closer, solo)[i] >= shares[i] - 1e-12


def test_the_solo_does_not_gamble_for_a_race_he_is_not_losing():
    """From 0 : 0 : 0 the solo's raise needs a real chance; the product of two-seat races (which
    treats the two of the duo as independent rivals) had him raise at 0.4 for 2 and at 0.2 from
    5.  Far behind, a gamble is right: losing at the lower stake loses the match anyway."""
    start = Score.race(0, [0, 0], [], 11)
    assert start.value() == pytest.approx(1 / 3, abs=0.01)
    assert not should_raise(start, 0.4, 2) and should_raise(start, 0.7, 2)
    assert not should_raise(Score.race(0, [2, 0], [], 11), 0.2, 5)
    assert should_raise(Score.race(2, [5, 6], [], 11), 0.2, 4)   # behind 2 : 5 : 6
    # a long match (any target is allowed) stays cheap: the needs are scaled to RACE_CAP
    assert match_win(1000, 1000) == pytest.approx(0.5) and match_win(500, 1000) > 0.99
    assert Score.race(0, [0, 0], [], 500).value(won=4) == pytest.approx(1 / 3, abs=0.02)
    assert Score.race(30, [0, 0], [], 90).value() > 0.6 > Score.race(0, [30, 30], [], 90).value()


def test_kind_of_reads_the_games_declarations():
    assert kind_of(["accept", "fold", "raise"], "watten") == "answer"
    assert kind_of(["hold", "concede"], "watten") == "go_on"
    assert kind_of(["orbi_accept", "orbi_refuse"], "battn") == "go_on"
    assert kind_of(["orbi_accept", "orbi_refuse"], "watten") is None     # no Orbi in Watten
    assert kind_of(["play EO", "play H7", "raise"], "watten") == "raise"
    assert kind_of(["pass", "raise"], "battn") == "raise"
    assert kind_of(["pass", "raise"], "watten") is None                  # Watten has no raise poll
    assert kind_of(["play EO", "play H7"], "watten") is None and kind_of(["schlag 7", "schlag 8"], "watten") is None
    assert kind_of(["bid 61", "pass"], "biscambiggia") is None and kind_of(["accept", "fold"], None) is None


def test_every_game_declares_its_bets_and_decisions():
    """The generic layers read the verbs from the games (``rulesets/<game>/bets.py``)."""
    from stich.engine import companion

    for name in ("watten", "battn", "biscambiggia", "barbu"):
        decl = bets.declared(name)
        assert companion(name, "bets") is not None and decl.decided
        game = stich.game(name)
        verbs = {a.verb for a in game.action_space}
        named = set(decl.decided) | set(decl.gives) | set(decl.gives.values()) | {decl.raise_verb, decl.poll_pass}
        assert named - {None} <= verbs, (name, named - verbs)


def test_search_names_no_game_and_no_game_verb():
    """Issue #12: the code of ``bots/search`` (docstrings and comments aside) names no game and
    none of the game verbs the bets declarations carry."""
    import ast
    import pathlib

    import stich.bots.search as search

    words = {"watten", "battn", "biscambiggia", "barbu", "orbi", "ansage"}
    for name in ("watten", "battn", "biscambiggia", "barbu"):
        decl = bets.declared(name)
        words |= set(decl.decided) | set(decl.gives) | set(decl.gives.values()) | {decl.raise_verb, decl.poll_pass}
    words -= {None, "play"}
    for path in pathlib.Path(search.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                    and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                body[0] = ast.Pass()   # a docstring
        code = ast.unparse(tree)   # without comments
        strings = {n.value.lower() for n in ast.walk(ast.parse(code))
                   if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        assert not {w for w in words if w in strings}, (path.name, {w for w in words if w in strings})
        games = ("watten", "battn", "biscambiggia", "barbu", "orbi", "ansage")
        assert not [w for w in games if w in code.lower()], path.name


#: what the seeded random play toward a position avoids (bets, give-aways, exchanges)
NOT_CALM = ("raise", "fold", "ask_exchange", "ask_swap", "scheanara", "orbi", "concede", "orbi_refuse", "x_decline")


def _reach(name, variant, seed, found, what):
    """The first state at which ``found(state, legal)`` holds, over seeded deals played on by
    random calm actions."""
    game = stich.game(name, variant=variant) if variant else stich.game(name)
    rng = random.Random(seed)
    for attempt in range(400):
        state = game.new_state(seed=seed * 1000 + attempt)
        while not state.is_terminal():
            legal = state.legal_actions()
            if found(state, legal):
                return state
            calm = [a for a in legal if a.verb not in NOT_CALM]
            state.apply(rng.choice(calm or legal))
    raise AssertionError(f"no {what} reached")


def _answer_view(name, variant, seed):
    """A state in which a seat answers a raise."""
    def raisable(state, legal):
        if not {"raise", "play"} <= {a.verb for a in legal}:
            return False
        after = state.clone()
        after.apply("raise")
        return "accept" in {a.verb for a in after.legal_actions()}

    state = _reach(name, variant, seed, raisable, "raise")
    state.apply("raise")
    return state


@pytest.mark.parametrize("kind", ["heuristic", "pimc"])
def test_answers_are_legal_and_seeded(kind):
    state = _answer_view("watten", "euregio", 3)
    seat = state.current_player
    view = json.loads(json.dumps(state.view(seat)))
    legal = [str(a) for a in state.legal_actions()]
    a = make_bot(kind, seed=5, budget=8 if kind == "pimc" else None).choose(json.loads(json.dumps(view)), legal)
    b = make_bot(kind, seed=5, budget=8 if kind == "pimc" else None).choose(json.loads(json.dumps(view)), legal)
    assert a == b and a in legal


def test_pimc_estimates_the_chance_of_the_hand():
    """pimc's p tracks the hand: after a raise it sees how often it wins the hand when accepting."""
    state = _answer_view("watten", "bavarian_4", 4)
    seat = state.current_player
    bot = make_bot("pimc", seed=1, budget=8)
    legal = [str(a) for a in state.legal_actions()]
    choice = bot.choose(state.view(seat), legal)
    kind, p, stake, answer = bot.last_bet
    assert kind == "answer" and 0.0 <= p <= 1.0 and answer == choice
    from stich.bots.search.betting import match_score, refusal_cost

    score = match_score(state, seat, state.view(seat))   # the real state has the worlds' scores
    cost = refusal_cost(state, seat, "fold")
    assert cost == stake
    assert choice == bets.respond(score, p, stake, fold_loses=cost, can_raise="raise" in legal)


def _raise_or_card(name, variant, seed, most_cards):
    """A state in which a seat may raise or play a card, with at most ``most_cards`` cards left."""
    from stich.bots.search.solver import cards_left

    def found(state, legal):
        return {"raise", "play"} <= {a.verb for a in legal} and cards_left(state) <= most_cards \
            and sum(a.verb == "play" for a in legal) > 1

    return _reach(name, variant, seed, found, "raise-or-card decision")


def test_the_card_search_counts_each_cards_chance_to_win():
    """pimc_search's p is the chosen card's share of won hands over the worlds, by their weights:
    checked against an exact solve of every world (few cards left: every evaluation is exact)."""
    from stich.bots.base import Budget
    from stich.bots.search.common import Clock, draw_worlds, score_vector
    from stich.bots.search.solver import SOLVE_NODES, pimc_search, solve

    state = _raise_or_card("watten", "bavarian_2", 5, 8)
    seat = state.current_player
    view = state.view(seat)
    cards = [str(a) for a in state.legal_actions() if a.verb == "play"]
    worlds = draw_worlds(view, random.Random(2), 12, None)
    assert len(worlds) == 12

    def won(world, card):
        s = world.clone()
        s.apply(card)
        v = solve(s, seat, world.hand_number, score_vector(world), -1e300, 1e300, [SOLVE_NODES])
        return 1.0 if v > 0 else (0.5 if v == 0 else 0.0)

    clock = Clock(Budget(iterations=12), 16)
    best, p = pimc_search(worlds, seat, cards, clock, random.Random(3), 4, 12)
    assert best in cards
    assert p == pytest.approx(sum(won(w, best) for w in worlds) / len(worlds))
    weights = [0.0] * 11 + [1.0]                   # only the last world counts for p
    best2, p2 = pimc_search(worlds, seat, cards, Clock(Budget(iterations=12), 16), random.Random(3), 4, 12,
                            weights)
    assert best2 == best and p2 == won(worlds[-1], best)


def test_pimc_raises_or_plays_from_one_card_search():
    """At a raise-or-card decision the raise follows the bet arithmetic on the card search's p, and
    when it plays on it plays the card that search chose."""
    from stich.bots.search.betting import match_score

    for seed in range(6, 12):
        state = _raise_or_card("watten", "bavarian_2", seed, 8)
        seat = state.current_player
        view = json.loads(json.dumps(state.view(seat)))
        legal = [str(a) for a in state.legal_actions()]
        bot = make_bot("pimc", seed=seed, budget=12)
        choice = bot.choose(view, legal)
        kind, p, stake, answer = bot.last_bet
        assert kind == bets.RAISE and 0.0 <= p <= 1.0
        raising = should_raise(match_score(state, seat, view), p, stake)
        assert (choice == "raise") == raising
        assert answer == ("raise" if raising else "on")
        if not raising:
            assert choice.startswith("play ")


def test_classic_bots_and_levels_are_registered():
    from stich.bots.heuristic import ClassicHeuristicBot
    from stich.bots.levels import LEVELS
    from stich.bots.search import ClassicPIMCBot

    assert bot_class("pimc-classic") is ClassicPIMCBot and bot_class("heuristic-classic") is ClassicHeuristicBot
    assert make_bot("pimc", decisions="heuristic").decisions == "heuristic"
    with pytest.raises(ValueError):
        make_bot("pimc", decisions="guess")
    for name, cls in LEVELS.items():
        assert bot_class(name) is cls
    assert make_bot("max").budget.seconds == 1.0 and make_bot("max", budget=4).budget.iterations == 4


def test_heuristic_folds_junk_and_accepts_a_good_hand():
    """The heuristic's p from its hand strength: a hand with the top trumps accepts, no trumps folds."""
    from stich.bots.heuristic import raising

    assert raising.reads_bets("watten") and raising.reads_bets("battn") and not raising.reads_bets("barbu")
    assert raising.win_chance("watten", 4.0) > 0.7 > 0.2 > raising.win_chance("watten", 1.0)
    assert raising.win_chance("watten", 3.0, their_raises=2) < raising.win_chance("watten", 3.0)
    start = Score.of(0, 0, 18)
    assert respond(start, raising.win_chance("watten", 1.0), 2) == "fold"
    assert respond(start, raising.win_chance("watten", 2.5), 2) == "accept"


def test_lean_model_leaves_bets_to_the_weights():
    """pimc's opponent model does not replay the heuristic for bets (the raises weight the worlds)."""
    from stich.bots.search.betting import WEIGHT, lean_model, raise_weights

    model = lean_model()
    for name, texts in (("watten", ("raise", "accept", "fold")),
                        ("battn", ("raise", "pass", "orbi_accept", "scheanara_pass"))):
        world = stich.game(name).new_state(seed=1)
        for text in texts:
            assert model(world, 1, text) == 1.0      # never asks the heuristic
        assert getattr(world, WEIGHT, 1.0) == 1.0
    state = _answer_view("watten", "euregio", 6)
    seat = state.current_player
    view = state.view(seat)
    assert any(text == "raise" for _who, text, _i in view["actions"])
    weights = raise_weights([state, state.clone()], view)
    assert len(weights) == 2 and all(0.0 < w <= 1.0 for w in weights) and weights[0] == weights[1]


def test_games_without_raising_declare_only_what_differs():
    """Biscambiggia and Barbu have no raise and a fixed stake: their declarations name only the
    decisions they evaluate, and ``declared`` fills in the rest (no raise, no answers, stake 1)."""
    from stich.engine import companion

    for name in ("biscambiggia", "barbu"):
        module = companion(name, "bets")
        assert [n for n in vars(module) if n.isupper()] == ["DECIDED"], name
        decl = bets.declared(name)
        assert decl.raise_verb is decl.accept is decl.fold is decl.poll_pass is None
        assert decl.go_on == {} and decl.gives == {} and decl.uninformative == frozenset()
        assert decl.stake({}) == decl.state_stake(object()) == bets.FIXED_STAKE == 1
        assert decl.kind_of(["pass", "bid 70"]) is None
    assert bets.declared("watten").stake({}) == 2 and bets.declared("watten").raise_verb == "raise"


def test_three_player_reading_knows_the_roles_and_weighs_raises():
    """Bavarian 3: the solo's strength is read higher and the duo's lower than the expected tricks
    (the solo chose the game for his cards), and a raise of the other side counts twice."""
    from stich.rulesets.watten import heuristic as hw

    state = stich.game("watten", variant="bavarian_3").new_state(seed=3)
    bot = make_bot("heuristic", seed=3)
    solo_read = None
    while True:
        seat = state.current_player
        legal = [str(a) for a in state.legal_actions()]
        view = state.view(seat)
        if "raise" in legal and seat == state.forehand and solo_read is None:
            solo_read = hw.bet_reading(view)
            assert solo_read[0] == pytest.approx(hw.expected_tricks(hw.Ctx(view)) + hw.THREE_PLAYER_SHIFT["solo"])
            assert solo_read[4] == 0
            state.apply("raise")
            continue
        if "accept" in legal and solo_read is not None:
            break
        state.apply(bot.choose(view, legal))
    assert seat != state.forehand
    duo_read = hw.bet_reading(view)
    assert duo_read[0] == pytest.approx(hw.expected_tricks(hw.Ctx(view)) + hw.THREE_PLAYER_SHIFT["duo"])
    assert duo_read[4] == 2 * 1                              # the solo's one raise, counted twice
    four = stich.game("watten", variant="bavarian_4").new_state(seed=3)
    v4 = four.view(four.current_player)
    assert hw.bet_reading(v4)[0] == pytest.approx(hw.expected_tricks(hw.Ctx(v4)))   # four players: unshifted
