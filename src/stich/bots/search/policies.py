"""Per-game playout policies: cheap card play from the state (used only inside search).

A playout policy replaces the random card of :func:`common.rollout_action` where a game has one:
``POLICIES[game name](state, plays, rng) -> action``.  They read the state's own tables (they
run inside a sampled world, never on the real game) and must be fast.

* ``watten``, ``battn``: lead a random card; when following, let a winning partner have the
  trick (lowest card), else take it with the cheapest card that wins, else throw the lowest card.
* ``biscambiggia`` (partners unknown): take a trick worth 10 points or more with the cheapest
  winning card, else throw the card with the fewest points.
"""

from __future__ import annotations

from stich.rulesets.watten.ranking import trick_winner


def _strength(key, rank, c):
    return key[c] * 16 + rank[c]


def watten(state, plays, rng):
    trick = state.trick
    if not trick or state.rk is None:
        return plays[rng.randrange(len(plays))]
    g = state.game
    rk = state.rk
    key = rk.key
    suit_of, rank_of = g.suit_of, g.rank_of
    seat = state.current_player
    win_i = trick_winner(rk, suit_of, rank_of, trick)
    partner_wins = state.side[state.trick_seats[win_i]] == state.side[seat]
    order = sorted(plays, key=lambda a: _strength(key, rank_of, a.value))
    if partner_wins:
        return order[0]
    pos = len(trick)
    for a in order:
        if trick_winner(rk, suit_of, rank_of, trick + [a.value]) == pos:
            return a
    return order[0]


def battn(state, plays, rng):
    trick = state.trick
    table = state.table
    if not trick or table is None:
        return plays[rng.randrange(len(plays))]
    seat = state.current_player
    win_pos = table.winner(trick)
    order = sorted(plays, key=lambda a: table.strength(a.value, 0, a.value))
    if (state.leader + win_pos) & 1 == seat & 1:
        return order[0]
    pos = len(trick)
    for a in order:
        if table.winner(trick + [a.value]) == pos:
            return a
    return order[0]


def biscambiggia(state, plays, rng):
    if not state.trick_count:
        return plays[rng.randrange(len(plays))]
    g = state.game
    strength = state.strength
    points = g.points
    order = sorted(plays, key=lambda a: (points[a.value], strength[a.value]))
    if state.trick_points >= 10:   # worth taking: the cheapest card that wins
        for a in order:
            if strength[a.value] > state.best_key:
                return a
    return order[0]


POLICIES = {"watten": watten, "battn": battn, "biscambiggia": biscambiggia}
