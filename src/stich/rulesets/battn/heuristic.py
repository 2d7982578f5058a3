"""Battn (Sappada): the heuristic player.

* Hand value = expected tricks: Critici ≈ 1, Il Buono 0.95, Uno Buono 0.6, plain trumps by rank,
  plain aces a little; a card no unseen card can beat counts 1.  Once play starts the partner's
  hand is known (BT-7.5) and the team value is mine + his.
* Scheanara: ask / agree with a weak hand (value < 1).  Schlòk (R): the rank that makes the hand
  strongest averaged over the four Trumpf; Trumpf (D): the strongest suit for the named Schlòk.
* Orbi: declared when the team trails by 3 or more.  Orbi / X: play on unless the team value is
  below 1.8 (refusing costs 2, playing risks 3).  Raise from a team value of 3.2, counter-raise
  from 3.8, accept from 1.8, otherwise fold.
* Play: lead a card nobody can beat, else the lowest card; follow by discarding low when the
  partner holds the trick safely or will surely take it (his hand is known), else winning with
  the cheapest card that holds, else discarding the lowest.
"""

from __future__ import annotations

from functools import cache
from math import fsum  # fsum totals: exact, the same choices under every Python (test_python_versions)

from stich.roles.heuristic import arg, by_verb, follow, played_cards

SUITS = ("Po", "St", "Ra", "Sc")
RANKS = ("2", "3", "4", "5", "6", "7", "J", "N", "K", "A")
CRITICI = {"PoK": 3, "St4": 2, "Ra7": 1}            # Barba > Belli > Spitz
DECK = [s + r for s in SUITS for r in RANKS]


def split(card: str) -> tuple[str, str]:
    return card[:2], card[2:]


def plain_value(rank: str, ace_high: bool = True) -> int:
    if rank == "A":
        return 10 if ace_high else 0
    return RANKS.index(rank) + 1


class Ranking:
    """BT-10.1 strength for one (Schlòk, Trumpf); either may still be unknown (None)."""

    def __init__(self, schlok, trumpf, opts):
        self.schlok, self.trumpf = schlok, trumpf
        self.ace_high = opts.get("ace_rank", "high") == "high"
        self.crit_equal = bool(opts.get("critici_equal", False))
        self.uno_last = opts.get("uno_buono_tie") == "last_played"
        self.plain_any = bool(opts.get("plain_any_suit_wins", False))

    def kind(self, card):
        if card in CRITICI:
            return 5
        s, r = split(card)
        if self.schlok is not None and r == self.schlok:
            return 4 if (self.trumpf is not None and s == self.trumpf) else 3
        if self.trumpf is not None and s == self.trumpf:
            return 2
        return 1

    def key(self, card):
        """Trump-class strength independent of the trick (0 for plain cards)."""
        k = self.kind(card)
        if k == 5:
            return 5000 + CRITICI[card]
        if k == 4:
            return 4000
        if k == 3:
            return 3000
        if k == 2:
            return 2000 + plain_value(split(card)[1], self.ace_high)
        return 0

    def strength(self, card, lead, pos):
        k = self.kind(card)
        if k == 5:
            return 5000 + ((3 - pos) if self.crit_equal else CRITICI[card])
        if k == 4:
            return 4000
        if k == 3:
            return 3000 + (pos if self.uno_last else 3 - pos)
        if k == 2:
            return 2000 + plain_value(split(card)[1], self.ace_high)
        v = plain_value(split(card)[1], self.ace_high)
        if self.plain_any:
            return 1000 + v * 10 - pos
        if self.kind(lead) == 1 and split(card)[0] == split(lead)[0]:
            return 1000 + v
        return 0

    def keep(self, card):
        return self.key(card) or plain_value(split(card)[1], self.ace_high)


def card_value(rk: Ranking, card: str) -> float:
    k = rk.kind(card)
    if k == 5:
        return 1.0
    if k == 4:
        return 0.95
    if k == 3:
        return 0.6
    if k == 2:
        return 0.2 + 0.04 * plain_value(split(card)[1], rk.ace_high)
    return {"A": 0.2, "K": 0.12, "N": 0.08}.get(split(card)[1], 0.03)


@cache
def _card_worth(card: str, schlok, trumpf, ace_high: bool) -> float:
    # pure and small: cached, since the search bots' opponent model asks the heuristic's
    # Schlòk / Trumpf choice in every sampled world (40 rank-suit pairs of a 5-card hand)
    return card_value(Ranking(schlok, trumpf, {"ace_rank": "high" if ace_high else "low"}), card)


def value(cards, schlok, trumpf, opts) -> float:
    ace_high = opts.get("ace_rank", "high") == "high"
    return fsum(_card_worth(c, schlok, trumpf, ace_high) for c in cards)


def schlok_worth(cards, r, trumpf, opts) -> float:
    """The hand's value with Schlòk ``r``: under ``trumpf``, or on average over the suits while
    the Trumpf is not known."""
    if trumpf is None:
        return fsum(value(cards, r, t, opts) for t in SUITS) / 4
    return value(cards, r, trumpf, opts)


def trumpf_worth(cards, t, schlok, opts) -> float:
    """The hand's value with Trumpf ``t``: under ``schlok``, or on average over the ranks while
    the Schlòk is not known."""
    if schlok is None:
        return fsum(value(cards, r, t, opts) for r in RANKS) / len(RANKS)
    return value(cards, schlok, t, opts)


def best_schlok(cards, trumpf, ranks, opts):
    return max(ranks, key=lambda r: (schlok_worth(cards, r, trumpf, opts), RANKS.index(r)))


def best_trumpf(cards, schlok, suits, opts):
    return max(suits, key=lambda t: trumpf_worth(cards, t, schlok, opts))


def open_value(cards, schlok, trumpf, opts) -> float:
    """The hand's value with what is still open in the choice taken at its best."""
    if schlok is not None and trumpf is not None:
        return value(cards, schlok, trumpf, opts)
    if schlok is not None:
        return max(value(cards, schlok, t, opts) for t in SUITS)
    return max(value(cards, r, t, opts) for r in RANKS for t in SUITS) * 0.8


class Ctx:
    def __init__(self, view):
        self.view = view
        self.opts = view.get("options") or {}
        info = view.get("info") or {}
        self.info = info
        self.seat = view["seat"]
        self.team = self.seat & 1
        self.partner = (self.seat + 2) % 4
        self.hand = list(view.get("hand") or [])
        known = view.get("known_hands") or [None] * 4
        self.partner_hand = list(known[self.partner] or [])
        self.rk = Ranking(info.get("schlok"), info.get("trumpf"), self.opts)
        self.played = played_cards(view)
        mine = set(self.hand) | set(self.partner_hand)
        self.unseen = [c for c in DECK if c not in self.played and c not in mine]

    def unbeaten(self, card) -> bool:
        k = self.rk.key(card)
        return k > 0 and all(self.rk.key(u) < k or (self.rk.kind(u) == 3 and self.rk.kind(card) == 3)
                             for u in self.unseen)

    def team_value(self) -> float:
        tricks = self.info.get("tricks") or [0, 0]
        ours = tricks[self.team]
        if self.rk.schlok is None or self.rk.trumpf is None:
            return ours + open_value(self.hand, self.rk.schlok, self.rk.trumpf, self.opts) \
                + 0.3 * len(self.hand)
        v = 0.0
        for c in self.hand + self.partner_hand:
            v += 1.0 if self.unbeaten(c) else card_value(self.rk, c)
        if not self.partner_hand:
            v += 0.3 * len(self.hand)
        left = 5 - sum(tricks)
        return ours + min(v, left)


def choose_play(ctx: Ctx, cards, rng):
    rk = ctx.rk
    trick = ctx.view.get("trick") or []
    if not trick:
        bosses = [c for c in cards if ctx.unbeaten(c)]
        if bosses:
            return max(bosses, key=rk.keep)
        plain = [c for c in cards if not rk.key(c)] or cards
        low = min(rk.keep(c) for c in plain)
        return rng.choice(sorted(c for c in plain if rk.keep(c) == low))
    on_table = {p["seat"] for p in trick}
    after = [s for s in range(4) if s not in on_table and s != ctx.seat]
    lead = trick[0]["card"]
    n_after = len(trick) + 1

    def beats_unseen(strength, start):
        return all(rk.strength(u, lead, pos) <= strength
                   for u in ctx.unseen for pos in range(start, 4))

    def safe(card, strength):
        return beats_unseen(strength, n_after)

    # partner still to play and sure to take the trick: keep my good cards
    if ctx.partner in after and ctx.partner_hand:
        ppos = len(trick) + 1 + after.index(ctx.partner)
        best = max(rk.strength(p["card"], lead, i) for i, p in enumerate(trick))
        for pc in ctx.partner_hand:
            s = rk.strength(pc, lead, ppos)
            if s > best and beats_unseen(s, ppos + 1):
                return min(cards, key=rk.keep)
    return follow(cards, trick, rk.strength, {ctx.partner}, after, rk.keep, safe)


def choose(view: dict, legal: list[str], rng) -> str:
    verbs = by_verb(legal)
    ctx = Ctx(view)
    opts = ctx.opts
    if "cut_done" in verbs:
        return "cut_done"
    if "cut" in verbs:
        return rng.choice(verbs["cut"])
    if "orbi" in verbs:
        scores = view.get("scores") or [0, 0]
        return "orbi" if scores[1 - ctx.team] - scores[ctx.team] >= 3 else "orbi_pass"
    if "scheanara" in verbs:
        weak = open_value(ctx.hand, None, None, opts) < 1.0
        return "scheanara" if weak else "scheanara_pass"
    if "scheanara_yes" in verbs:
        weak = open_value(ctx.hand, None, None, opts) < 1.1
        return "scheanara_yes" if weak else "scheanara_no"
    if "schlok" in verbs:
        ranks = [arg(a) for a in verbs["schlok"]]
        return "schlok " + best_schlok(ctx.hand, ctx.rk.trumpf, ranks, opts)
    if "trumpf" in verbs:
        suits = [arg(a) for a in verbs["trumpf"]]
        return "trumpf " + best_trumpf(ctx.hand, ctx.rk.schlok, suits, opts)
    if "orbi_accept" in verbs:
        return "orbi_accept" if ctx.team_value() >= 1.8 else "orbi_refuse"
    if "x_play" in verbs:
        return "x_play" if ctx.team_value() >= 1.8 else "x_decline"
    if "accept" in verbs or "fold" in verbs:
        v = ctx.team_value()
        if v >= 3.8 and "raise" in verbs:
            return "raise"
        if v >= 1.8 and "accept" in verbs:
            return "accept"
        return "fold" if "fold" in verbs else legal[0]
    if "pass" in verbs and "raise" in verbs and "play" not in verbs:
        return "raise" if ctx.team_value() >= 3.2 else "pass"
    if "play" in verbs:
        if "raise" in verbs and ctx.team_value() >= 3.2:
            return "raise"
        return "play " + choose_play(ctx, [arg(a) for a in verbs["play"]], rng)
    passive = [a for a in legal if a not in ("raise", "misraise") and not a.startswith("svista")]
    return passive[0] if passive else legal[0]


# --- bets (read by ``heuristic.raising``) -----------------------------------------------------

#: the logistic curve from the team value to the chance to win the turn (centre, slope, what each
#: raise of the opponents takes off the log-odds), fitted to heuristic self-play (``raising``)
BET_CURVE = (3.1, 1.5, 0.2)


def bet_reading(view: dict):
    """``(team value, my team's score, theirs, stake, their raises)``."""
    ctx = Ctx(view)
    scores = list(view.get("scores") or [0, 0])
    info = view.get("info") or {}
    stake = int(info.get("stake") or info.get("base") or 2)
    me = view["seat"]
    raised = sum(1 for who, text, _i in view.get("actions") or []
                 if text == "raise" and who != me and who != ctx.partner)
    return ctx.team_value(), scores[ctx.team], scores[1 - ctx.team], stake, raised


# --- ranking (read by the search's evaluated decisions, ``search/decide.py``) -------------------

def rank(view: dict, legal: list[str]) -> list[str]:
    """The Schlòk and Trumpf candidates best first by the hand value they give; others as legal."""
    ctx = Ctx(view)
    opts, hand = ctx.opts, ctx.hand

    def v(a):
        verb, _, x = a.partition(" ")
        if verb == "schlok":
            return schlok_worth(hand, x, ctx.rk.trumpf, opts)
        if verb == "trumpf":
            return trumpf_worth(hand, x, ctx.rk.schlok, opts)
        return 0.0
    return sorted(legal, key=v, reverse=True)
