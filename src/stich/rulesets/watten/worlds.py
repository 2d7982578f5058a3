"""Determinization hooks of Watten (see ``stich.engine.worlds``): the current hand, as one seat
saw it, turned into an explicit set-up at its deal point.

The deal point is just after the cut (the explicit set-up deals the hands where the cut left
them), or just after the last agreed exchange of the hand (Schönere: the new hands are dealt
explicitly).  Known card places: the seat's own hand, cards played since the deal point, the
public Kritische of a Bavarian cut, the cards shown in the Ansage, the Tyrolean Schlag-6 partner
hand; the Bavarian cut's stop card and the Euregio peeks lie in the stock; the Tyrolean-family
exchange discards lie out of play (the end of the stock, trimmed by the fix-up).
"""

from __future__ import annotations

from stich.engine.worlds import WorldSpec, past_plays, plays_by_seat


def world_spec(game, view: dict) -> WorldSpec:
    n = game.num_players
    me = view["seat"]
    actions = view["actions"]
    events = view["events"]
    stock_size = len(game.deck) - 5 * n
    # The deal point: after the last agreed exchange, else after the cut.
    dp = 0
    exchanges = 0
    for i, (_s, text, _k) in enumerate(actions):
        if text == "agree_exchange":
            dp = i + 1
            exchanges += 1
    if dp == 0 and actions and actions[0][1] and actions[0][1].startswith("cut"):
        dp = 1
    ev_dp = actions[dp - 1][2] if dp else 0   # events from here on belong to the explicit hand
    discards = []
    trimmed = stock_size
    forbidden = None
    if exchanges:
        # The seat's cards just before the (last) exchange: its deals before that action.
        before = _own_cards(events[:ev_dp], me)
        last = actions[dp - 1][2]
        chunk_end = actions[dp][2] if dp < len(actions) else len(events)
        exch = next(ev for ev in events[last:chunk_end] if ev["type"] == "exchange")
        fh, dl = exch["seats"]
        if game.exchange_rule == "euregio":
            if me in (fh, dl):   # the old cards went back into the stock or to the other exchanger
                gone = [c for c in before if c not in view["hand"] and c not in _played(actions, dp, me)]
                forbidden = [set() if s in (fh, dl) else set(gone) for s in range(n)]
        else:
            trimmed = stock_size - 10   # T1.5: the old hands are out of play
            if me in (fh, dl):
                discards = before
    spec = WorldSpec(setup={"dealer": view["dealer"]}, hand_sizes=[5] * n, stock_size=stock_size,
                     replay=list(range(dp, len(actions))), compare_from=dp, forbidden=forbidden,
                     explicit=dp > 0)
    if view.get("scores") is not None:
        spec.setup["scores"] = list(view["scores"])
    looked = 0   # R30: who has picked up his cards (all, once an Ansage was completed)
    for ev in events[:ev_dp]:
        if ev["type"] == "ansage_done":
            looked = (1 << n) - 1
        elif ev["type"] == "deal" and ev["seat"] == me and not ev.get("partner_view"):
            looked |= 1 << me
    spec.fixup = {"exchanges": exchanges, "trimmed": trimmed, "public": _public_deals(events, actions),
                  "looked": looked}
    plays = plays_by_seat(view, dp, n)
    placed = set()
    per_seat = []
    for s in range(n):
        cards = list(view["hand"]) if s == me else list(view["known_hands"][s] or [])
        cards += plays[s]
        for sh in view.get("shown") or []:
            if sh["seat"] == s:
                cards.append(sh["card"])
        per_seat.append(_unique(cards, placed))
    for s in range(n):
        spec.add(spec.hand_slots(s), per_seat[s])
    in_stock = []
    if not exchanges:
        cut_cards = [ev["card"] for ev in events if ev["type"] == "cut_card"]
        if cut_cards:
            in_stock.append(cut_cards[-1])     # B1.2: the stop card ends at the bottom of the pack
        peek = view["info"].get("cut_peek")
        if peek:
            in_stock.append(peek["card"])
    peek = view["info"].get("stock_peek")
    if peek:
        in_stock += [peek["top"], peek["bottom"]]
    spec.add(spec.stock_slots(0, trimmed), _unique(in_stock, placed))
    spec.add(spec.stock_slots(trimmed), _unique(discards, placed))
    if dp > 0 and not exchanges:
        spec.redeal = lambda world: redeal_check(game, view, world)
    return spec


def world_fixup(state, view: dict, spec: WorldSpec) -> None:
    state.hand_number = view["hand_number"]
    fix = spec.fixup
    state.looked |= fix["looked"]
    if fix["exchanges"]:
        state.exchanges = fix["exchanges"]
        if state.game.exchange_rule != "euregio":
            state.exchange_closed = True
    if fix["trimmed"] < len(state.stock):
        state.stock = state.stock[:fix["trimmed"]]
    deck = state.game.deck
    for seat, card in fix["public"]:
        state.public[seat] |= 1 << deck.parse(card)


def _own_cards(events, me) -> list[str]:
    cards: list[str] = []
    for ev in events:
        if ev["type"] == "deal" and ev["seat"] == me and not ev.get("partner_view"):
            if ev.get("replace"):
                cards = []
            cards += [c for c in ev["cards"] if c not in cards]
    return cards


def _played(actions, start, me) -> list[str]:
    return [t[5:] for s, t, _k in actions[start:] if s == me and t and t.startswith("play ")]


def _public_deals(events, actions) -> list[tuple[int, str]]:
    """Bavarian cut: the Kritische dealt face up (a ``deal`` right after a ``cut_card``)."""
    out = []
    for prev, ev in zip(events, events[1:], strict=False):
        if ev["type"] == "deal" and prev["type"] == "cut_card":
            out += [(ev["seat"], c) for c in ev["cards"]]
    return out


def _unique(cards, placed: set) -> list[str]:
    out = []
    for c in cards:
        if c not in placed:
            placed.add(c)
            out.append(c)
    return out


# --- re-deal (stich.engine.worlds.redeal_worlds) ------------------------------------------------
#: actions after which a world is not just a deal of the unknown cards: an exchange or a swap
#: (new hands from the stock), a request (hand-dependent windows) and the blind Ansage cards
_NO_REDEAL = ("agree_", "refuse_", "ask_", "challenge")


class _Then:
    """The fields ``PlayMixin._playable`` reads, as they were before one past card play."""

    __slots__ = ("game", "rk", "forehand", "dealer", "hands", "trick", "trick_no")


def redeal_check(game, view: dict, world):
    """``WorldSpec.redeal`` for Watten: the check that a re-deal keeps every visible card play
    legal (the follow rule of the variant, by the state's own ``_playable``, on the hand each
    player held then: his hand now and the cards he played since), or None where a re-deal would
    not be exact: before the deal point or after an exchange, with an action the seat did not see
    (the blind Ansage), a request or a challenge, a Schlag/trump that had to be held (R23), or a
    trick 5 whose raises depend on the cards (T1.8, R14).  With the Maschine (B1.7) the check also
    says that nobody was dealt all three Kritische."""
    from stich.rulesets.watten.play import PlayMixin

    me = view["seat"]
    for s, text, _k in view["actions"]:
        if text is None or text.startswith(_NO_REDEAL):
            return None
        if game.must_hold and s != me and text.split(" ")[0] in ("schlag", "trump"):
            return None
    if world.trick_no == 5 and game.last_trick_rule != "off":
        return None
    parse = game.deck.parse
    plays = []
    later: dict[int, int] = {}
    for seat, tno, before, card in reversed(past_plays(view, world.trick_no)):
        c = parse(card)
        later[seat] = later.get(seat, 0) | 1 << c   # his cards from this play on
        if seat != me and before:
            plays.append((seat, tno, [parse(x) for x in before], c, later[seat]))
    # B1.7, R20: no Maschine was announced, so no one was dealt all three Kritische
    maschine = game.kritische_mask if game.bavarian and game.options.get("maschine") == "on" else 0
    dealt = {s: m for s, m in later.items() if s != me}
    if not plays and not maschine:
        return lambda hands: True
    probe = _Then()
    probe.game, probe.rk, probe.forehand, probe.dealer = game, world.rk, world.forehand, world.dealer
    playable = PlayMixin._playable

    def check(hands) -> bool:
        if maschine:
            for s, h in enumerate(hands):
                if s != me and (h | dealt.get(s, 0)) & maschine == maschine:
                    return False
        for seat, tno, before, c, since in plays:
            then = [0] * len(hands)
            then[seat] = hands[seat] | since
            probe.hands, probe.trick, probe.trick_no = then, before, tno
            if not playable(probe, seat) >> c & 1:
                return False
        return True
    return check
