"""Property tests that every stich game must pass, over random seeds, every variant and
random option combinations:

* every match ends; every legal action applies; illegal ones are refused and change nothing;
* returns are zero-sum and the match result is consistent; the same seed gives the same game;
* ``replay(record())`` reproduces the state exactly (also mid-match);
* **view invariance**: re-dealing the cards a seat has not seen (keeping everything it has
  seen) leaves that seat's view unchanged, while the hidden cards really differ.
"""

from __future__ import annotations

import json
import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stich
from stich.engine import IllegalActionError, fold_events, game_class

GAMES = [name for name in stich.engine.games() if name in ("watten", "battn", "biscambiggia", "barbu")]

# Cards per hand at the deal, for building explicit set-ups (the rest, if any, is the stock).
HAND_SIZE = {"watten": 5, "battn": 5, "biscambiggia": 8, "barbu": 13}
MAX_ACTIONS = 60_000
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))


@st.composite
def configurations(draw, name):
    cls = game_class(name)
    variant = draw(st.sampled_from(cls.variants))
    options = {}
    for spec in cls.option_specs:
        if spec.applies_to(variant) and spec.values is not int and draw(st.booleans()):
            options[spec.name] = draw(st.sampled_from(spec.values))
    return variant, options


def make_game(name, variant, options):
    return stich.game(name, variant=variant, **options)


def snapshot(state):
    return (len(state.history), len(state.events), state.current_player, state.hand_number)


def check_illegal_refused(state, rng):
    """A few well-formed actions that are not legal now are refused, and nothing changes."""
    legal = set(state.legal_actions())
    others = [a for a in state.game._actions.values() if a not in legal]
    before = snapshot(state)
    events = list(state.events)
    for act in rng.sample(others, min(3, len(others))):
        with pytest.raises(IllegalActionError):
            state.apply(act)
        assert snapshot(state) == before and state.events == events


def check_cached_view(state, seat):
    """The cached, incremental view equals a fold of all visible events from scratch."""
    view = state.view(seat)
    json.dumps(view)
    reference = fold_events(state.visible_events(seat), seat, state.game.num_players, state._fold_event)
    for key, value in reference.items():
        assert view[key] == value, f"cached view differs from a fresh fold in {key!r}"


def play_match(state, rng, checks=True):
    """Play a match to its end with random legal actions; return the number of actions.

    The checks draw from their own generator, so the moves depend on ``rng`` alone."""
    check_rng = random.Random(rng.random())
    n = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, f"no legal action for seat {state.current_player} in a live game"
        seats = state.seats_to_act()
        assert state.current_player in seats
        if len(seats) > 1 and rng.random() < 0.5:   # a seat out of turn acts first (§0.5, BT-14.4)
            seat = rng.choice([s for s in seats if s != state.current_player])
            state.apply(rng.choice(state.legal_actions(seat)), seat=seat)
            n += 1
            continue
        if checks and check_rng.random() < 0.05:
            for act in legal:  # every legal action is accepted, and is in the fixed action space
                assert str(act) in state.game.action_index
                state.clone().apply(act)
            check_illegal_refused(state, check_rng)
            seat = check_rng.randrange(state.game.num_players)
            check_cached_view(state, seat)
        state.apply(rng.choice(legal))
        n += 1
        assert n < MAX_ACTIONS, "the match did not end"
    return n


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_random_matches_end_replay_and_are_deterministic(name, data, seed):
    variant, options = data.draw(configurations(name))
    game = make_game(name, variant, options)
    state = game.new_state(seed=seed)
    play_match(state, random.Random(seed))
    returns = state.returns()
    assert len(returns) == game.num_players
    assert abs(sum(returns)) < 1e-9, f"returns are not zero-sum: {returns}"
    assert any(r > 0 for r in returns), "a finished match has a winner"
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError):
        state.apply(next(iter(game._actions.values())))
    record = json.loads(json.dumps(state.record()))
    assert stich.replay(record).record() == state.record()
    twin = game.new_state(seed=seed)
    play_match(twin, random.Random(seed), checks=False)
    assert twin.record() == state.record()


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(data=st.data(), seed=st.integers(0, 2**32), steps=st.integers(0, 200))
def test_mid_match_records_replay_and_continue(name, data, seed, steps):
    variant, options = data.draw(configurations(name))
    state = make_game(name, variant, options).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    again = stich.replay(json.loads(json.dumps(state.record())))
    assert again.record() == state.record()
    pickled = pickle.loads(pickle.dumps(state))  # for multiprocessing and Ray
    assert pickled.record() == state.record() and pickled.legal_actions() == state.legal_actions()
    assert again.legal_actions() == state.legal_actions()
    for seat in [None, *range(state.game.num_players)]:
        assert again.view(seat) == state.view(seat)


# --- view invariance --------------------------------------------------------------------------------
def random_setup(game, rng):
    codes = list(game.deck.codes)
    rng.shuffle(codes)
    size = HAND_SIZE[game.name]
    n = game.num_players
    hands = [codes[i * size:(i + 1) * size] for i in range(n)]
    stock = codes[n * size:]
    setup = {"hands": hands, "dealer": rng.randrange(n)}
    if stock:
        setup["stock"] = stock
    return setup


def lawfully_seen(game, state, seat):
    """The cards the rules let ``seat`` know: its own deals, public plays, declared reveals."""
    codes = set(game.deck.codes)
    seen = set()
    for audience, ev in state.events:
        if audience is not None and not audience >> seat & 1:
            continue
        t = ev["type"]
        if (t == "deal" and ev["seat"] == seat) or (t == "play" and audience is None) or t in game.reveal_events:
            cards_in(ev, codes, seen)
    return seen


def cards_in(value, codes, out):
    """Collect every card code mentioned anywhere in a JSON value."""
    if isinstance(value, str):
        if value in codes:
            out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            cards_in(v, codes, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            cards_in(v, codes, out)
    return out


def redeal_hidden(setup, seat, seen, rng):
    """The same set-up with the cards ``seat`` has not seen shuffled among their places."""
    slots = []
    for s, hand in enumerate(setup["hands"]):
        if s != seat:
            slots += [("hand", s, i) for i, c in enumerate(hand) if c not in seen]
    slots += [("stock", None, i) for i, c in enumerate(setup.get("stock", [])) if c not in seen]

    def get(slot):
        kind, s, i = slot
        return setup["hands"][s][i] if kind == "hand" else setup["stock"][i]

    cards = [get(slot) for slot in slots]
    rng.shuffle(cards)
    new = {"hands": [list(h) for h in setup["hands"]], "dealer": setup["dealer"]}
    if "stock" in setup:
        new["stock"] = list(setup["stock"])
    for (kind, s, i), card in zip(slots, cards, strict=True):
        if kind == "hand":
            new["hands"][s][i] = card
        else:
            new["stock"][i] = card
    return new


def replay_history(game, seed, setup, history):
    state = game.new_state(seed=seed, **setup)
    for seat, action in history:
        state.apply(action, seat=seat)
    return state


@pytest.mark.parametrize("name", GAMES)
def test_view_never_depends_on_unseen_cards(name):
    cls = game_class(name)
    compared = 0
    for variant in cls.variants:
        game = stich.game(name, variant=variant)
        for trial in range(12):
            rng = random.Random(f"{name}/{variant}/{trial}")
            setup = random_setup(game, rng)
            state = game.new_state(seed=trial, **setup)
            for _ in range(rng.randrange(60)):  # stay inside the first hand
                if state.is_terminal():
                    break
                actor = rng.choice(state.seats_to_act())   # out-of-turn actions too
                act = rng.choice(state.legal_actions(actor))
                probe = state.clone()
                probe.apply(act, seat=actor)
                if probe.hand_number != 1:
                    break
                state = probe
            seat = rng.randrange(game.num_players)
            seen = lawfully_seen(game, state, seat)
            view = state.view(seat)
            for _attempt in range(30):
                other = redeal_hidden(setup, seat, seen, rng)
                if other == setup:
                    continue
                try:
                    twin = replay_history(game, trial, other, state.history)
                except IllegalActionError:
                    continue  # the re-deal contradicts a constraint the history revealed
                assert twin.view(seat) == view, f"{variant}: seat {seat}'s view depends on cards it has not seen"
                assert twin.record()["events"] != state.record()["events"] or other["hands"] == setup["hands"]
                compared += 1
                break
    assert compared >= 2 * len(cls.variants), f"too few comparisons ({compared}) for {name}"
