"""Determinization hooks of Biscambiggia (see ``stich.engine.worlds``): the current hand, as one
seat saw it, as an explicit deal.  All 40 cards are dealt, nothing happens before the deal, so
every action of the hand is replayed.  Known places: the seat's own hand and the cards played;
the called card, when the seat does not hold it, is anywhere else (so the secret partner varies
from world to world until the card is played) - but not with the caller when he may not call
his own card (B4-7).  With ``follow_suit`` a player who did not follow the suit led has none
left.  Both are ``forbidden`` cards: a pre-filter of the replay, and the classes the re-deal
deals around.

Re-deal (``stich.engine.worlds.redeal_worlds``): the unknown cards are dealt anew around those
constraints, and a deal is kept iff every visible card play of another seat is legal under the
follow rule on the hand he held then; the holder of the called card (``holder``, the secret
partner) is whoever holds it in the new deal, and the private ``partner`` event goes to him.  The
auction says nothing the rules could check (a bid is legal with any hand): its inference stays
with the opponent model's weights.
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
    known = set(view["hand"]).union(*map(set, plays))
    forbidden = [set() for _ in range(NUM_PLAYERS)]
    if game.options.follow_suit:
        unknown_by_suit = [[c for c in DECK.codes if c not in known and DECK.suit(DECK.parse(c)) == su]
                           for su in range(4)]
        for s, led, c in _follows(view):
            if DECK.suit(c) != led and s != me:
                forbidden[s].update(unknown_by_suit[led])
    contract = view.get("contract") or {}
    called = view.get("called_card")
    if called and called not in known and not game.options.allow_call_own_card and contract.get("caller") != me:
        forbidden[contract["caller"]].add(called)   # B4-7: the caller called a card he lacked
    if any(forbidden):
        spec.forbidden = forbidden
    spec.redeal = lambda world: redeal_check(game, view, world)
    return spec


def _follows(view: dict):
    """``(seat, led suit, card)`` for every card played to a trick after its lead."""
    for trick in [t["cards"] for t in view["tricks"]] + [view["trick"]]:
        if trick:
            led = DECK.suit(DECK.parse(trick[0]["card"]))
            for p in trick[1:]:
                yield p["seat"], led, DECK.parse(p["card"])


def redeal_check(game, view: dict, world):
    """``WorldSpec.redeal`` for Biscambiggia: the check that a re-deal keeps every visible card
    play of another seat legal (with ``follow_suit``: no card of the suit led on the hand he held
    then, his hand now and the cards he played since, if he did not follow it), and the ``finish``
    that makes the holder of the called card the secret partner and names the new cards in the
    others' deal events."""
    me = view["seat"]
    bit = 1 << me
    later = [0] * NUM_PLAYERS
    checks = []
    follows = list(_follows(view))
    for s, led, c in reversed(follows):
        later[s] |= 1 << c
        if s != me and DECK.suit(c) != led and game.options.follow_suit:
            checks.append((s, game.suit_masks[led], later[s]))
    played = [0] * NUM_PLAYERS   # every card each seat played in this hand (leads too)
    for s, code in ((s, c) for s, cards in enumerate(plays_by_seat(view, 0, NUM_PLAYERS)) for c in cards):
        played[s] |= 1 << DECK.parse(code)
    deals = [i for i, (aud, ev) in enumerate(world.events)
             if ev["type"] == "deal" and aud is not None and not aud & bit and ev["seat"] != me]
    partner = next((i for i, (aud, ev) in enumerate(world.events) if ev["type"] == "partner"), None)
    called = world.called

    def finish(w, moved) -> None:
        events = w.events
        hands = w.hands
        for i in deals:
            aud, ev = events[i]
            s = ev["seat"]
            events[i] = (aud, {**ev, "cards": DECK.codes_of(hands[s] | played[s])})
        if called >= 0 and not world.revealed:
            holder = next(s for s in range(NUM_PLAYERS) if (hands[s] | played[s]) >> called & 1)
            w.holder = holder
            if partner is not None:
                aud, ev = events[partner]
                if not aud & bit:   # the seat's own message stays (it holds the card)
                    events[partner] = (1 << holder, {"seat": holder, "caller": w.caller,
                                                     "alone": holder == w.caller, "type": "partner"})

    def check(hands, rng):
        for s, suit_mask, since in checks:
            if (hands[s] | since) & suit_mask:
                return False
        return finish
    return check


def world_fixup(state, view: dict, spec: WorldSpec) -> None:
    state.hand_number = spec.fixup["hand_number"]
