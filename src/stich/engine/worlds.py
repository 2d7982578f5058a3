"""Determinization: complete worlds drawn from one seat's view.

A search bot sees only ``state.view(seat)``.  :func:`sample_world` builds, from that view alone, a
complete :class:`~stich.engine.State` that the seat cannot tell apart from the real one: replaying
it gives the seat the identical events (the same trick winners, the same private messages, every
visible action legal), and it stands at the same decision.

The mechanism is generic; each game contributes one small hook, ``Game.world_spec(view)``, that
reads the view and says

* the explicit set-up of the current hand at its **deal point** (dealer, match scores and the
  game's own match fields; the hands are left to the sampler),
* the **slots** to fill: cards per hand at the deal point and the size of the stock,
* where the cards the seat knows must lie (**groups** of slots: "in seat 2's hand", "in the
  stock", "in the first ten stock cards, every other one", ...),
* which of the hand's actions to replay (those before the deal point, e.g. a cut, are skipped:
  the explicit set-up deals the cards where they lay after it) and from which one on the replayed
  events are compared with the view,

and optionally ``Game.world_fixup(state, view, spec)`` to restore match fields that an explicit
set-up cannot express (the hand number, exchanges already made, ...).

The sampler deals the cards the seat has not lawfully seen at random into the free slots,
rebuilds the hand, replays the visible actions (a hidden action, e.g. a blind Ansage card shown to
another player, is drawn among the legal ones that reproduce the seat's events) and keeps the
world only if every replayed action was legal and produced exactly the events the seat saw
(rejection sampling).  Void suits and similar constraints follow from the replay; a game may
also list ``forbidden`` cards per seat to prune obvious rejections early.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from dataclasses import dataclass, field
from math import comb

from stich.cards import bits
from stich.engine.errors import StichError
from stich.engine.registry import game as make_game

__all__ = ["WorldSpec", "WorldError", "sample_world", "sample_worlds", "world_spec", "supports_worlds",
           "plays_by_seat", "redeal_worlds", "past_plays", "cached_game"]


class WorldError(StichError):
    """No world consistent with the view was found (within the tries allowed)."""


class WorldSpecError(WorldError):
    """The game's ``world_spec`` is wrong (a card placed twice, slots and cards that do not add up):
    a bug in the game, not a view's bad luck - a search bot must not take it for "no world"."""


@dataclass
class WorldSpec:
    """What a game's ``world_spec(view)`` hook returns (see the module docstring).

    Slots are numbered hand by hand (seat 0's ``hand_sizes[0]`` slots first), then the stock's
    ``stock_size`` slots in order (top first).  A group is ``(slots, cards)``: the cards lie in
    those slots, in an unknown order; a card in no group is unknown to the seat.
    """

    setup: dict
    hand_sizes: list[int]
    stock_size: int = 0
    groups: list[tuple[list[int], list[str]]] = field(default_factory=list)
    replay: list[int] = field(default_factory=list)
    compare_from: int = 0
    forbidden: list[set[str]] | None = None
    fixup: dict = field(default_factory=dict)
    #: False before the deal point (e.g. at the cut): the world is a fresh random deal
    explicit: bool = True
    #: True (with ``explicit`` False): the slots are the pack before the hand's cut, top first (no
    #: hand slots), given to the set-up as ``deck``; the cut is replayed, so the cards it showed
    #: (in groups at their places) are shown again
    deck: bool = False
    #: optional, the game's re-deal rule for this view: ``redeal(world) -> check`` where
    #: ``check(hands, rng)`` says whether hands (masks, per seat) with the unknown cards dealt
    #: anew keep every visible action legal (false: no; a callable ``finish(world, moved)``: yes,
    #: and it brings the game's own fields in line - ``moved`` maps each unknown card to the one
    #: that took its place - or draws hidden choices anew), or None where a re-deal would not be
    #: exact (see :func:`redeal_worlds`)
    redeal: object = None

    def hand_slots(self, seat: int) -> list[int]:
        start = sum(self.hand_sizes[:seat])
        return list(range(start, start + self.hand_sizes[seat]))

    def stock_slots(self, start: int = 0, stop: int | None = None, step: int = 1) -> list[int]:
        base = sum(self.hand_sizes)
        stop = self.stock_size if stop is None else stop
        return [base + i for i in range(start, min(stop, self.stock_size), step)]

    def add(self, slots: list[int], cards) -> None:
        cards = list(cards)
        if cards:
            self.groups.append((list(slots), cards))


def supports_worlds(game) -> bool:
    """Whether ``game`` provides the ``world_spec`` hook."""
    return callable(game.world_spec)   # None on Game: declared absent


def world_spec(view: dict):
    """The game of a view and its :class:`WorldSpec`."""
    game = make_game(view["game"], variant=view["variant"], **view["options"])
    if not supports_worlds(game):
        raise WorldError(f"{view['game']} has no world_spec hook: it cannot be determinized yet")
    return game, game.world_spec(view)


def plays_by_seat(view: dict, start: int, n: int) -> list[list[str]]:
    """Per seat, the cards it played (visible ``play`` actions) from action ``start`` on."""
    out = [[] for _ in range(n)]
    for seat, text, _k in view["actions"][start:]:
        if text and text.startswith("play "):
            out[seat].append(text[5:])
    return out


_GAMES: dict = {}

#: switch for measurements: False draws every world by replay (as before the re-deal)
REDEAL = True


def cached_game(view: dict):
    """The game of a view, built once per (game, variant, options): building one costs more than
    a search bot's decision in some games (Biscambiggia's strength tables)."""
    key = (view["game"], view["variant"], tuple(sorted(view["options"].items())))
    hit = _GAMES.get(key)
    if hit is None:
        if len(_GAMES) > 64:
            _GAMES.clear()
        hit = _GAMES[key] = world_spec(view)[0]
    return hit


def sample_world(view: dict, rng: random.Random, max_tries: int = 2000, *, game=None, spec=None, model=None):
    """A complete state consistent with ``view`` (see the module docstring); :class:`WorldError`
    if none is found in ``max_tries`` attempts.  ``rng`` drives every random choice."""
    worlds = sample_worlds(view, rng, 1, max_tries=max_tries, game=game, spec=spec, model=model)
    if not worlds:
        raise WorldError(f"no world consistent with seat {view['seat']}'s view in {max_tries} tries")
    return worlds[0]


def sample_worlds(view: dict, rng: random.Random, count: int, max_tries: int = 2000, *, game=None,
                  spec=None, deadline=None, model=None, strict_deadline: bool = False) -> list:
    """Up to ``count`` independent consistent worlds, using at most ``max_tries`` attempts in all
    (and stopping at ``deadline``, a ``time.perf_counter()`` value, if given, once one world is
    found - or even with none, with ``strict_deadline``).

    ``model(world, seat, text) -> p`` (optional) is an opponent model: before another seat's
    visible action (not a card play) is replayed, the world is kept with probability ``p``, so
    worlds in which that action is likely weigh more (e.g. the heuristic bot's choice: 1, else
    a small probability).  Without it every consistent world is equally likely."""
    import time

    if view.get("seat") is None:
        raise WorldError("a world is sampled for a seat: the spectator's view is not enough")
    if game is None:
        game = cached_game(view)
    if spec is None:
        spec = game.world_spec(view)
    deck = game.deck
    codes = list(deck.codes)
    free_slots = set(range(sum(spec.hand_sizes) + spec.stock_size))
    known: set[str] = set()
    for _slots, cards in spec.groups:
        for c in cards:
            if c in known:
                raise WorldSpecError(f"card {c} is placed twice by {game.name}'s world_spec")
            known.add(c)
    if len(codes) != len(free_slots):
        raise WorldSpecError(f"{game.name}'s world_spec has {len(free_slots)} slots for {len(codes)} cards")
    unknown = [c for c in codes if c not in known]
    seat_of_slot = []
    for s, size in enumerate(spec.hand_sizes):
        seat_of_slot += [s] * size
    seat_of_slot += [None] * spec.stock_size
    forbidden = spec.forbidden
    out = []
    tries = 0
    while len(out) < count and tries < max_tries:
        if deadline is not None and (out or strict_deadline) and time.perf_counter() > deadline:
            break
        tries += 1
        layout = _deal(spec, unknown, seat_of_slot, forbidden, rng)
        if layout is None:
            continue
        try:
            world = _replay(game, view, spec, layout, rng, model)
        except StichError:   # a set-up the game refuses: count it as a rejected world
            world = None
        if world is not None:
            out.append(world)
            if model is None and spec.redeal is not None and len(out) < count and REDEAL:
                # One world by replay is enough: the others re-deal its unknown cards.
                out += redeal_worlds(game, view, spec, world, rng, count - len(out), deadline=deadline)
    return out


def redeal_worlds(game, view: dict, spec: WorldSpec, base, rng: random.Random, count: int,
                  max_tries: int | None = None, deadline=None) -> list:
    """Up to ``count`` worlds drawn from constraints instead of by replay: the cards the seat does
    not know (in no group of ``spec``) are dealt anew, uniformly, into the places they hold in
    ``base`` (a consistent world at the same decision, e.g. drawn by replay) - the same number in
    each other seat's hand, the same stock positions - and a deal is kept iff the game's check
    (``spec.redeal(base)``) says every visible action stays legal with the new hands.  Nothing is
    replayed: the world is ``base`` with the new hands and stock, and the events only the other
    seats saw (their deals) say the new cards.  Uniform over the consistent deals (rejection),
    so the same distribution as the replay sampler without a model; an empty list where the game
    has no exact re-deal for this view."""
    import time

    check = spec.redeal(base) if spec.redeal is not None else None
    if check is None:
        return []
    deck = game.deck
    seat = view["seat"]
    bit = 1 << seat
    known = 0
    for _slots, cards in spec.groups:
        for c in cards:
            known |= 1 << deck.parse(c)
    unknown = ((1 << len(deck)) - 1) & ~known
    hands = list(base.hands)
    counts = [0 if s == seat else (h & unknown).bit_count() for s, h in enumerate(hands)]
    fixed = [h if s == seat else h & ~unknown for s, h in enumerate(hands)]
    stock = list(getattr(base, "stock", None) or [])   # (Barbu and Biscambiggia have none)
    stock_at = [i for i, c in enumerate(stock) if unknown >> c & 1]
    pool = [c for s, h in enumerate(hands) if s != seat for c in bits(h & unknown)]
    pool += [stock[i] for i in stock_at]
    old = list(pool)
    # Cards a seat cannot hold (``spec.forbidden``: voids and the like) are dealt around, not
    # rejected: a void of one seat would reject most shuffles (Barbu, Biscambiggia).
    dealer = _Dealer.of(spec, seat, deck, counts, len(stock_at), pool)
    if dealer is False:
        return []
    codes = deck.codes
    out = []
    tries = 0
    max_tries = max_tries if max_tries is not None else 200 * count
    while len(out) < count and tries < max_tries:
        if deadline is not None and out and time.perf_counter() > deadline:
            break
        tries += 1
        if dealer is None:
            rng.shuffle(pool)
        else:
            pool = dealer.draw(rng)
        new = list(fixed)
        pos = 0
        for s, k in enumerate(counts):
            for c in pool[pos:pos + k]:
                new[s] |= 1 << c
            pos += k
        ok = check(new, rng)
        if not ok:
            continue
        world = base.clone()
        world.hands = new
        if stock_at:
            st = list(stock)
            for i, c in zip(stock_at, pool[pos:], strict=True):
                st[i] = c
            world.stock = st
        # The other seats' private events (their deals) name the cards of the new deal: the card
        # that took an old card's place in ``old`` (the same seat's hand or stock position).
        rename = {codes[a]: codes[b] for a, b in zip(old, pool, strict=True) if a != b}
        if rename:
            world.events = [(aud, ev) if aud is None or aud & bit else (aud, _renamed(ev, rename))
                            for aud, ev in base.events]
        world._legal = None   # a legal list cached for the base's hands (Barbu sets it eagerly)
        if callable(ok):
            ok(world, dict(zip(old, pool, strict=True)))
        world._folds = {}
        out.append(world)
    return out


class _Dealer:
    """Uniform deals of the unknown cards that honour ``WorldSpec.forbidden``.

    The holders are the other seats (as many cards each as in the base world) and the stock.  The
    cards fall into classes by the holders that may not hold them (a void suit of one seat, ...);
    cards of a class are interchangeable, so a deal is a split of each class among the holders
    allowed it.  The number of deals that give the holders ``rem`` cards from class ``i`` on,
    ``f(i, rem)``, is a sum of multinomials (the unconstrained cards last, in closed form); a split
    is drawn with its weight ``multinomial(class; split) * f(i+1, rem - split)`` and the cards of
    each class shuffled into it: every deal honouring the forbidden cards is equally likely."""

    __slots__ = ("counts", "classes", "free", "holders", "_f", "_splits")

    @classmethod
    def of(cls, spec, seat, deck, counts, stock_count, pool):
        """A dealer for ``pool``, None where nothing is forbidden (a plain shuffle is uniform), or
        False where no deal honours the forbidden cards."""
        forbidden = spec.forbidden
        if not forbidden or not any(forbidden):
            return None
        in_pool = 0
        for c in pool:
            in_pool |= 1 << c
        holders = [s for s in range(len(counts)) if s != seat]
        masks = []
        for s in holders:
            m = 0
            for code in forbidden[s] if s < len(forbidden) else ():
                m |= 1 << deck.parse(code)
            masks.append(m & in_pool)
        if not any(masks):
            return None
        d = object.__new__(cls)
        d.holders = holders
        d.counts = tuple(counts[s] for s in holders) + (stock_count,)
        masks.append(0)   # the stock: no rule says which cards it holds
        by_sig: dict[int, list[int]] = {}
        for c in pool:
            sig = 0
            for h, m in enumerate(masks):
                if m >> c & 1:
                    sig |= 1 << h
            by_sig.setdefault(sig, []).append(c)
        d.free = by_sig.pop(0, [])
        d.classes = [([h for h in range(len(masks)) if not sig >> h & 1], cards) for sig, cards in by_sig.items()]
        d._f, d._splits = {}, {}
        return d if d._count(0, d.counts) else False

    def _count(self, i: int, rem: tuple) -> int:
        if i == len(self.classes):
            return _multinomial(rem)   # the free cards: any holder (sum(rem) == len(free) here)
        key = (i, rem)
        hit = self._f.get(key)
        if hit is None:
            cumulative = self._options(i, rem)[1]
            hit = self._f[key] = cumulative[-1] if cumulative else 0
        return hit

    def _options(self, i: int, rem: tuple) -> list:
        key = (i, rem)
        hit = self._splits.get(key)
        if hit is not None:
            return hit
        allowed, cards = self.classes[i]
        k = len(cards)
        out = []

        def walk(j, left, split):
            if j == len(allowed) - 1:
                h = allowed[j]
                if left <= rem[h]:
                    split[h] = left
                    rest = tuple(r - x for r, x in zip(rem, split, strict=True))
                    w = _multinomial(split) * self._count(i + 1, rest)
                    if w:
                        out.append((tuple(split), w))
                    split[h] = 0
                return
            h = allowed[j]
            for x in range(min(left, rem[h]) + 1):
                split[h] = x
                walk(j + 1, left - x, split)
            split[h] = 0

        if allowed:
            walk(0, k, [0] * len(rem))
        total = 0
        cumulative = []
        for _split, w in out:
            total += w
            cumulative.append(total)
        hit = self._splits[key] = ([split for split, _w in out], cumulative)
        return hit

    def draw(self, rng) -> list[int]:
        """One deal: the cards of each holder in turn (the seats, then the stock), as the
        re-deal's pool."""
        got: list[list[int]] = [[] for _ in self.counts]
        rem = self.counts
        for i, (_allowed, cards) in enumerate(self.classes):
            splits, cumulative = self._options(i, rem)
            split = splits[bisect_right(cumulative, rng.randrange(cumulative[-1]))]
            cards = list(cards)
            rng.shuffle(cards)
            pos = 0
            for h, x in enumerate(split):
                if x:
                    got[h] += cards[pos:pos + x]
                    pos += x
            rem = tuple(a - b for a, b in zip(rem, split, strict=True))
        free = list(self.free)
        rng.shuffle(free)
        pos = 0
        for h, x in enumerate(rem):
            got[h] += free[pos:pos + x]
            pos += x
        return [c for cards in got for c in cards]


def _multinomial(parts) -> int:
    out, n = 1, 0
    for x in parts:
        n += x
        out *= comb(n, x)
    return out


def _renamed(value, rename: dict):
    if isinstance(value, str):
        return rename.get(value, value)
    if isinstance(value, list):
        return [_renamed(v, rename) for v in value]
    if isinstance(value, dict):
        return {k: _renamed(v, rename) for k, v in value.items()}
    return value




def past_plays(view: dict, trick_no: int) -> list[tuple[int, int, list[str], str]]:
    """The card plays of the current hand from the view, as ``(seat, trick number, cards before
    it in its trick, card)``; ``trick_no`` is the number of the trick being played now (the
    completed tricks of the hand are the view's last ones)."""
    done = view.get("tricks") or []
    done = done[len(done) - min(len(done), max(trick_no - 1, 0)):] if trick_no > 1 else []
    out = []
    first = trick_no - len(done)
    for i, t in enumerate([*(t["cards"] for t in done), view.get("trick") or []]):
        before: list[str] = []
        for p in t:
            out.append((p["seat"], first + i, list(before), p["card"]))
            before.append(p["card"])
    return out


def _deal(spec, unknown, seat_of_slot, forbidden, rng):
    """One random layout (a card code per slot) honouring the groups and the forbidden cards."""
    layout: list[str | None] = [None] * len(seat_of_slot)
    for slots, cards in spec.groups:
        free = [i for i in slots if layout[i] is None]
        if len(free) < len(cards):
            raise WorldSpecError("a group of the world_spec has more cards than free slots")
        chosen = rng.sample(free, len(cards))
        for i, c in zip(chosen, cards, strict=True):
            layout[i] = c
    free = [i for i in range(len(layout)) if layout[i] is None]
    cards = list(unknown)
    rng.shuffle(cards)
    if not forbidden or not any(forbidden):
        for i, c in zip(free, cards, strict=True):
            layout[i] = c
        return layout
    # Most constrained cards first: each goes to a random free slot whose holder may have it.
    def allowed(card, i):
        s = seat_of_slot[i]
        return s is None or card not in forbidden[s]

    cards.sort(key=lambda c: -sum(1 for f in forbidden if c in f))
    for c in cards:
        options = [i for i in free if allowed(c, i)]
        if not options:
            return None
        i = options[rng.randrange(len(options))]
        layout[i] = c
        free.remove(i)
    return layout


def _replay(game, view, spec, layout, rng, model=None):
    """Build the world from a layout and replay the hand; None if the seat would notice."""
    seat = view["seat"]
    bit = 1 << seat
    hands = []
    pos = 0
    for size in spec.hand_sizes:
        hands.append(layout[pos:pos + size])
        pos += size
    stock = layout[pos:]
    setup = dict(spec.setup)
    if spec.deck:
        setup["deck"] = stock
    elif spec.explicit:
        setup["hands"] = hands
        if spec.stock_size:
            setup["stock"] = stock
    world = game.new_state(seed=rng.randrange(2**62), **setup)
    fix = game.world_fixup
    if fix is not None:
        fix(world, view, spec)
    actions = view["actions"]
    events = view["events"]
    n_events = len(events)
    spliced = False
    for idx in spec.replay:
        who, text, k = actions[idx]
        if not spliced and idx >= spec.compare_from:
            _splice(game, world, view, k, idx, bit)
            spliced = True
        if world.current_player != who and not world.legal_actions(who):
            return None
        stop = actions[idx + 1][2] if idx + 1 < len(actions) else n_events
        compare = idx >= spec.compare_from
        if text is None:
            legal = list(world.legal_actions(who))
            rng.shuffle(legal)
            for act in legal:
                trial = world.clone()
                before = len(trial.events)
                trial.apply(act, seat=None if who == trial.current_player else who)
                if not compare or _same(trial.events, before, events, k, stop, bit):
                    world = trial
                    break
            else:
                return None
            continue
        try:
            _seat, act = game.parse_action(text)
        except StichError:
            return None
        if act not in world.legal_actions(who):
            return None
        if model is not None and who != seat and act.verb != game.card_verb and spliced:
            if rng.random() >= model(world, who, text):
                return None
        before = len(world.events)
        world.apply(act, seat=None if who == world.current_player else who)
        if compare and not _same(world.events, before, events, k, stop, bit):
            return None
    if not spliced:
        _splice(game, world, view, n_events, len(actions), bit)
    cur = view.get("current_player")
    if (world.current_player if world.current_player >= 0 else None) != cur:
        return None
    if cur == seat and "legal_actions" in view:
        if [str(a) for a in world.legal_actions()] != view["legal_actions"]:
            return None
    return world


def _splice(game, world, view, k, idx, bit) -> None:
    """Give the world the seat's own record of the hand before the compared actions.

    The events the seat saw up to the ``k``-th of the view (the cut, the peeks, the deals, ...)
    replace those the explicit set-up emitted for it (the events other seats saw in the world,
    such as their deals, are kept after them), and the visible actions before ``idx`` become the
    world's history of the hand: the world's view then equals the seat's view (an action the seat
    did not see before the deal point, rare, is left out of the world's history)."""
    private = game.reveal_events | {"deal", "partner", "partner_hand"}
    prefix = [(bit if ev["type"] in private else None, ev) for ev in view["events"][:k]]
    if view.get("scores") is not None and "scores" not in {ev["type"] for ev in view["events"]}:
        prefix.insert(0, (bit, {"type": "scores", "scores": view["scores"]}))   # earlier hands
    offset = len(prefix) - k
    world.events = prefix + [(aud, ev) for aud, ev in world.events if aud is not None and not aud & bit]
    history, marks = [], []
    for who, text, mark in view["actions"][:idx]:
        if text is not None:
            history.append((who, game.parse_action(text)[1]))
            marks.append(mark + offset)
    world.history = history
    world._action_marks = marks
    world._action_hidden = {}
    world._folds = {}


def _same(world_events, before, view_events, k, stop, bit) -> bool:
    """Whether the world's events from ``before`` on, as the seat sees them, equal view_events[k:stop]."""
    j = k
    for aud, ev in world_events[before:]:
        if aud is None or aud & bit:
            if j >= stop or view_events[j] != ev:
                return False
            j += 1
    return j == stop
