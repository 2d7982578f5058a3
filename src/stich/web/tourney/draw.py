"""Who sits where in a round: pure functions of the players, what they met before and a seeded generator.

A table is a list of player numbers by seat.  ``sides`` gives the side of each seat (partners share
one; in a game without fixed partnerships every seat is its own side).  The history counts, per pair
of players, how often they sat at one table (``met``) and on one side (``partnered``), and per player
how often they held each seat (``seats``).

* :func:`draw_round` (format ``rounds``, and the first round of the others): tables drawn by lot, then
  improved by swapping two players while that lowers the cost: a repeated partnership costs
  ``PARTNER_COST``, each repeated meeting at a table 1 ("partners and tables redrawn, avoiding repeats
  where possible", as at a Preiswatten).  The generator is the tournament's (seeded per round), so a
  draw is reproducible and unknowable beforehand.
* :func:`draw_swiss`: tables filled from the top of the standing down, each with the nearest placed
  players who have not met (the swiss rule: no repeats, neighbours by standing), searched so that the
  lower tables can be made without repeats too; where no such draw exists, the fewest repeats.
* :func:`seat_group` seats a group: the seating with the fewest repeated partnerships, and in duplicate
  (``balance_seats``) each player at the seat they have held least, so that over the rounds everyone
  holds each seat's cards in turn.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass, field

PARTNER_COST = 100   # a repeated partnership weighs as much as 100 repeated meetings
SEAT_COST = 1000     # duplicate: a seat held before weighs more than any partnership


def pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


@dataclass
class History:
    met: Counter = field(default_factory=Counter)          # pair -> rounds at one table
    partnered: Counter = field(default_factory=Counter)    # pair -> rounds on one side
    seats: Counter = field(default_factory=Counter)        # (player, seat) -> rounds held

    def add(self, table: list[int], sides: list[int]) -> None:
        for i, j in itertools.combinations(range(len(table)), 2):
            key = pair(table[i], table[j])
            self.met[key] += 1
            if sides[i] == sides[j]:
                self.partnered[key] += 1
        for seat, player in enumerate(table):
            self.seats[(player, seat)] += 1


def table_cost(table: list[int], hist: History, sides: list[int]) -> int:
    cost = 0
    for i, j in itertools.combinations(range(len(table)), 2):
        key = pair(table[i], table[j])
        cost += hist.met[key]
        if sides[i] == sides[j]:
            cost += PARTNER_COST * hist.partnered[key]
    return cost


def _split(players: list[int], n: int) -> list[list[int]]:
    return [players[i:i + n] for i in range(0, len(players), n)]


def _improve(tables: list[list[int]], hist: History, sides: list[int]) -> int:
    """Swap two players (any tables, any seats) while a swap lowers the cost; returns the cost."""
    costs = [table_cost(t, hist, sides) for t in tables]
    places = [(t, s) for t in range(len(tables)) for s in range(len(tables[t]))]
    better = True
    while better and sum(costs):
        better = False
        for (ta, sa), (tb, sb) in itertools.combinations(places, 2):
            a, b = tables[ta], tables[tb]
            a[sa], b[sb] = b[sb], a[sa]
            ca = table_cost(a, hist, sides)
            cb = table_cost(b, hist, sides) if tb != ta else ca
            before = costs[ta] + (costs[tb] if tb != ta else 0)
            after = ca + (cb if tb != ta else 0)
            if after < before:
                costs[ta], costs[tb] = ca, cb
                better = True
            else:
                a[sa], b[sb] = b[sb], a[sa]
    return sum(costs)


def draw_round(players: list[int], n: int, hist: History, sides: list[int], rng: random.Random,
               tries: int = 8) -> list[list[int]]:
    """Tables of ``n`` drawn by lot from ``players`` (a multiple of ``n``), with the fewest repeats found."""
    if len(players) % n:
        raise ValueError(f"{len(players)} players do not fill tables of {n}")
    best, best_cost = None, None
    for _ in range(tries):
        order = list(players)
        rng.shuffle(order)
        tables = _split(order, n)
        cost = _improve(tables, hist, sides)
        if best_cost is None or cost < best_cost:
            best, best_cost = tables, cost
        if cost == 0:
            break
    return best


def draw_swiss(order: list[int], n: int, hist: History, sides: list[int], budget: int = 20000) -> list[list[int]]:
    """Tables by standing (``order``: the best placed first), no two players who met before: the leader
    with the nearest placed players it has not met, searched depth first so that the groups further down
    can be made without repeats too; if there is no such draw (or ``budget`` steps do not find one), each
    group takes the players with the fewest repeats, in standing order.  Each group seated by
    :func:`seat_group`."""
    if len(order) % n:
        raise ValueError(f"{len(order)} players do not fill tables of {n}")
    groups = _swiss_search(list(order), n, hist, [budget])
    if groups is None:
        groups = _fewest_repeats(list(order), n, hist)
    return [seat_group(g, hist, sides) for g in groups]


def _swiss_search(remaining: list[int], n: int, hist: History, budget: list[int]) -> list[list[int]] | None:
    if not remaining:
        return []
    first, rest = remaining[0], remaining[1:]
    for combo in itertools.combinations(rest, n - 1):   # in standing order: the nearest placed first
        budget[0] -= 1
        if budget[0] < 0:
            return None
        group = [first, *combo]
        if any(hist.met[pair(a, b)] for a, b in itertools.combinations(group, 2)):
            continue
        below = _swiss_search([p for p in rest if p not in combo], n, hist, budget)
        if below is not None:
            return [group, *below]
    return None


def _fewest_repeats(remaining: list[int], n: int, hist: History) -> list[list[int]]:
    groups = []
    while remaining:
        group = [remaining.pop(0)]
        while len(group) < n:
            p = min(remaining, key=lambda p: (sum(hist.met[pair(p, q)] for q in group), remaining.index(p)))
            group.append(p)
            remaining.remove(p)
        groups.append(group)
    return groups


def seat_group(group: list[int], hist: History, sides: list[int], balance_seats: bool = False) -> list[int]:
    """The seating of ``group`` with the fewest repeated partnerships (and, with ``balance_seats``, each
    player at the seat held least); the first such seating in the group's order."""
    best, best_cost = list(group), None
    for perm in itertools.permutations(group):
        cost = sum(PARTNER_COST * hist.partnered[pair(perm[i], perm[j])]
                   for i, j in itertools.combinations(range(len(perm)), 2) if sides[i] == sides[j])
        if balance_seats:
            cost += SEAT_COST * sum(hist.seats[(p, s)] for s, p in enumerate(perm))
        if best_cost is None or cost < best_cost:
            best, best_cost = list(perm), cost
    return best


def draw_duplicate(players: list[int], n: int, hist: History, sides: list[int], rng: random.Random) -> list[list[int]]:
    """A duplicate round: tables drawn as in :func:`draw_round`, each seated so that every player holds the
    seat they have held least (every table of the round is dealt the same cards seat for seat)."""
    return [seat_group(t, hist, sides, balance_seats=True) for t in draw_round(players, n, hist, sides, rng)]
