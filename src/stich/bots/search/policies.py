"""Per-game playout policies: cheap card play from the state (used only inside search).

A playout policy replaces the random card of :func:`common.rollout_action` where a game has one:
``POLICIES[game name](state, plays, rng) -> action``.  They read the state's own tables (they
run inside a sampled world, never on the real game) and must be fast.

* ``watten``, ``battn``: lead a random card; when following, let a winning partner have the
  trick (lowest card), else take it with the cheapest card that wins, else throw the lowest card.
* ``biscambiggia`` (partners unknown): take a trick worth 10 points or more with the cheapest
  winning card, else throw the card with the fewest points.
* ``barbu`` (trick play; the domino stays random): in ``TRUMPS`` win a trick with the cheapest
  winning card, else throw the lowest; in the negative contracts lead the lowest card, follow
  with the highest card that does not win (all win: the highest), and when void discard the
  contract's penalty cards first (K♥ in ``BARBU``, hearts in ``NO_HEARTS``, queens in
  ``NO_QUEENS``), else the highest card.
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


def _barbu_tables():
    from stich.rulesets.barbu import rules as R
    from stich.rulesets.barbu.state import TRICKS

    c = R.CONTRACTS.index
    return (TRICKS, c("TRUMPS"), c("BARBU"), c("NO_HEARTS"), c("NO_QUEENS"), R.DECK.parse("HK"),
            R.SUITS.index("H"), R.DECK.parse("SQ") % 13)


(_B_TRICKS, _B_TRUMPS, _B_BARBU, _B_NO_HEARTS, _B_NO_QUEENS, _B_KH, _B_HEARTS, _B_QUEEN) = _barbu_tables()


def barbu(state, plays, rng):
    tmask = getattr(state, "tmask", None)
    if state.phase != _B_TRICKS or tmask is None:
        return plays[rng.randrange(len(plays))]
    contract = state.contract
    if not state.tn:   # leading
        if contract == _B_TRUMPS:
            return plays[rng.randrange(len(plays))]
        low = min(a.value % 13 for a in plays)
        lows = [a for a in plays if a.value % 13 == low]
        return lows[rng.randrange(len(lows))]
    led = state.led
    trump = state.trump
    trumps_in = tmask & (0x1FFF << (13 * trump)) if trump >= 0 else 0
    best = (trumps_in or tmask & (0x1FFF << (13 * led))).bit_length() - 1
    sb = best // 13

    def wins(c):
        s = c // 13
        return (s == sb and c > best) or (s == trump and sb != s)

    by_rank = sorted(plays, key=lambda a: a.value % 13)
    if contract == _B_TRUMPS:
        for a in by_rank:
            if wins(a.value):
                return a
        return by_rank[0]
    if plays[0].value // 13 != led:   # void: discard
        if contract == _B_BARBU:
            for a in plays:
                if a.value == _B_KH:
                    return a
        if contract in (_B_BARBU, _B_NO_HEARTS):
            hearts = [a for a in by_rank if a.value // 13 == _B_HEARTS]
            if hearts:
                return hearts[-1]
        if contract == _B_NO_QUEENS:
            for a in plays:
                if a.value % 13 == _B_QUEEN:
                    return a
        return by_rank[-1]
    under = [a for a in by_rank if not wins(a.value)]
    return under[-1] if under else by_rank[-1]


POLICIES = {"watten": watten, "battn": battn, "biscambiggia": biscambiggia, "barbu": barbu}
