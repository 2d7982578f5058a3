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

from stich.cards import bits
from stich.engine.worlds import WorldSpec, past_plays, plays_by_seat
from stich.rulesets.watten.ranking import RANK_CODES, SUIT_CODES


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
#: actions after which a world is not just a deal of the unknown cards: an agreed exchange (new
#: hands from the stock) and a challenge (the hand ends on a shown card).  Requests, refusals and
#: a swap do not depend on the cards (``_may_ask_exchange``, ``_may_ask_swap``).
_NO_REDEAL = ("agree_exchange", "challenge")
_ROLES = ("schlag", "trump")


class _Then:
    """The fields ``PlayMixin._playable`` reads, as they were before one past card play."""

    __slots__ = ("game", "rk", "forehand", "dealer", "hands", "trick", "trick_no")


def redeal_check(game, view: dict, world):
    """``WorldSpec.redeal`` for Watten: the check that a re-deal keeps every visible card play
    legal (the follow rule of the variant, by the state's own ``_playable``, on the hand each
    player held then: his hand now and the cards he played since), or None where a re-deal would
    not be exact: after an exchange or a challenge, a Schlag/trump that had to
    be held (R23), a trick 5 whose raises depend on the cards (T1.8, R14), or a blind Ansage not
    complete yet.  With the Maschine (B1.7) nobody may have been dealt all three Kritische.

    Blind Ansage (T3, E.4) cards the seat did not see are drawn anew with each deal, uniformly
    among the Ansager's five cards (as the replay draws the hidden ``show``): they set the
    world's Schlag and trump, so then every visible play (the seat's own too) must be legal and
    every trick won by the same player under that ranking, and the seat's legal cards now the
    same."""
    from stich.rulesets.watten.play import PlayMixin
    from stich.rulesets.watten.ranking import trick_winner

    me = view["seat"]
    hidden = False
    for s, text, _k in view["actions"]:
        if text is None:
            hidden = True   # a blind Ansage card (the one hidden verb, WattenState._hidden_verbs)
            continue
        if text.startswith(_NO_REDEAL):
            return None
        if game.must_hold and s != me and text.split(" ")[0] in _ROLES:
            return None
    if world.trick_no == 5 and game.last_trick_rule != "off":
        return None
    blind: list[tuple[str, int]] = []
    if hidden:
        if world.rk is None or world.shown_schlag is None or world.shown_trump is None:
            return None
        shown = {sh["role"] for sh in view.get("shown") or []}
        for role, seat in zip(_ROLES, (world.schlag_seat, world.trump_seat), strict=True):
            if role not in shown:
                if view.get(role) is not None or seat == me:
                    return None   # known some other way: keep the replay
                blind.append((role, seat))
    parse = game.deck.parse
    plays = []
    later: dict[int, int] = {}
    for seat, tno, before, card in reversed(past_plays(view, world.trick_no)):
        c = parse(card)
        later[seat] = later.get(seat, 0) | 1 << c   # his cards from this play on
        if (seat != me or blind) and before:
            plays.append((seat, tno, [parse(x) for x in before], c, later[seat]))
    # B1.7, R20: no Maschine was announced, so no one was dealt all three Kritische
    maschine = game.kritische_mask if game.bavarian and game.options.get("maschine") == "on" else 0
    if not plays and not maschine and not blind:
        return lambda hands, rng: _finish
    probe = _Then()
    probe.game, probe.rk, probe.forehand, probe.dealer = game, world.rk, world.forehand, world.dealer
    playable = PlayMixin._playable
    suit_of, rank_of = game.suit_of, game.rank_of
    tricks = []
    if blind:
        done = past_plays(view, world.trick_no)
        by_trick: dict[int, list] = {}
        for seat, tno, _before, card in done:
            by_trick.setdefault(tno, []).append((seat, parse(card)))
        winners = [t["winner"] for t in (view.get("tricks") or [])]
        winners = winners[len(winners) - min(len(winners), max(world.trick_no - 1, 0)):] if world.trick_no > 1 else []
        for tno, w in zip(sorted(by_trick)[:len(winners)], winners, strict=False):
            tricks.append(([c for _s, c in by_trick[tno]], [s for s, _c in by_trick[tno]], w))
        probe.hands, probe.trick, probe.trick_no = list(world.hands), list(world.trick), world.trick_no
        mine_now = playable(probe, me) if world.trick and world.current_player == me else None

    def check(hands, rng):
        if maschine:
            for s, h in enumerate(hands):
                if s != me and (h | later.get(s, 0)) & maschine == maschine:
                    return None
        rk = world.rk
        shown = None
        if blind:
            shown = {"schlag": world.shown_schlag, "trump": world.shown_trump}
            for role, seat in blind:
                cards = bits(hands[seat] | later.get(seat, 0))   # his five cards at the Ansage
                shown[role] = cards[rng.randrange(len(cards))]
            rk = game.ranking(rank_of[shown["schlag"]], suit_of[shown["trump"]])
            for cards, seats, w in tricks:
                if seats[trick_winner(rk, suit_of, rank_of, cards)] != w:
                    return None
            if mine_now is not None:
                probe.rk, probe.hands, probe.trick, probe.trick_no = rk, hands, world.trick, world.trick_no
                if playable(probe, me) != mine_now:
                    return None
        probe.rk = rk
        for seat, tno, before, c, since in plays:
            then = [0] * len(hands)
            then[seat] = hands[seat] | since
            probe.hands, probe.trick, probe.trick_no = then, before, tno
            if not playable(probe, seat) >> c & 1:
                return None
        if shown is None:
            return _finish

        def finish(w, moved):
            _finish(w, moved)
            _set_ansage(w, me, rk, shown)
        return finish
    return check


def _finish(world, moved: dict) -> None:
    """The deal record (``dealt``: each seat's cards in dealt order, or the pack and the places)
    names the new cards: an Euregio exchange in the world gives back the cards really held."""
    dealt = world.dealt
    if isinstance(dealt, tuple):
        order, pack = dealt
        world.dealt = (order, [moved.get(c, c) for c in pack])
    elif isinstance(dealt, dict):
        world.dealt = {s: [moved.get(c, c) for c in cards] for s, cards in dealt.items()}


def _set_ansage(world, me: int, rk, shown: dict) -> None:
    """A re-dealt world's blind Ansage: its shown cards, Schlag, trump and ranking, and the events
    of the Ansager that name them."""
    d = world.game.deck
    world.shown_schlag, world.shown_trump = shown["schlag"], shown["trump"]
    world.schlag, world.trump, world.rk = rk.schlag, rk.trump, rk
    bit = 1 << me
    events = []
    for aud, ev in world.events:
        if aud is not None and not aud & bit:
            t = ev["type"]
            if t == "show":
                ev = {**ev, "card": d.code(shown[ev["role"]])}
            elif t == "reveal":
                ev = {**ev, "schlag": RANK_CODES[rk.schlag], "trump": SUIT_CODES[rk.trump],
                      "schlag_card": d.code(shown["schlag"]), "trump_card": d.code(shown["trump"])}
        events.append((aud, ev))
    world.events = events


