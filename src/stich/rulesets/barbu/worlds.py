"""Determinization hooks of Barbu (see ``stich.engine.worlds``): the current deal, as one seat
saw it, as an explicit set-up of that deal (``hand_number``, the caller schedule, the match
scores, the contracts used so far and the caller's doubling counts).  All 52 cards are dealt and
nothing happens before the deal, so every action is replayed.  Known places: the seat's hand and
the cards played.  A player who did not follow the suit led has none of it left (pruned before
the replay, which checks every other rule: §2.7 trumping, domino passes, ...).

Contracts that other callers used in earlier deals are not in the view; the world gives them the
right number of arbitrary ones (they only matter for later deals, beyond the search horizon).
"""

from __future__ import annotations

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
    used = []
    for p in range(4):
        if p == caller:
            used.append([c for c in R.CONTRACTS if c not in start["available"]])
        else:
            used.append(list(R.CONTRACTS[:played[p]]))
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


def _suit(code: str) -> str:
    return R.SUITS[R.DECK.suit(R.DECK.parse(code))]
