"""Determinization hooks of Biscambiggia (see ``stich.engine.worlds``): the current hand, as one
seat saw it, as an explicit deal.  All 40 cards are dealt, nothing happens before the deal, so
every action of the hand is replayed.  Known places: the seat's own hand and the cards played;
the called card, when the seat does not hold it, is anywhere else (so the secret partner varies
from world to world until the card is played).  With ``follow_suit`` a player who did not
follow the suit led has none left (pruned before the replay checks it).
"""

from __future__ import annotations

from stich.engine.worlds import WorldSpec, plays_by_seat
from stich.rulesets.biscambiggia.rules import CARDS_EACH, DECK, NUM_PLAYERS


def world_spec(game, view: dict) -> WorldSpec:
    me = view["seat"]
    actions = view["actions"]
    setup = {"dealer": view["dealer"]}
    if view.get("scores") is not None:
        setup["scores"] = list(view["scores"])
    spec = WorldSpec(setup=setup, hand_sizes=[CARDS_EACH] * NUM_PLAYERS, replay=list(range(len(actions))),
                     compare_from=0)
    spec.fixup = {"hand_number": view["hand_number"]}
    plays = plays_by_seat(view, 0, NUM_PLAYERS)
    for s in range(NUM_PLAYERS):
        spec.add(spec.hand_slots(s), (list(view["hand"]) if s == me else []) + plays[s])
    if game.options.follow_suit:
        known = set(view["hand"]).union(*map(set, plays))
        unknown_by_suit = [[c for c in DECK.codes if c not in known and DECK.suit(DECK.parse(c)) == su]
                           for su in range(4)]
        forbidden = [set() for _ in range(NUM_PLAYERS)]
        tricks = [[(p["seat"], p["card"]) for p in t["cards"]] for t in view["tricks"]]
        tricks.append([(p["seat"], p["card"]) for p in view["trick"]])
        for trick in tricks:
            if not trick:
                continue
            led = DECK.suit(DECK.parse(trick[0][1]))
            for s, c in trick[1:]:
                if DECK.suit(DECK.parse(c)) != led and s != me:
                    forbidden[s].update(unknown_by_suit[led])
        spec.forbidden = forbidden
    return spec


def world_fixup(state, view: dict, spec: WorldSpec) -> None:
    state.hand_number = spec.fixup["hand_number"]
