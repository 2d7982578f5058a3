"""Hypothesis tests of the invariants of Biscambiggia chiamata.

* marche always sum to zero, per hand and in the match totals (BB-6.3, BB-1.4);
* the card points of a hand always total 120 (BB-0.2, AB18);
* partner secrecy (BB-4.5, BB-4.6): re-dealing every card a seat cannot see, including who holds
  the called card, leaves that seat's view unchanged until the called card is played.
"""

from __future__ import annotations

import random

from biscambiggia_support import game, random_playout
from hypothesis import given, settings
from hypothesis import strategies as st

import stich
from stich.rulesets.biscambiggia.rules import DECK

options = st.fixed_dictionaries({
    "ranking": st.sampled_from(["biscambiggia", "briscola"]),
    "follow_suit": st.booleans(),
    "opening_bid_compulsory": st.booleans(),
    "allow_call_own_card": st.booleans(),
    "cappotto_double": st.booleans(),
    "hands_per_match": st.integers(1, 3),
    "tie_break": st.sampled_from(["shared", "extra_rounds"]),
    "piles_inspectable": st.booleans(),
})


@settings(max_examples=30, deadline=None)
@given(opts=options, seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**32))
def test_marche_zero_sum_and_120_points(opts, seed, play_seed):
    s = game(**opts).new_state(seed=seed)
    rng = random.Random(play_seed)
    while not s.is_terminal():
        assert sum(s.scores) == 0
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    results = [ev for ev in s.record()["events"] if ev["type"] == "hand_result"]
    assert len(results) >= opts["hands_per_match"]
    totals = [0] * 5
    for res in results:
        assert sum(res["marche"]) == 0
        assert sum(res["points_taken"]) == 120
        assert res["team_points"] + res["opponents_points"] == 120
        assert res["success"] == (res["team_points"] >= res["contract"])
        totals = [t + m for t, m in zip(totals, res["marche"], strict=True)]
    assert totals == s.scores and sum(s.returns()) == 0
    assert s.returns() == [float(x) for x in totals]


def _random_deal(rng):
    cards = list(DECK.codes)
    rng.shuffle(cards)
    return [cards[8 * k: 8 * k + 8] for k in range(5)]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 4), steps=st.integers(0, 40),
       watcher=st.sampled_from([0, 1, 2, 3, 4, None]))
def test_partner_secret_until_the_called_card_is_played(seed, dealer, steps, watcher):
    rng = random.Random(seed)
    hands = _random_deal(rng)
    g = game(hands_per_match=1)
    s = g.new_state(hands=hands, dealer=dealer)

    # Play the auction and the call, then up to `steps` cards, stopping before the called card.
    def stop(st_):
        if st_.phase != "play":
            return False
        played = sum(1 for _s, a in st_.history if a.verb == "play")
        called = DECK.code(st_.called)
        nxt = st_.legal_actions()
        return played >= steps or any(a.arg == called for a in nxt) and rng.random() < 0.3

    random_playout(s, rng, stop)
    if s.is_terminal() or s.revealed:
        return
    called = DECK.code(s.called)
    holder = s.holder
    if watcher is not None and watcher == holder:
        assert s.view(watcher)["role"] in ("traitor", "caller_alone")
        return
    v = s.view(watcher)
    assert v["traitor_public"] == "unknown" and v["teams"] is None
    assert "partner" not in v and "alone" not in v
    assert v.get("role") in (None, "caller", "opponent")

    # Re-deal every card the watcher cannot see: the other seats' unplayed cards.
    played = {k: [] for k in range(5)}
    for seat, a in s.history:
        if a.verb == "play":
            played[seat].append(a.arg)
    hidden_seats = [k for k in range(5) if k != watcher]
    pool = [c for k in hidden_seats for c in hands[k] if c not in played[k]]
    rng.shuffle(pool)
    new_hands = [list(h) for h in hands]
    for k in hidden_seats:
        n = 8 - len(played[k])
        new_hands[k], pool = played[k] + pool[:n], pool[n:]
    t = g.new_state(hands=new_hands, dealer=dealer)
    for _seat, a in s.history:
        t.apply(str(a))
    assert DECK.code(t.called) == called
    assert t.view(watcher) == v
    assert t.hand_summary() == s.hand_summary()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**32))
def test_replay_and_clone_reproduce(seed, play_seed):
    s = game(hands_per_match=2).new_state(seed=seed)
    rng = random.Random(play_seed)
    k = rng.randrange(80)
    random_playout(s, rng, lambda st_: len(st_.history) >= k)
    c = s.clone()
    random_playout(c, random.Random(play_seed + 1))
    r = stich.replay(s.record())
    assert r.record() == s.record()
    for seat in (0, 1, 2, 3, 4, None):
        assert r.view(seat) == s.view(seat)
