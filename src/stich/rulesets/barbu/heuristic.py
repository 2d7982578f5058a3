"""Barbu: the heuristic player.

* Contract choice: every remaining contract gets a fit in [0, 1] from the hand — no tricks / no
  last two: few high cards; no hearts: few and low hearts; no queens: no unguarded queens;
  Barbu: no K♥, or K♥ well guarded; trumps: the longest strong suit (the named trump); domino:
  the starting rank nearest the middle of the hand's cards.  The contract where the hand is
  most above an average hand's fit is called.
* Doubling: double a player when the hand fits the contract better than an average hand (by 0.3
  standard deviations; the caller, who chose the contract, only by 1), always when the "double
  the caller twice" obligation forces it; redouble whoever doubled me with an above-average fit
  (the caller unless his fit is half a deviation below average).
* Negative contracts: duck under the card that holds the trick (the highest card that still
  loses); when a trick is lost anyway, take it with the highest card; when void, throw the
  dangerous card (hearts from the ace down, queens, K♥ then A♥, else the highest card); lead
  the card most likely to be beaten.  No last two: shed high cards in tricks 1–10, duck later.
* Trumps: lead a trump or side card no unseen card beats, else low; win with the cheapest card
  that holds the trick, else play the lowest.
* Domino: play the card that unblocks most of my own cards in its direction, end cards (A, 2)
  that help nobody first, and hold back cards that would only open the way for the others.
"""

from __future__ import annotations

from math import fsum  # fsum totals: exact, the same choices under every Python (test_python_versions)

from stich.roles.heuristic import arg, by_verb, follow, played_cards

SUITS = ("S", "H", "D", "C")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RV = {r: i + 2 for i, r in enumerate(RANKS)}          # 2..14
DECK = [s + r for s in SUITS for r in RANKS]
NEGATIVE = ("NO_TRICKS", "NO_HEARTS", "NO_QUEENS", "BARBU", "NO_LAST_TWO")


def rv(card: str) -> int:
    return RV[card[1:]]


def suit_cards(hand, s):
    return [c for c in hand if c[0] == s]


def clip(x: float) -> float:
    return max(0.0, min(1.0, x))


# --- contract fits ---------------------------------------------------------------------------

def fit_no_tricks(hand) -> float:
    danger = sum(max(0, rv(c) - 9) for c in hand)
    for s in SUITS:
        cs = suit_cards(hand, s)
        if cs and min(rv(c) for c in cs) >= 9:
            danger += 3                              # no low card to duck with
    return clip(1 - danger / 30)


def fit_no_last_two(hand) -> float:
    danger = sum(max(0, rv(c) - 10) for c in hand) + 2 * sum(1 for c in hand if rv(c) == 14)
    return clip(1 - danger / 25)


def fit_no_hearts(hand) -> float:
    hearts = suit_cards(hand, "H")
    danger = sum(max(0, rv(c) - 6) for c in hearts)
    if hearts and min(rv(c) for c in hearts) <= 4:
        danger -= 3
    danger += 2 * sum(1 for s in SUITS if s != "H" and len(suit_cards(hand, s)) >= 5)
    return clip(1 - danger / 24)


def fit_no_queens(hand) -> float:
    danger = 0.0
    for s in SUITS:
        cs = suit_cards(hand, s)
        low = sum(1 for c in cs if rv(c) <= 9)
        if s + "Q" in cs:
            danger += max(1, 6 - 2 * low)
        danger += 1.5 * sum(1 for c in cs if rv(c) >= 13 and low <= 1)
    return clip(1 - danger / 14)


def fit_barbu(hand) -> float:
    hearts = suit_cards(hand, "H")
    low = sum(1 for c in hearts if rv(c) <= 9)
    danger = 0.0
    if "HK" in hand:
        danger += max(3, 12 - 3 * low)
    if "HA" in hand and "HK" not in hand:
        danger += 4 if low <= 1 else 1
    danger += sum(1 for c in hand if rv(c) >= 13) * 0.5
    return clip(1 - danger / 14)


def best_trump(hand) -> tuple[str, float]:
    best, best_v = SUITS[0], -1.0
    for s in SUITS:
        cs = suit_cards(hand, s)
        v = len(cs) * 1.0 + fsum(max(0, rv(c) - 10) * 0.4 for c in cs)
        if v > best_v:
            best, best_v = s, v
    side_aces = sum(1 for c in hand if c[0] != best and rv(c) == 14)
    tricks = 0.8 * max(0, best_v - 2) + side_aces
    return best, clip(tricks / 10)


def best_domino(hand, ranks=RANKS) -> tuple[str, float]:
    best, best_cost = ranks[0], 1e9
    for r in ranks:
        cost = sum(abs(rv(c) - RV[r]) for c in hand) - 3 * sum(1 for c in hand if c[1:] == r)
        if cost < best_cost:
            best, best_cost = r, cost
    return best, clip(1 - best_cost / 60)


FITS = {"NO_TRICKS": fit_no_tricks, "NO_HEARTS": fit_no_hearts, "NO_QUEENS": fit_no_queens,
        "BARBU": fit_barbu, "NO_LAST_TWO": fit_no_last_two,
        "TRUMPS": lambda h: best_trump(h)[1], "DOMINO": lambda h: best_domino(h)[1]}
# mean and spread of each fit over random hands: a contract is called where the hand is
# unusually good for it (z-score), with a mild preference for the positive contracts
FIT_STATS = {"NO_TRICKS": (0.46, 0.20), "NO_HEARTS": (0.65, 0.24), "NO_QUEENS": (0.72, 0.23),
             "BARBU": (0.78, 0.24), "NO_LAST_TWO": (0.52, 0.21), "TRUMPS": (0.42, 0.13),
             "DOMINO": (0.44, 0.11)}
BIAS = {"TRUMPS": 0.3, "DOMINO": 0.2}


def contract_fit(view, hand) -> float:
    c = view.get("contract")
    if c == "TRUMPS" and view.get("trump"):
        t = view["trump"]
        cs = suit_cards(hand, t)
        v = len(cs) + fsum(max(0, rv(x) - 10) * 0.4 for x in cs)
        aces = sum(1 for x in hand if x[0] != t and rv(x) == 14)
        return clip((0.8 * max(0, v - 2) + aces) / 10)
    if c == "DOMINO" and view.get("domino_rank"):
        r = view["domino_rank"]
        cost = sum(abs(rv(x) - RV[r]) for x in hand) - 3 * sum(1 for x in hand if x[1:] == r)
        return clip(1 - cost / 60)
    f = FITS.get(c)
    return f(hand) if f else 0.5


def choose_contract(view, legal) -> str:
    hand = view.get("hand") or []
    trump, trump_fit = best_trump(hand)
    ranks = [a.split()[2] for a in legal if a.startswith("contract DOMINO ")]
    dom, dom_fit = best_domino(hand, ranks) if ranks else (None, 0.0)
    best, best_v = legal[0], -1e9
    for a in legal:
        parts = a.split()
        name = parts[1] if len(parts) > 1 else ""
        if name == "TRUMPS":
            if len(parts) > 2 and parts[2] != trump:
                continue
            v = trump_fit
        elif name == "DOMINO":
            if len(parts) > 2 and parts[2] != dom:
                continue
            v = dom_fit
        else:
            f = FITS.get(name)
            v = f(hand) if f else 0.0
        mean, sd = FIT_STATS.get(name, (0.5, 0.2))
        v = (v - mean) / sd + BIAS.get(name, 0.0)
        if v > best_v:
            best, best_v = a, v
    return best


# --- doubling --------------------------------------------------------------------------------

def seat_of(token: str) -> int:
    """A seat in a doubling action: ``2`` is 1-based (stich text), ``P1`` the rules' 0-based name."""
    if token[0] in "Pp":
        return int(token[1:])
    return int(token) - 1


def parse_doubling(action: str) -> tuple[frozenset, frozenset]:
    """The 0-based seats an action doubles and redoubles (``double 1,3 redouble 2``)."""
    dbl, rdbl = set(), set()
    words = action.split()
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("double", "redouble") and i + 1 < len(words):
            seats = {seat_of(x) for x in words[i + 1].split(",") if x}
            (dbl if w == "double" else rdbl).update(seats)
            i += 2
        else:
            i += 1
    return frozenset(dbl), frozenset(rdbl)


def choose_doubling(view, legal) -> str:
    hand = view.get("hand") or []
    seat, caller = view["seat"], view.get("caller")
    mean, sd = FIT_STATS.get(view.get("contract"), (0.5, 0.2))
    z = (contract_fit(view, hand) - mean) / sd          # how much better than an average hand
    options = [(parse_doubling(a), a) for a in legal]
    may_d = set().union(*(d for (d, _r), _a in options))
    may_r = set().union(*(r for (_d, r), _a in options))
    want_d = {p for p in may_d if z >= (1.0 if p == caller else 0.3)}
    want_r = set(may_r) if z >= (-0.5 if seat == caller else 0.0) else set()

    def score(opt):
        (d, r), _a = opt
        return (len(d ^ want_d) + len(r ^ want_r), len(d) + len(r))

    return min(options, key=score)[1]


# --- card play -------------------------------------------------------------------------------

def unseen_cards(view, hand):
    gone = played_cards(view) | set(hand)
    return [c for c in DECK if c not in gone]


def danger_key(contract, card, hand):
    """How urgently a card should be thrown away when void (higher = sooner)."""
    r = rv(card)
    short = len(suit_cards(hand, card[0]))
    base = r * 10 - short
    if contract == "NO_HEARTS" and card[0] == "H":
        return 1000 + base
    if contract == "NO_QUEENS":
        if card[1:] == "Q":
            return 1000 + base
    if contract == "BARBU":
        if card == "HK":
            return 2000
        if card == "HA":
            return 1500
    return base


def negative_play(view, cards, hand):
    contract = view.get("contract")
    trick = view.get("trick") or []
    unseen = unseen_cards(view, hand)
    n_done = len(view.get("tricks") or [])
    penal = {"NO_QUEENS": lambda c: c[1:] == "Q", "BARBU": lambda c: c == "HK",
             "NO_HEARTS": lambda c: c[0] == "H"}.get(contract, lambda c: False)
    if contract == "NO_LAST_TWO" and n_done < 10:
        if not trick:
            return max(cards, key=lambda c: (rv(c), c))
        lead = trick[0]["card"]
        if all(c[0] != lead[0] for c in cards):
            return max(cards, key=lambda c: danger_key(contract, c, hand))
        return max(cards, key=lambda c: (rv(c), c))
    if not trick:
        safe = [c for c in cards if not penal(c)] or cards

        def lead_key(c):
            lower = sum(1 for u in unseen if u[0] == c[0] and rv(u) < rv(c))
            higher = sum(1 for u in unseen if u[0] == c[0] and rv(u) > rv(c))
            return (100 if higher == 0 else 0) + lower - 0.1 * higher, rv(c), c
        return min(safe, key=lead_key)
    lead = trick[0]["card"]
    follow_suit = [c for c in cards if c[0] == lead[0]]
    if not follow_suit:
        return max(cards, key=lambda c: (danger_key(contract, c, hand), c))
    high = max(rv(p["card"]) for p in trick if p["card"][0] == lead[0])
    under = [c for c in follow_suit if rv(c) < high]
    if under:
        return max(under, key=lambda c: (rv(c), c))
    last = len(trick) == 3
    if last:
        ok = [c for c in follow_suit if not penal(c)] or follow_suit
        return max(ok, key=lambda c: (rv(c), c))
    # may still be overtaken: lowest card over the winner, never the penalty card if avoidable
    ok = [c for c in follow_suit if not penal(c)] or follow_suit
    others_higher = [u for u in unseen if u[0] == lead[0]]
    if not others_higher:
        return max(ok, key=lambda c: (rv(c), c))
    return min(ok, key=lambda c: (rv(c), c))


def trumps_play(view, cards, hand, rng):
    trump = view.get("trump")
    trick = view.get("trick") or []
    seat = view["seat"]
    unseen = unseen_cards(view, hand)

    def strength(c, lead, _pos):
        if c[0] == trump:
            return 200 + rv(c)
        return 100 + rv(c) if c[0] == lead[0] else 0

    def keep(c):
        return rv(c) + (20 if c[0] == trump else 0)

    if not trick:
        trumps_out = [u for u in unseen if u[0] == trump]
        my_trumps = [c for c in cards if c[0] == trump]
        if my_trumps and trumps_out and rv(max(my_trumps, key=rv)) > max(rv(u) for u in trumps_out):
            return max(my_trumps, key=rv)
        for c in sorted(cards, key=rv, reverse=True):
            if c[0] != trump and all(not (u[0] == c[0] and rv(u) > rv(c)) for u in unseen):
                return c
        side = [c for c in cards if c[0] != trump] or cards
        return min(side, key=lambda c: (rv(c), rng.random()))
    on_table = {p["seat"] for p in trick}
    after = [s for s in range(4) if s not in on_table and s != seat]
    lead = trick[0]["card"]

    def safe(card, s):
        return all(strength(u, lead, 0) <= s for u in unseen)

    return follow(cards, trick, strength, set(), after, keep, safe)


def domino_play(view, cards, hand):
    layout = view.get("layout") or {}
    start = RV.get(view.get("domino_rank") or "8", 8)

    def score(c):
        s, r = c[0], rv(c)
        mine = [rv(x) for x in hand if x[0] == s and x != c]
        row = layout.get(s)
        if not row:
            beyond = [m for m in mine]
            terminal = False
        elif r > rv(row[1]) or (r == rv(row[1]) + 1):
            beyond = [m for m in mine if m > r]
            terminal = r == 14
        else:
            beyond = [m for m in mine if m < r]
            terminal = r == 2
        gap = min((abs(m - r) for m in beyond), default=0)
        sc = 3 * len(beyond) - gap
        if terminal:
            sc += 4
        elif not beyond:
            sc -= 2 if row else 3
        return (sc, -abs(r - start), c)

    return max(cards, key=score)


def choose(view: dict, legal: list[str], rng) -> str:
    verbs = by_verb(legal)
    if "contract" in verbs:
        return choose_contract(view, verbs["contract"])
    if any(a.startswith(("double", "redouble")) for a in legal):
        return choose_doubling(view, legal)
    if "play" in verbs:
        hand = list(view.get("hand") or [])
        cards = [arg(a) for a in verbs["play"]]
        contract = view.get("contract")
        if contract == "DOMINO":
            return "play " + domino_play(view, cards, hand)
        if contract == "TRUMPS":
            return "play " + trumps_play(view, cards, hand, rng)
        return "play " + negative_play(view, cards, hand)
    return legal[0]


# --- ranking (read by the search's evaluated decisions, ``search/decide.py``) -------------------

def rank(view: dict, legal: list[str]) -> list[str]:
    """Contracts best first by how much better than an average hand this one fits them; the
    doubling round's answers by how close they are to the doubles the hand wants."""
    hand = view.get("hand") or []
    if any(a.startswith("contract ") for a in legal):
        trump, trump_fit = best_trump(hand)
        ranks = [a.split()[2] for a in legal if a.startswith("contract DOMINO ")]
        dom, dom_fit = best_domino(hand, ranks) if ranks else (None, 0.0)

        def v(a):
            parts = a.split()
            name = parts[1] if len(parts) > 1 else ""
            if name == "TRUMPS":
                f = trump_fit - (0.5 if len(parts) > 2 and parts[2] != trump else 0.0)
            elif name == "DOMINO":
                f = dom_fit - (0.5 if len(parts) > 2 and parts[2] != dom else 0.0)
            else:
                fit = FITS.get(name)
                f = fit(hand) if fit else 0.0
            mean, sd = FIT_STATS.get(name, (0.5, 0.2))
            return (f - mean) / sd + BIAS.get(name, 0.0)
        return sorted(legal, key=v, reverse=True)
    if any(a.startswith(("double", "redouble")) for a in legal):
        best = choose_doubling(view, legal)
        want_d, want_r = parse_doubling(best)
        return sorted(legal, key=lambda a: len(parse_doubling(a)[0] ^ want_d) + len(parse_doubling(a)[1] ^ want_r))
    return list(legal)
