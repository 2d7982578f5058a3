"""Biscambiggia chiamata: the heuristic player.

* Bidding: the hand is worth ~0.8 × its card points + 5 per card of its best suit (+10 with four
  or more, +8 for its Ace, +6 for its 7) + 18 for the partner; bid one more than the current bid
  while that stays within the estimate, else pass (the compulsory opener bids the minimum).
* Call: trump = the suit with the most cards and points; call its best card the caller lacks
  (so the partner holds the missing top trump).
* Play: the side is known to the traitor, to the caller once the called card is out, and to
  everybody then; before that an opponent treats the other non-callers as partners.  Partner
  holding the trick safely: smear points (a non-trump Ace or 7 first).  Enemy winning: take the
  trick with the cheapest card that holds it when it carries points or the winner costs nothing,
  else throw a worthless card.  Lead the unbeatable top trump when the caller's side may draw
  trumps, otherwise a worthless card.
"""

from __future__ import annotations

from stich.roles.heuristic import arg, by_verb, played_cards
from stich.rulesets.biscambiggia import rules

# The game's own rule facts (BB-0.2), not copies: suits, card codes, rank orders, card points.
SUITS = rules.DECK.suit_codes
ORDERS = {kind: tuple(reversed(order)) for kind, order in rules.ORDER.items()}   # lowest first
POINTS = rules.POINTS_BY_RANK
DECK = list(rules.DECK.codes)


class Ctx:
    def __init__(self, view):
        self.view = view
        opts = view.get("options") or {}
        kind = opts.get("ranking", "biscambiggia")
        self.order = {r: i for i, r in enumerate(ORDERS.get(kind, ORDERS["biscambiggia"]))}
        self.pts = POINTS.get(kind, POINTS["biscambiggia"])
        self.seat = view["seat"]
        self.n = view.get("num_players", 5)
        self.hand = list(view.get("hand") or [])
        self.trump = view.get("trump")
        self.played = played_cards(view)
        self.unseen = [c for c in DECK if c not in self.played and c not in self.hand]
        contract = view.get("contract") or {}
        self.caller = contract.get("caller")
        self.friends = self._friends()

    def _friends(self):
        v = self.view
        teams = v.get("teams")
        if teams:
            for side in teams.values():
                if self.seat in side:
                    return {s for s in side if s != self.seat}
        role = v.get("role")
        if role == "traitor":
            return {self.caller}
        if role == "caller":
            return {v["partner"]} if v.get("partner") is not None else set()
        if role == "opponent":
            return {s for s in range(self.n) if s not in (self.seat, self.caller)}
        return set()

    def points(self, card):
        return self.pts.get(card[1:], 0)

    def rank(self, card):
        return self.order[card[1:]]

    def strength(self, card, lead):
        if card[0] == self.trump:
            return 200 + self.rank(card)
        if card[0] == lead[0]:
            return 100 + self.rank(card)
        return 0

    def cost(self, card):
        """How much a card is worth keeping: points, then trumps, then rank."""
        return self.points(card) * 10 + (60 if card[0] == self.trump else 0) + self.rank(card)


def estimate(ctx: Ctx) -> tuple[float, str]:
    """Expected points of the caller's side with the best trump, and that suit."""
    hand_pts = sum(ctx.points(c) for c in ctx.hand)
    best, best_suit = -1.0, SUITS[0]
    for s in SUITS:
        mine = [c for c in ctx.hand if c[0] == s]
        n = len(mine)
        bonus = 5 * n + (10 if n >= 4 else 0)
        ranks = {c[1:] for c in mine}
        first, second = (r for r, i in sorted(ctx.order.items(), key=lambda x: -x[1])[:2])
        bonus += (8 if first in ranks else 0) + (6 if second in ranks else 0)
        v = 0.8 * hand_pts + bonus + 18
        if v > best:
            best, best_suit = v, s
    return min(best, 120.0), best_suit


def choose_call(ctx: Ctx, legal_cards) -> str:
    def suit_score(s):
        mine = [c for c in ctx.hand if c[0] == s]
        return len(mine) * 10 + sum(ctx.points(c) + ctx.rank(c) for c in mine)
    suits = sorted(SUITS, key=suit_score, reverse=True)
    legal = set(legal_cards)
    for s in suits:
        missing = [c for c in DECK if c[0] == s and c not in ctx.hand and c in legal]
        if missing:
            return max(missing, key=ctx.rank)
    return legal_cards[0]


def choose_play(ctx: Ctx, cards, rng) -> str:
    trick = ctx.view.get("trick") or []
    trump = ctx.trump
    if not trick:
        trumps = [c for c in cards if c[0] == trump]
        caller_side = ctx.view.get("role") in ("caller", "caller_alone", "traitor") or \
            ctx.seat == ctx.caller
        if caller_side and trumps:
            top = max(trumps, key=ctx.rank)
            if all(not (u[0] == trump and ctx.rank(u) > ctx.rank(top)) for u in ctx.unseen) \
                    and len(trumps) >= 2:
                return top
        low = [c for c in cards if c[0] != trump and ctx.points(c) == 0] or cards
        return min(low, key=lambda c: (ctx.cost(c), rng.random()))
    lead = trick[0]["card"]
    best, best_seat = -1, None
    for p in trick:
        s = ctx.strength(p["card"], lead)
        if s > best:
            best, best_seat = s, p["seat"]
    on_table = {p["seat"] for p in trick}
    after = [s for s in range(ctx.n) if s not in on_table and s != ctx.seat]
    enemies_after = [s for s in after if s not in ctx.friends]
    table_pts = sum(ctx.points(p["card"]) for p in trick)

    def safe(strength):
        return not enemies_after or all(ctx.strength(u, lead) <= strength for u in ctx.unseen)

    def lowest():
        return min(cards, key=lambda c: (ctx.cost(c), c))

    if best_seat in ctx.friends and safe(best):
        side = [c for c in cards if c[0] != trump and ctx.points(c) > 0]
        if side:
            return max(side, key=lambda c: (ctx.points(c), c))
        return lowest()
    winners = [c for c in cards if ctx.strength(c, lead) > best]
    sure = [c for c in winners if safe(ctx.strength(c, lead))]
    pool = sure or ([] if enemies_after and best_seat in ctx.friends else winners)
    if pool:
        cand = min(pool, key=lambda c: (ctx.cost(c), c))
        cheap = ctx.points(cand) == 0 and (cand[0] != trump or ctx.rank(cand) < 5)
        worth = table_pts + ctx.points(cand) >= 10 or (table_pts > 0 and cheap) or \
            (cheap and cand[0] != trump)
        if worth and (sure or not enemies_after or table_pts >= 10):
            return cand
    return lowest()


def choose(view: dict, legal: list[str], rng) -> str:
    verbs = by_verb(legal)
    ctx = Ctx(view)
    if "bid" in verbs:
        bids = sorted(int(arg(a)) for a in verbs["bid"])
        est, _suit = estimate(ctx)
        if "pass" not in verbs:
            return f"bid {bids[0]}"
        if bids and bids[0] <= est:
            return f"bid {bids[0]}"
        return "pass"
    if "call" in verbs:
        return "call " + choose_call(ctx, [arg(a) for a in verbs["call"]])
    if "play" in verbs:
        return "play " + choose_play(ctx, [arg(a) for a in verbs["play"]], rng)
    return legal[0]


# --- ranking (read by the search's evaluated decisions, ``search/decide.py``) -------------------

def rank(view: dict, legal: list[str]) -> list[str]:
    """Auction: the pass, the lowest bid, then bids up to the hand's estimate; the call: the
    missing cards of the suits the hand is longest and strongest in, highest first."""
    verbs = by_verb(legal)
    ctx = Ctx(view)
    if "bid" in verbs:
        bids = sorted(int(arg(a)) for a in verbs["bid"])
        est, _suit = estimate(ctx)
        out = ["pass"] if "pass" in verbs else []
        out += [f"bid {b}" for b in bids[:1]]
        out += [f"bid {b}" for b in bids[1:] if b <= est + 5][-2:]
        return out
    if "call" in verbs:
        def suit_score(s):
            mine = [c for c in ctx.hand if c[0] == s]
            return len(mine) * 10 + sum(ctx.points(c) + ctx.rank(c) for c in mine)
        cards = [arg(a) for a in verbs["call"]]
        order = {s: i for i, s in enumerate(sorted(SUITS, key=suit_score, reverse=True))}
        return ["call " + c for c in sorted(cards, key=lambda c: (order.get(c[0], 9), -ctx.rank(c)))]
    return list(legal)
