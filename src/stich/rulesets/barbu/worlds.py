"""Determinization hooks of Barbu (see ``stich.engine.worlds``): the current deal, as one seat
saw it, as an explicit set-up of that deal (``hand_number``, the caller schedule, the match
scores, the contracts used so far and the caller's doubling counts).  All 52 cards are dealt and
nothing happens before the deal, so every action is replayed.  Known places: the seat's hand and
the cards played.  A player who did not follow the suit led has none of it left (pruned before
the replay, which checks every other rule: §2.7 trumping, domino passes, ...).

Contracts that other callers used in earlier deals are not in the view; the world gives them the
right number of ones whose totals agree with the scores (PR-D8: the scores sum to the totals of the
contracts used); which ones only matters for later deals, beyond the search horizon.
"""

from __future__ import annotations

from itertools import combinations

from stich.engine.worlds import WorldSpec, plays_by_seat
from stich.rulesets.barbu import rules as R


def world_spec(game, view: dict) -> WorldSpec:
    me = view["seat"]
    hn = view["hand_number"]
    caller = view["caller"]
    offset = (hn - 1) if game.every_deal else (hn - 1) // 7
    first = (caller - offset) % 4
    schedule = R.callers(first, game.every_deal)
    played = [schedule[:hn - 1].count(p) for p in range(4)]
    start = next(ev for ev in view["events"] if ev["type"] == "caller")
    mine = [c for c in R.CONTRACTS if c not in start["available"]]
    scores = view.get("scores")
    want = None if scores is None else sum(scores) - sum(R.TOTAL[R.CONTRACT_ID[c]] for c in mine)
    others = _others_used(caller, played, want)
    used = [mine if p == caller else others[p] for p in range(4)]
    doubles = [[0] * 4 for _ in range(4)]
    doubles[caller] = list(start["caller_doubles"])
    setup = {"hand_number": hn, "first_caller": first, "used_contracts": used, "caller_doubles": doubles}
    if view.get("scores") is not None:
        setup["scores"] = list(view["scores"])
    spec = WorldSpec(setup=setup, hand_sizes=[13] * 4, replay=list(range(len(view["actions"]))),
                     compare_from=0)
    plays = plays_by_seat(view, 0, 4)
    for s in range(4):
        spec.add(spec.hand_slots(s), (list(view["hand"]) if s == me else []) + plays[s])
    known = set(view["hand"]).union(*map(set, plays))
    by_suit = {su: {c for c in R.DECK.codes if c not in known and c.startswith(su)} for su in R.SUITS}
    forbidden = [set() for _ in range(4)]
    tricks = [t["cards"] for t in view["tricks"]] + [view["trick"]]
    for trick in tricks:
        if trick:
            led = _suit(trick[0]["card"])
            for p in trick[1:]:
                if _suit(p["card"]) != led and p["seat"] != me:
                    forbidden[p["seat"]] |= by_suit[led]
    spec.forbidden = forbidden
    return spec


def _others_used(caller: int, played: list[int], want) -> dict[int, list[str]]:
    """For each seat but the caller, ``played[p]`` contracts, together totalling ``want`` (if given)."""
    seats = [p for p in range(4) if p != caller]
    reach = {0: {}}   # total so far -> the choices that reach it
    for p in seats:
        nxt = {}
        for total, picks in reach.items():
            for combo in combinations(range(7), played[p]):
                t = total + sum(R.TOTAL[c] for c in combo)
                if t not in nxt:
                    nxt[t] = {**picks, p: combo}
        reach = nxt
    picks = reach.get(want) if want is not None else None
    if picks is None:
        picks = {p: tuple(range(played[p])) for p in seats}
    return {p: [R.CONTRACTS[c] for c in picks[p]] for p in seats}


def _suit(code: str) -> str:
    return R.SUITS[R.DECK.suit(R.DECK.parse(code))]
