"""Determinization hooks of Battn (see ``stich.engine.worlds``): the current turn, as one seat
saw it, turned into an explicit set-up at its deal point.

The deal point is the deal after the cut(s): the explicit set-up deals the hands and the stock
where the cuts left them, so the cut actions are not replayed (the Orbi window is).  Known card
places: the critici taken at the cut (their taker's first hand), the cards the cuts stopped on
(where the deal put them: the face-up bottom card of the stock, an earlier cut's stop card), the
seat's own hands (the first deal; after a Scheanara the new hand lies in the stock block that
exchange dealt, every other card), the partner's hand (BT-7.5) and the cards played.

Before the deal (a cut, the second-cut decision, an Orbi window) a world is the pack before the
hand's cut(s) with every card a cut showed where it lay, the cuts replayed: a fresh pack re-cut
would show other cards (and give the critico the seat took to another seat).
"""

from __future__ import annotations

from stich.engine.worlds import WorldSpec, past_plays, plays_by_seat
from stich.rulesets.battn.state import deal_order

PRE_DEAL = ("cut", "cut_done")


def world_spec(game, view: dict) -> WorldSpec:
    me = view["seat"]
    actions = view["actions"]
    events = view["events"]
    info = view["info"]
    setup = {"dealer": view["dealer"]}
    if view.get("scores") is not None:
        setup["scores"] = list(view["scores"])
    if info.get("x_team") is not None:
        setup["x_team"] = info["x_team"]
    dealt_at = next((i for i, ev in enumerate(events) if ev["type"] == "stock_bottom"), None)
    pack, shown = cut_places(events, game.options["cut_next_card_from"])
    if dealt_at is None:
        # Before the deal (the second-cut decision, an Orbi window): the world is the pack as it
        # lay before the cut(s), every card a cut showed (a critico its taker keeps, the card it
        # stopped on) where it lay, the others shuffled; the cuts are replayed and must show the
        # same cards.  (A fresh pack re-cut would give the seat's own critico to another seat.)
        spec = WorldSpec(setup=setup, hand_sizes=[0] * 4, stock_size=len(game.deck), explicit=False,
                         deck=True, replay=list(range(len(actions))), compare_from=0)
        spec.fixup = {"hand_number": view["hand_number"]}
        for pos, card in shown.items():
            spec.add(spec.stock_slots(pos, pos + 1), [card])
        return spec
    spec = WorldSpec(setup=setup, hand_sizes=[5] * 4, stock_size=20)
    spec.fixup = {"hand_number": view["hand_number"]}
    spec.replay = [i for i, (_s, text, _k) in enumerate(actions) if (text or "").split(" ")[0] not in PRE_DEAL]
    spec.compare_from = next((i for i, a in enumerate(actions) if a[2] > dealt_at), len(actions))
    placed: set[str] = set()

    def add(slots, cards):
        spec.add(slots, [c for c in cards if not (c in placed or placed.add(c))])

    add(spec.stock_slots(19), [next(ev["card"] for ev in events if ev["type"] == "stock_bottom")])
    # The cards the cuts stopped on lie where the deal put them (an earlier cut's stop card, moved
    # by the next cut, or the one dealt to R first under cut_next_card_from=remaining_packet): a
    # single place each, so before the wider groups.
    held = [0] * 4
    for ev in events:
        if ev["type"] == "cut":
            for s in ev["to"]:
                if s is not None:
                    held[s] += 1
    for at, slots in zip(pack, deal_places(spec, game.options["deal_pattern"], view["dealer"], held), strict=True):
        if at in shown:
            add(slots, [shown[at]])
    # Where each seat's current hand lies: its deal slots, or the block of its last exchange.
    where = {s: spec.hand_slots(s) for s in range(4)}
    own: list[tuple[list[int], list[str]]] = []
    n_exchanges = 0
    roles = info.get("roles") or {}
    for ev in events:
        t = ev["type"]
        if t == "exchange":
            n_exchanges += 1
            base = 10 * (n_exchanges - 1)
            r, d = ev["seats"]
            where[r] = spec.stock_slots(base, base + 10, 2)
            where[d] = spec.stock_slots(base + 1, base + 10, 2)
        elif t == "deal" and ev["seat"] == me:
            own.append((where[me], list(ev["cards"])))
    del roles
    plays = plays_by_seat(view, 0, 4)
    current = []
    for s in range(4):
        cards = list(view["hand"]) if s == me else list(view["known_hands"][s] or [])
        current.append((where[s], cards + plays[s]))
    for slots, cards in current + own:
        add(slots, cards)
    for ev in events:    # critici taken at the cut: in their taker's first hand
        if ev["type"] == "cut":
            for card, s in zip(ev["revealed"], ev["to"], strict=True):
                if s is not None:
                    add(spec.hand_slots(s), [card])
    spec.redeal = lambda world: redeal_check(game, view, world)
    return spec


def cut_places(events: list[dict], next_from: str) -> tuple[list[int], dict[int, str]]:
    """The hand's cuts (BT-5.3/5.4) replayed on the positions of the pack before them (0 = top):
    the pack after the cuts, as those positions (the critici taken are gone), and the card each
    cut showed, by its position."""
    pack = list(range(40))
    shown: dict[int, str] = {}
    for ev in events:
        if ev["type"] != "cut":
            continue
        top, bottom = pack[:ev["at"]], pack[ev["at"]:]
        src, idx = top, -1
        for j, (card, to) in enumerate(zip(ev["revealed"], ev["to"], strict=True)):
            shown[src[idx]] = card
            if to is not None:
                src.pop(idx)
                if j == 0 and next_from == "remaining_packet":
                    src, idx = bottom, 0
        pack = bottom + top
    return pack, shown


def deal_places(spec: WorldSpec, pattern: str, dealer: int, held: list[int]) -> list[list[int]]:
    """The slots each card of the pack after the cuts goes to: a hand's slots in the game's own deal
    order (:func:`deal_order`; ``held``: the critici each seat took at the cut), then the stock's slots
    one by one."""
    order = [(dealer + 1) & 3, (dealer + 2) & 3, (dealer + 3) & 3, dealer]
    return [spec.hand_slots(s) for s in deal_order(order, held, pattern)] + \
        [spec.stock_slots(j, j + 1) for j in range(spec.stock_size)]


def world_fixup(state, view: dict, spec: WorldSpec) -> None:
    state.hand_number = spec.fixup["hand_number"]


def redeal_check(game, view: dict, world):
    """``WorldSpec.redeal`` for Battn: the check that a re-deal keeps every visible card play
    legal (the follow rule, by the turn's own ``ranking.Table.legal``, on the hand each player
    held then: his hand now and the cards he played since), or None where a re-deal would not be
    exact: after a Scheanara exchange (hands dealt from the stock), in manual mode, or after a
    Schlòk that had to be held (option ``schlok_requires_holding``)."""
    opts = world.opts
    if opts["manual_mode"] or any(ev["type"] == "exchange" for ev in view["events"]):
        return None
    if opts["schlok_requires_holding"] and any((t or "").startswith("schlok") for _s, t, _k in view["actions"]):
        return None
    if any(t is None for _s, t, _k in view["actions"]):
        return None
    table = world.table
    if table is None:
        return lambda hands, rng: True
    me = view["seat"]
    parse = game.deck.parse
    plays = []
    later: dict[int, int] = {}
    for seat, tno, before, card in reversed(past_plays(view, world.trick_no)):
        c = parse(card)
        later[seat] = later.get(seat, 0) | 1 << c
        if seat != me and before:
            plays.append((seat, tno, [parse(x) for x in before], c, later[seat]))

    def check(hands, rng) -> bool:
        for seat, tno, before, c, since in plays:
            if not table.legal(hands[seat] | since, before, tno, opts) >> c & 1:
                return False
        return True
    return check
