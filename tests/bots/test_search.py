"""The search bots ``pimc``, ``ismcts`` and the ``cheat`` upper bound: legal, seeded, view-only."""

from __future__ import annotations

import json
import random

import pytest

import stich
from stich.arena.table import ask, fallback_rng
from stich.bots import bot_class, make_bot
from stich.bots.search import CheatBot, ISMCTSBot, PIMCBot
from stich.engine import State
from stich.engine.worlds import supports_worlds

GAMES = [g for g in ("watten", "battn", "biscambiggia", "barbu") if g in stich.games()
         and supports_worlds(stich.game(g))]
SHORT = {"watten": {"target": 3}, "battn": {"target": 3}, "biscambiggia": {"hands_per_match": 1}, "barbu": {}}
# Barbu has no shorter match: the tests play its last two deals (27 and 28) from an explicit set-up.
_ALL = ["NO_TRICKS", "NO_HEARTS", "NO_QUEENS", "BARBU", "NO_LAST_TWO", "TRUMPS", "DOMINO"]
LATE = {"barbu": {"hand_number": 27, "first_caller": 0, "used_contracts": [_ALL, _ALL, _ALL, _ALL[:5]]}}


def test_registered():
    assert bot_class("pimc") is PIMCBot and bot_class("ismcts") is ISMCTSBot and bot_class("cheat") is CheatBot
    assert CheatBot.sees_everything and not PIMCBot.sees_everything and not ISMCTSBot.sees_everything
    assert "upper bound" in CheatBot.__doc__.lower() and "sees all hidden cards" in CheatBot.__doc__.lower()


def mid_hand(name, variant, seed):
    game = stich.game(name, variant=variant)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while True:
        legal = state.legal_actions()
        if len(legal) > 1 and any(a.verb == "play" for a in legal) and rng.random() < 0.5:
            return state
        state.apply(rng.choice(legal))


@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_choice(kind, name):
    variant = stich.game(name).variant
    for seed in (1, 2):
        state = mid_hand(name, variant, seed)
        seat = state.current_player
        view = json.loads(json.dumps(state.view(seat)))
        legal = [str(a) for a in state.legal_actions()]
        a = make_bot(kind, seed=seed, budget=12).choose(json.loads(json.dumps(view)), legal)
        b = make_bot(kind, seed=seed, budget=12).choose(json.loads(json.dumps(view)), legal)
        assert a == b and a in legal


@pytest.mark.parametrize("kind", ["pimc", "ismcts"])
def test_bots_see_only_the_view(kind):
    """A bot gets a JSON copy of the view: other seats' cards are not in it, and changing the
    real state's hidden cards afterwards changes nothing in its choice."""
    state = mid_hand("watten", "euregio", 5)
    seat = state.current_player
    view = json.loads(json.dumps(state.view(seat)))
    assert all(view["known_hands"][s] is None for s in range(4) if s != seat)
    legal = view["legal_actions"]
    first = make_bot(kind, seed=3, budget=10).choose(json.loads(json.dumps(view)), legal)
    for s in range(4):
        if s != seat:
            state.hands[s] = 0
    again = make_bot(kind, seed=3, budget=10).choose(json.loads(json.dumps(view)), legal)
    assert first == again and first in legal


@pytest.mark.parametrize("kind", ["pimc", "ismcts", "cheat"])
@pytest.mark.parametrize("name", GAMES)
def test_complete_matches_with_legal_actions(kind, name):
    cls = stich.engine.game_class(name)
    variants = cls.variants if name == "watten" and kind == "ismcts" else (cls.default_variant,)
    for variant in variants:
        game = stich.game(name, variant=variant, **SHORT[name])
        state = game.new_state(seed=11, **LATE.get(name, {}))
        bots = [make_bot(kind if s % 2 == 0 else "random", seed=s, budget=6) for s in range(game.num_players)]
        steps = 0
        while not state.is_terminal():
            seat = state.current_player
            action, fault = ask(bots[seat], state, seat, fallback_rng(11, seat))
            assert fault is None, fault
            state.apply(action)
            steps += 1
            assert steps < 20_000
        assert state.is_terminal()
        if name not in LATE:   # a match started at deal 27 need not be zero-sum
            assert abs(sum(state.returns())) < 1e-9


def _decision(name, variant, seed, want):
    """A state of a match between heuristic players where ``want(legal)`` holds."""
    from stich.bots.heuristic import HeuristicBot

    game = stich.game(name, variant=variant)
    state = game.new_state(seed=seed)
    bot = HeuristicBot(seed=seed)
    while not state.is_terminal():
        legal = [str(a) for a in state.legal_actions()]
        if want(legal):
            return state, legal
        state.apply(bot.choose(state.view(state.current_player), legal))
    return None, None


@pytest.mark.parametrize("kind", ["pimc-classic", "ismcts"])
def test_non_card_decisions_go_to_the_heuristic_by_default(kind):
    """``search_only="auto"``: in Watten only card play is searched; an Ansage or an answer to a
    raise is the heuristic's choice (hybrid: a raise offered with the cards too).  ``pimc``
    evaluates these itself (``test_decide.py``, ``test_bets.py``)."""
    from stich.bots.heuristic import HeuristicBot

    found = 0
    for seed in range(1, 8):
        state, legal = _decision("watten", "bavarian_4", seed,
                                 lambda lg: len(lg) > 1 and not any(a.startswith("play") for a in lg))
        if state is None:
            continue
        view = json.loads(json.dumps(state.view(state.current_player)))
        bot = make_bot(kind, seed=seed, budget=4)
        expected = HeuristicBot(seed=random.Random(seed).randrange(2**31))
        assert bot.choose(view, legal) == expected.choose(view, legal)
        found += 1
    assert found


def test_search_only_and_options():
    bot = make_bot("pimc", seed=1, search_only="play,raise", rollouts=2, exact_cards=8)
    assert bot.search_only == ["play", "raise"] and bot.rollouts == 2 and bot.exact_cards == 8
    assert make_bot("ismcts", seed=1, pool_size=8).pool_size == 8
    assert make_bot("pimc", seed=1).searched_verbs("watten") == ["play"]
    assert make_bot("pimc", seed=1, search_only=None).searched_verbs("watten") is None
    with pytest.raises(TypeError):
        make_bot("ismcts", seed=1, no_such_knob=3)
    with pytest.raises(TypeError):
        make_bot("pimc", seed=1, pool_size=3)   # an ismcts knob


def test_three_player_watten_is_solved_by_sides():
    """Three-player Watten is one against two (``state.side_of``): the exact solver applies."""
    game = stich.game("watten", variant="bavarian_3")
    assert game.two_sided
    state = game.new_state(seed=3)
    assert sorted(state.side_of(s) for s in range(3)) == [0, 1, 1]
    seat = state.current_player
    view = json.loads(json.dumps(state.view(seat)))
    legal = [str(a) for a in state.legal_actions()]
    assert make_bot("pimc", seed=1, budget=3, search_only=None).choose(view, legal) in legal


class _NoChance(random.Random):
    """An rng that refuses to be asked: a playout policy that consults it decided nothing."""

    def randrange(self, *args, **kwargs):
        raise LookupError("the policy fell back to a random card")


@pytest.mark.parametrize("name", ["watten", "battn", "biscambiggia", "barbu"])
def test_playout_policies_choose_legal_cards_by_reading_the_state(name):
    """Every game's playout policy returns a legal card, and in many positions (a trick being
    followed) decides by the state's fields without chance: a renamed field it reads makes it raise
    (AttributeError) or fall back to random cards everywhere, and this test fails."""
    game = stich.game(name)
    assert game.state_class.playout_card is not State.playout_card   # the game has its own
    rng = random.Random(4)
    decided = asked = 0
    for seed in range(3):
        state = game.new_state(seed=seed)
        for _ in range(400):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            plays = [a for a in legal if a.verb == game.card_verb]
            if len(plays) > 1:
                asked += 1
                assert state.playout_card(plays, rng) in plays
                try:
                    choice = state.playout_card(plays, _NoChance())
                except LookupError:
                    pass
                else:
                    assert choice in plays
                    decided += 1
            state.apply(rng.choice(legal))
    assert asked and decided >= asked // 4, (name, asked, decided)


def test_default_worlds_per_game(monkeypatch):
    """With no budget, ``pimc`` draws 16 worlds, or what the game declares for the variant
    (``SEARCH_WORLDS``: where 16 were measured not to be enough); a budget or the knob says
    otherwise."""
    from stich.bots import bets
    from stich.bots.search import pimc

    assert bets.declared("watten").worlds("guate") == 48 and bets.declared("battn").worlds("standard") is None
    bot = make_bot("pimc", seed=1)
    assert bot.default_worlds({"game": "watten", "variant": "guate"}) == 48
    assert bot.default_worlds({"game": "watten", "variant": "bavarian_2"}) == 40
    assert bot.default_worlds({"game": "watten", "variant": "euregio"}) == 16
    assert bot.default_worlds({"game": "battn", "variant": "standard"}) == 16
    knob = make_bot("pimc", seed=1, default_iterations=24)
    assert knob.default_worlds({"game": "watten", "variant": "guate"}) == 24

    drawn = []
    real = pimc.draw_worlds

    def spy(view, rng, count, *args, **kw):
        drawn.append(count)
        return real(view, rng, count, *args, **kw)

    monkeypatch.setattr(pimc, "draw_worlds", spy)   # PIMCBot.draw: the card search, the bets, the rest
    for variant, budget, expected in (("guate", None, 48), ("euregio", None, 16), ("guate", 8, 8)):
        for seed in range(1, 20):
            state = mid_hand("watten", variant, seed)
            view = json.loads(json.dumps(state.view(state.current_player)))
            drawn.clear()
            make_bot("pimc", seed=seed, budget=budget).choose(view, [str(a) for a in state.legal_actions()])
            if drawn:
                break
        assert drawn == [expected], (variant, budget)
