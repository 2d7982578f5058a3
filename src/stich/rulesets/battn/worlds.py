"""Determinization hooks of Battn (see ``stich.engine.worlds``): the current turn, as one seat
saw it, turned into an explicit set-up at its deal point.

The deal point is the deal after the cut(s): the explicit set-up deals the hands and the stock
where the cuts left them, so the cut actions are not replayed (the Orbi window is).  Before the
deal (Orbi before the cut, the cut itself) a world is a fresh random deal.  Known card places:
the critici taken at the cut (their taker's first hand), the seat's own hands (the first deal;
after a Scheanara the new hand lies in the stock block that exchange dealt, every other card),
the partner's hand (BT-7.5), the cards played, and the face-up bottom card of the stock.
"""

from __future__ import annotations

from stich.engine.worlds import WorldSpec, plays_by_seat

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
    spec = WorldSpec(setup=setup, hand_sizes=[5] * 4, stock_size=20)
    spec.fixup = {"hand_number": view["hand_number"]}
    if dealt_at is None:   # before the deal: nothing is known yet
        spec.explicit = False
        spec.replay = list(range(len(actions)))
        spec.compare_from = len(actions)
        return spec
    spec.replay = [i for i, (_s, text, _k) in enumerate(actions) if (text or "").split(" ")[0] not in PRE_DEAL]
    spec.compare_from = next((i for i, a in enumerate(actions) if a[2] > dealt_at), len(actions))
    placed: set[str] = set()

    def add(slots, cards):
        spec.add(slots, [c for c in cards if not (c in placed or placed.add(c))])

    add(spec.stock_slots(19), [next(ev["card"] for ev in events if ev["type"] == "stock_bottom")])
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
    return spec


def world_fixup(state, view: dict, spec: WorldSpec) -> None:
    state.hand_number = spec.fixup["hand_number"]
