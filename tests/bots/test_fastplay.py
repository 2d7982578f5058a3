"""The fast card-play path (``stich.bots.search.fastplay``) against the general engine.

A differential test: random positions of every variant of the games it covers, with random
option combinations, are played to the end of the hand through both - the engine by
``State.apply`` (passing Battn's raise polls, as the rollouts do), the kernel by its own ``play``
- with the same random cards.  At every step both must offer the same legal cards and have the
same player on turn and the same tricks won; each trick must go to the same seat; the hand must end
at the same card with the same match scores.  The exact solve must give the engine solver's value.
"""

from __future__ import annotations

import itertools
import random

import pytest

import stich
from stich.bots.search import fastplay, solver
from stich.bots.search.common import hand_over, score_vector
from stich.cards import bits
from stich.engine import game_class
from stich.roles.kernel import Kernel
from stich.testing import configurations

GAMES = [g for g in ("watten", "battn", "biscambiggia", "barbu") if g in stich.games()]
TWO_SIDED = [g for g in GAMES if game_class(g).two_sided]


def variants_in_turn(name, rng, count):
    """The game ``name`` in ``count`` random variants and options (``configurations``), in turn, for ever."""
    return (stich.game(name, variant=variant, **options)
            for variant, options in itertools.cycle(configurations(game_class(name), rng, count)))


def positions(name, seed, count):
    """``count`` (state, rng) pairs where the fast path applies, from random matches of random
    variants and options (random actions: raises, folds and exchanges included)."""
    rng = random.Random(seed)
    out = []
    games = variants_in_turn(name, rng, count)
    while len(out) < count:
        state = next(games).new_state(seed=rng.randrange(2**31))
        for _ in range(rng.randrange(20, 300)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal() and isinstance(fastplay.kernel(state), Kernel):   # trick play
            out.append((state, random.Random(rng.randrange(2**31))))
    return out


def endgame_positions(name, seed, count, most=10):
    """``count`` (state, rng) pairs where the fast path applies with at most ``most`` cards left in
    the hands (what an exact solve takes on): a random point of a random match of a random variant
    and options (random actions, as :func:`positions`), then played on at random to the card play
    with a random number of cards left (1 to ``most``).  Drawn this way, not by keeping the few of
    :func:`positions` that are that far into a hand: in Battn one in twenty is, and drawing the
    others took the most of this module's time."""
    rng = random.Random(seed)
    out = []
    games = variants_in_turn(name, rng, count)
    while len(out) < count:
        game = next(games)
        deal = rng.randrange(2**31)
        state, walk = game.new_state(seed=deal), []
        for _ in range(rng.randrange(20, 300)):
            if state.is_terminal():   # a shorter match: a random point of it, replayed
                state = game.new_state(seed=deal)
                for action in walk[:rng.randrange(len(walk))]:
                    state.apply(action)
                break
            walk.append(rng.choice(state.legal_actions()))
            state.apply(walk[-1])
        # on to the card play by the rollouts' calm actions: random ones end most hands of Battn by a
        # fold before that many cards are played (the raises before this point stand)
        left = rng.randint(1, most)
        while not state.is_terminal() and not (
                solver.cards_left(state) <= left and isinstance(fastplay.kernel(state), Kernel)):
            legal = state.legal_actions()
            state.apply(rng.choice([a for a in legal if a.verb not in game.rollout_avoid] or legal))
        if not state.is_terminal():
            out.append((state, random.Random(rng.randrange(2**31))))
    return out


def engine_cards(state):
    return sorted(a.value for a in state.legal_actions() if a.verb == state.game.card_verb)


def engine_to_card(state, hand):
    """Pass the raise polls (Battn) as the rollouts do, up to the next card decision."""
    while not hand_over(state, hand) and not engine_cards(state):
        calm = [a for a in state.legal_actions() if a.verb in state.game.calm_verbs]
        state.apply(calm[0])


@pytest.mark.parametrize("name", GAMES)
def test_fast_path_plays_like_the_engine(name):
    checked = tricks_seen = 0
    for state, rng in positions(name, 17, 150):
        k = fastplay.kernel(state)
        hand = state.hand_number
        s = state.clone()
        engine_to_card(s, hand)
        while True:
            cards = engine_cards(s)
            assert bits(k.legal()) == cards
            assert k.turn == s.current_player
            if name in ("watten", "battn"):
                assert list(k.tricks) == list(s.tricks)
            else:
                assert k.taken == list(s.taken)
            card = rng.choice(cards)
            before = len(s.events)
            s.apply(s.game.parse_action(f"play {s.game.deck.code(card)}")[1])
            side = k.play(card)
            won = [ev for _a, ev in s.events[before:] if ev["type"] == "trick"]
            if won:
                tricks_seen += 1
                if side < 0:
                    assert k.turn == won[0]["winner"]
                elif state.game.two_sided:
                    assert k.side_of(won[0]["winner"]) == side
            if side >= 0:
                assert hand_over(s, hand)
                assert k.end_scores(side) == list(s.scores)
                break
            assert not hand_over(s, hand)
            engine_to_card(s, hand)
        checked += 1
    assert checked == 150 and tricks_seen > 300


@pytest.mark.parametrize("name", GAMES)
def test_kernel_policy_is_the_states_playout_card(name):
    """The kernel's playout policy picks the card ``State.playout_card`` picks, with the same
    random numbers, at every step of random hands: the fast playouts are the engine's."""
    compared = 0
    for state, rng in positions(name, 23, 60):
        k = fastplay.kernel(state)
        hand = state.hand_number
        s = state.clone()
        engine_to_card(s, hand)
        while True:
            plays = [a for a in s.legal_actions() if a.verb == s.game.card_verb]
            cards = bits(k.legal())
            if len(cards) > 1:
                seed = rng.randrange(2**31)
                want = s.playout_card(plays, random.Random(seed)).value
                assert k.policy(cards, random.Random(seed)) == want, f"{s.game.variant}: {cards}"
                compared += 1
            card = rng.choice(cards)
            s.apply(s.game.parse_action(f"play {s.game.deck.code(card)}")[1])
            if k.play(card) >= 0:
                break
            engine_to_card(s, hand)
    assert compared > 200


@pytest.mark.parametrize("name", GAMES)
def test_a_kernels_own_playout_loop_plays_the_same_cards(name):
    """A kernel's own playout loop (``run``) ends each playout exactly as the card-by-card loop
    (``step_playout``: legal, policy, play) with the same random numbers: the same scores, tricks
    and cards taken."""
    if fastplay.kernel(positions(name, 31, 1)[0][0]).run is None:   # (Kernel.run: optional) - asked of
        pytest.skip(f"{name}'s kernel has no playout loop of its own")   # one position, not 120 drawn for nothing
    for state, rng in positions(name, 31, 120):
        k = fastplay.kernel(state)
        for _ in range(3):
            seed = rng.randrange(2**31)
            a, b = k.copy(), k.copy()
            assert a.run(random.Random(seed)) == fastplay.step_playout(b, random.Random(seed))
            fields = [f for f in ("hands", "tricks", "trick", "seats", "trick_no", "turn", "taken", "winners")
                      if hasattr(a, f)]
            assert [getattr(a, f) for f in fields] == [getattr(b, f) for f in fields], name


@pytest.mark.parametrize("name", GAMES)
def test_fast_playout_leaves_the_state_alone(name):
    state, rng = positions(name, 3, 1)[0]
    before = state.view(state.current_player)
    scores = fastplay.rollout_scores(state, rng)
    assert scores is not None and scores != list(state.scores)
    assert state.view(state.current_player) == before


@pytest.mark.parametrize("name", TWO_SIDED)
def test_fast_solve_equals_the_engine_solver(name):
    compared = 0
    for state, _rng in endgame_positions(name, 29, 120):
        assert solver.cards_left(state) <= 10
        seat = random.Random(compared).randrange(state.game.num_players)
        start = score_vector(state)
        fast = fastplay.solve(fastplay.kernel(state), seat, start, [10**7])
        fastplay.ENABLED = False
        try:
            slow = solver.solve(state.clone(), seat, state.hand_number, start, -1e300, 1e300, [10**7])
        finally:
            fastplay.ENABLED = True
        assert fast == slow
        compared += 1
    assert compared == 120


def test_fast_path_does_not_apply_where_it_should_not():
    game = stich.game("watten", variant="euregio")
    state = game.new_state(seed=1)
    assert fastplay.kernel(state) is None      # the cut
    assert fastplay.kernel(stich.game("barbu").new_state(seed=1)) is None   # the contract
    some = positions("watten", 5, 3)
    fastplay.ENABLED = False
    try:
        for st, _rng in some:
            assert fastplay.kernel(st) is None
    finally:
        fastplay.ENABLED = True


# --- Barbu's domino (rulesets.barbu.kernel.DominoKernel) -----------------------------------------------------


def domino_positions(seed, count):
    """``count`` Barbu states in the domino (§2.8), at random points of it, with random options."""
    from stich.rulesets.barbu.phases import DOMINO

    rng = random.Random(seed)
    configs = configurations(game_class("barbu"), rng, count)
    out = []
    while len(out) < count:
        variant, options = configs[len(out) % len(configs)]
        state = stich.game("barbu", variant=variant, **options).new_state(seed=rng.randrange(2**31))
        while not state.is_terminal() and state.phase != DOMINO:
            legal = state.legal_actions()
            domino = [a for a in legal if str(a).startswith("contract DOMINO")]
            state.apply(domino[0] if domino and rng.random() < 0.8 else rng.choice(legal))
        if state.is_terminal():
            continue
        for _ in range(rng.randrange(0, 30)):
            state.apply(rng.choice(state.legal_actions()))
            if state.phase != DOMINO:
                break
        if state.phase == DOMINO:
            out.append((state, random.Random(rng.randrange(2**31))))
    return out


def engine_domino(state):
    """The engine's domino choices: the fitting cards, or None for a pass."""
    return sorted(a.value for a in state.legal_actions() if a.verb == "play") or None


def domino_move(state, card):
    """Play ``card`` (None: pass) in the engine."""
    state.apply(state.game.parse_action(f"play {state.game.deck.code(card)}" if card is not None else "pass")[1])


def test_domino_kernel_plays_like_the_engine():
    """Card by card (passes included) the domino kernel offers the engine's fitting cards, has the
    same seat on turn (skips, aces that play again), ends the deal with it and scores it alike."""
    from stich.rulesets.barbu.kernel import DominoKernel

    aces = 0
    for state, rng in domino_positions(41, 120):
        k = fastplay.kernel(state)
        assert isinstance(k, DominoKernel)
        hand = state.hand_number
        s = state.clone()
        while True:
            assert k.turn == s.current_player
            cards = engine_domino(s)
            assert (bits(k.legal()) or None) == cards
            card = rng.choice(cards) if cards else None
            aces += card is not None and card % 13 == 12 and s.game.ace_replay
            domino_move(s, card)
            if k.play(card) >= 0:
                assert hand_over(s, hand)
                assert k.end_scores() == list(s.scores)
                break
            assert not hand_over(s, hand)
    assert aces > 0   # the option's extra turn was met


def test_domino_playout_is_a_random_fitting_card_to_the_end():
    """``run`` (what ``fastplay.playout`` calls) plays the cards that the card-by-card ``play``
    would with the same random numbers, and the engine, given those cards, scores the deal alike."""
    for state, rng in domino_positions(43, 60):
        seed = rng.randrange(2**31)
        k = fastplay.kernel(state)
        got = fastplay.playout(k.copy(), random.Random(seed))
        pick, s, hand = random.Random(seed), state.clone(), state.hand_number
        while True:
            cards = bits(k.legal())
            card = (cards[pick.randrange(len(cards))] if len(cards) > 1 else cards[0]) if cards else None
            domino_move(s, card)
            if k.play(card) >= 0:
                break
        assert hand_over(s, hand) and got == list(s.scores)


def test_a_kernels_own_search_is_the_copying_one():
    """A kernel's own alpha-beta (``ab``: Watten's plays and takes back cards) visits the same
    nodes as ``fastplay._ab`` (which copies the kernel per card): the same value and the same
    budget left, with the budget ample or run out, and the kernel as it was.

    The larger budget is 5 000 nodes: ample for two thirds of these positions (the rest of the hand
    is searched to its end), and where it is not, both run out at the same node deep in the search.
    Ample for all of them (a million), the few full hands of up to 400 000 nodes made the test eight
    times as long and compared nothing that the others and a budget run out do not."""
    compared = whole = 0
    for state, rng in positions("watten", 37, 80):
        k = fastplay.kernel(state)
        seat = rng.randrange(state.game.num_players)
        value = {side: fastplay._utility(k, seat, score_vector(state), side) for side in (0, 1)}
        for nodes in (5_000, rng.randrange(1, 60)):
            a, b = k.copy(), k.copy()
            before = [a.hands.copy(), a.trick.copy(), a.seats.copy(), a.turn, a.tricks.copy(), a.trick_no]
            ba, bb = [nodes], [nodes]
            got = a.ab(a.side_of(seat), value, -1e300, 1e300, ba)
            assert got == fastplay._ab(b, b.side_of(seat), value, -1e300, 1e300, bb) and ba == bb
            assert [a.hands, a.trick, a.seats, a.turn, a.tricks, a.trick_no] == before
            compared += 1
            whole += nodes == 5_000 and ba[0] >= 0
    assert compared == 160
    assert 40 <= whole < 80   # with the larger budget: most searched to the end, some cut short
