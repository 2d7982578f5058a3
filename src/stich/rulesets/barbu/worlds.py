"""Determinization hooks of Barbu (see ``stich.engine.worlds``): the current deal, as one seat
saw it, as an explicit set-up of that deal (``hand_number``, the caller schedule, the match
scores, the contracts used so far and the caller's doubling counts).  All 52 cards are dealt and
nothing happens before the deal, so every action is replayed.  Known places: the seat's hand and
the cards played.  What the others' visible actions say about their hands is listed as
``forbidden`` cards (a pre-filter of the replay, and the classes the re-deal deals around): a
player who did not follow the suit led has none of it left (§2.1 rule 3, §2.7 rule 2); a heart led
in NO_HEARTS / BARBU while hearts were closed means only hearts (§2.3, §2.5, R-5); in TRUMPS a
discard means no trump (must ruff) or none above the trick's top trump (must overtrump), and a
lower trump none above it (§2.7, R-20); the forced K♥ (R-6) not played means no K♥; a domino pass
means no card that fitted the layout then (§2.8 rule 5).

Re-deal (``stich.engine.worlds.redeal_worlds``): the unknown cards are dealt anew around those
constraints, and a deal is kept iff every visible card play of another seat is legal by the
state's own ``BarbuState._trick_rule`` on the hand he held then, and every domino pass was forced.
The deal record (``dealt``: a trick's winner is the seat dealt its top card) and the other seats'
deal events follow the new hands.

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
    known = R.DECK.mask(view["hand"])
    for cards in plays:
        known |= R.DECK.mask(cards)
    unknown = ((1 << 52) - 1) & ~known
    masks = [0, 0, 0, 0]
    for seat, m in _not_held(game, view):
        if seat != me:
            masks[seat] |= m & unknown
    spec.forbidden = [set(R.DECK.codes_of(m)) for m in masks]
    spec.redeal = lambda world: redeal_check(game, view, world)
    return spec


def _tricks(view: dict):
    """The card plays of the deal: ``(seat, card, cards before it in its trick (mask), its trick's
    led suit, the cards of the completed tricks before it (mask))``."""
    parse = R.DECK.parse
    played = 0
    for trick in [t["cards"] for t in view["tricks"]] + [view["trick"]]:
        before = 0
        led = -1
        for p in trick:
            c = parse(p["card"])
            if led < 0:
                led = R.SUIT_OF[c]
            yield p["seat"], c, before, led, played
            before |= 1 << c
        played |= before


def _not_held(game, view: dict):
    """``(seat, mask)``: cards the seat did not hold when it acted (see the module docstring)."""
    contract = R.CONTRACT_ID.get(view.get("contract") or "")
    if contract is None:
        return
    if contract == R.DOMINO:
        rank = next(r for r, code in R.RANK_CODE.items() if code == view["domino_rank"])
        ends = sum(R.BIT[R.card(s, rank)] for s in range(4))
        opens = R.DOMINO_OPENS[rank]
        for ev in view["events"]:
            if ev["type"] == "domino_play":
                c = R.DECK.parse(ev["card"])
                ends = (ends ^ R.BIT[c]) | opens[c]
            elif ev["type"] == "domino_pass":
                yield ev["seat"], ends
        return
    trump = R.SUITS.index(view["trump"]) if contract == R.TRUMPS else -1
    tmask = R.SUIT_MASK[trump] if trump >= 0 else 0
    for seat, c, before, led, played in _tricks(view):
        suit = R.SUIT_OF[c]
        if not before:   # a lead: a heart while hearts were closed means only hearts
            if contract in (R.NO_HEARTS, R.BARBU) and suit == R.HEARTS and game.heart_lead != 2 \
                    and not (game.heart_lead == 1 and played & R.HEART_MASK):
                yield seat, ~R.HEART_MASK
            continue
        if suit != led:
            yield seat, R.SUIT_MASK[led]
        if contract == R.BARBU and game.forced_barbu and c != R.KH and (
                suit != led or led == R.HEARTS and before >> R.AH & 1):
            yield seat, R.BIT[R.KH]
        if contract != R.TRUMPS:
            continue
        top = (before & tmask).bit_length() - 1
        above = tmask >> (top + 1) << (top + 1) if top >= 0 else tmask
        if suit == trump:
            if c < top and game.must_overtrump:
                yield seat, above
        elif suit != led:   # a discard
            if top >= 0 and game.must_overtrump:
                yield seat, above
            elif game.must_ruff:
                yield seat, tmask


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


class _Then:
    """The fields ``BarbuState._trick_rule`` reads, as they were before one past card play."""

    __slots__ = ("game", "contract", "tn", "played", "led", "tmask", "trump_mask", "trump")


def redeal_check(game, view: dict, world):
    """``WorldSpec.redeal`` for Barbu: the check that a re-deal keeps every visible card play of
    another seat legal (``BarbuState._trick_rule`` on the hand he held then: his hand now and the
    cards he played since; leads too: a heart lead may be forbidden) and every domino pass forced
    (no card of his fitted the layout), with the ``finish`` that brings the deal record along."""
    from stich.rulesets.barbu.state import BarbuState, _codes

    me = view["seat"]
    bit = 1 << me
    base_hands, base_dealt = list(world.hands), world.dealt
    deals = [i for i, (aud, ev) in enumerate(world.events)
             if ev["type"] == "deal" and aud is not None and not aud & bit and ev["seat"] != me]

    def finish(w, moved) -> None:
        w.dealt = dealt = [(base_dealt[s] & ~base_hands[s]) | w.hands[s] for s in range(4)]
        events = w.events
        for i in deals:
            aud, ev = events[i]
            events[i] = (aud, {**ev, "cards": _codes(dealt[ev["seat"]])})

    contract = R.CONTRACT_ID.get(view.get("contract") or "")
    checks = []   # (seat, probe or None, card, later cards, domino ends)
    later = [0, 0, 0, 0]
    if contract == R.DOMINO:
        passes = [(s, ends) for s, ends in _not_held(game, view)]
        for ev in reversed(view["events"]):
            if ev["type"] == "domino_play":
                later[ev["seat"]] |= 1 << R.DECK.parse(ev["card"])
            elif ev["type"] == "domino_pass":
                s, ends = passes.pop()
                if s != me:
                    checks.append((s, None, 0, later[s], ends))
    elif contract is not None:
        trump = R.SUITS.index(view["trump"]) if contract == R.TRUMPS else -1
        for seat, c, before, led, played in reversed(list(_tricks(view))):
            later[seat] |= 1 << c
            if seat == me:
                continue
            probe = _Then()
            probe.game, probe.contract, probe.trump = game, contract, trump
            probe.trump_mask = R.SUIT_MASK[trump] if trump >= 0 else 0
            probe.tn, probe.played, probe.led, probe.tmask = before.bit_count(), played, led, before
            checks.append((seat, probe, c, later[seat], 0))
    rule = BarbuState._trick_rule

    def check(hands, rng):
        for seat, probe, c, since, ends in checks:
            h = hands[seat] | since
            if probe is None:
                if h & ends:
                    return False
            elif not rule(probe, h)[0] >> c & 1:
                return False
        return finish
    return check
