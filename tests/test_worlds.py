"""Determinization (``stich.engine.worlds``): worlds drawn from a seat's view are consistent with
everything that seat has seen, and the hidden cards really vary.

A world is consistent iff the seat cannot tell it from the real game: its view of the world
equals its real view (the current hand's events and actions, its hand, the known hands, the
tricks, the game's fields; fields carried over from earlier hands, such as the last hand's
result, are not rebuilt and not compared), and the world stands at the same decision.
"""

from __future__ import annotations

import random

import pytest

import stich
from stich.engine import fold_events, game_class
from stich.engine.worlds import WorldError, sample_world, sample_worlds, supports_worlds

GAMES = [g for g in ("watten", "battn", "biscambiggia", "barbu") if g in stich.games()
         and supports_worlds(stich.game(g))]
CONFIGS = [(name, v) for name in GAMES for v in game_class(name).variants]
# View fields carried over from earlier hands (a world rebuilds the current hand only).
CARRIED = ("last_result", "first_dealer_draw", "x_team", "winner", "previous_result", "match_result")


def random_position(game, seed, max_steps=400):
    """A live state after a random number of random actions (often in a later hand)."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    for _ in range(rng.randrange(max_steps)):
        if state.is_terminal():
            break
        act = rng.choice(state.legal_actions())
        probe = state.clone()
        probe.apply(act)
        if probe.is_terminal():
            break
        state = probe
    return state, rng.randrange(game.num_players)


def comparable(view, seat, state):
    """The keys of a view that the current hand's events determine (not carried from earlier hands)."""
    ref = fold_events(view["events"], seat, state.game.num_players, state._fold_event)
    keys = set(ref) | {"events", "hand", "current_player", "legal_actions", "terminal", "scores", "dealer",
                       "hand_number"}
    return [k for k in view if k in keys or k not in CARRIED]


def assert_consistent(state, seat, world):
    view = state.view(seat)
    wview = world.view(seat)
    hidden_prefix = any(t is None for _s, t, _k in view["actions"]) and "actions" in view
    for key in comparable(view, seat, state):
        if key == "actions" and hidden_prefix:
            # an action the seat did not see before the deal point is left out of the world's history
            assert [a for a in wview[key] if a[1] is not None] == [a for a in view[key] if a[1] is not None] \
                or wview[key][-5:] == view[key][-5:]
            continue
        if key in CARRIED:
            continue
        assert wview.get(key) == view[key], f"{state.game.variant}: the world's view differs in {key!r}"
    assert world.current_player == state.current_player
    assert [str(a) for a in world.legal_actions()] == [str(a) for a in state.legal_actions()] \
        or world.current_player != seat
    # the seat's own cards are nowhere else
    own = set(view["hand"])
    if hasattr(world, "hands"):
        deck = state.game.deck
        for s, h in enumerate(world.hands):
            if s != seat and isinstance(h, int):
                assert not own & set(deck.codes_of(h)), "a world gives the seat's own card to another seat"


@pytest.mark.parametrize("name,variant", CONFIGS)
def test_worlds_reproduce_the_view(name, variant):
    game = stich.game(name, variant=variant)
    checked = 0
    for trial in range(14):
        state, seat = random_position(game, hash((name, variant, trial)) % 10**6)
        if state.is_terminal():
            continue
        try:
            worlds = sample_worlds(state.view(seat), random.Random(trial), 3, max_tries=3000)
        except WorldError:
            worlds = []
        assert worlds, f"{variant}: no world found for seat {seat} (trial {trial})"
        for world in worlds:
            assert_consistent(state, seat, world)
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("name", GAMES)
def test_hidden_cards_vary(name):
    for variant in game_class(name).variants:
        game = stich.game(name, variant=variant)
        varied = 0
        for trial in range(6):
            state, seat = random_position(game, 77 + trial, 60)
            if state.is_terminal() or not hasattr(state, "hands"):
                continue
            worlds = sample_worlds(state.view(seat), random.Random(trial), 12)
            other = (seat + 1) % game.num_players
            hands = {w.hands[other] for w in worlds}
            truth = state.hands[other]
            if len(hands) > 1:
                varied += 1
            elif bin(truth).count("1") > 1 and "play" in " ".join(map(str, state.legal_actions())):
                pass   # a fully known hand (e.g. a partner's, shown) may be fixed
        assert varied >= 2, f"{name} {variant}: the hidden cards never vary"


def test_blind_watten_worlds_vary_schlag_and_trump_for_blind_players():
    game = stich.game("watten", variant="blind")
    seen = 0
    for seed in range(40):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not any(a.verb == "play" for a in state.legal_actions()):
            state.apply(rng.choice(state.legal_actions()))
        blind = [s for s in range(4) if s not in (state.forehand, state.dealer)]
        view = state.view(blind[0])
        assert view["schlag"] is None and view["trump"] is None
        worlds = sample_worlds(view, random.Random(seed), 20)
        pairs = {(w.schlag, w.trump) for w in worlds}
        if len(pairs) > 1:
            seen += 1
        for w in worlds:
            assert_consistent(state, blind[0], w)
        if seen >= 3:
            break
    assert seen >= 3


def test_biscambiggia_worlds_vary_the_secret_partner():
    game = stich.game("biscambiggia")
    for seed in range(20):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while state.phase != "play":
            state.apply(rng.choice(state.legal_actions()))
        seat = next(s for s in range(5) if s not in (state.holder, state.caller))
        worlds = sample_worlds(state.view(seat), random.Random(seed), 20)
        holders = {w.holder for w in worlds}
        assert seat not in holders
        if len(holders) > 1:
            return
    pytest.fail("the holder of the called card never varied")


def test_world_needs_a_seat():
    state = stich.game("watten").new_state(seed=1)
    with pytest.raises(WorldError):
        sample_world(state.view(None), random.Random(1))


@pytest.mark.parametrize("name", GAMES)
def test_worlds_with_random_options(name):
    cls = game_class(name)
    rng = random.Random(name)
    for trial in range(8):
        variant = rng.choice(cls.variants)
        options = {}
        for spec in cls.option_specs:
            if spec.applies_to(variant) and spec.values is not int and rng.random() < 0.5:
                options[spec.name] = rng.choice(spec.values)
        game = stich.game(name, variant=variant, **options)
        state, seat = random_position(game, 1000 + trial, 250)
        if state.is_terminal():
            continue
        worlds = sample_worlds(state.view(seat), random.Random(trial), 2, max_tries=4000)
        assert worlds, f"{variant} {options}: no world for seat {seat}"
        for world in worlds:
            assert_consistent(state, seat, world)


def test_opponent_model_filters_worlds():
    """``model`` weighs worlds by the other seats' decisions: 0 rejects every world in which
    another seat took a decision (other than a card) after the deal point, 1 changes nothing."""
    game = stich.game("watten", variant="bavarian_4")
    state = game.new_state(seed=3)
    rng = random.Random(3)
    while not any(a.verb == "play" for a in state.legal_actions()):
        state.apply(rng.choice(state.legal_actions()))
    seat = next(s for s in range(4) if s not in (state.schlag_seat, state.trump_seat))
    view = state.view(seat)
    calls = []

    def never(world, who, text):
        calls.append((who, text))
        return 0.0

    assert sample_worlds(view, random.Random(1), 3, max_tries=50, model=never) == []
    assert calls and all(who != seat and not text.startswith("play") for who, text in calls)
    assert len(sample_worlds(view, random.Random(1), 3, model=lambda *a: 1.0)) == 3
