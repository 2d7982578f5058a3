"""Raising as a bet: the arithmetic of raise, accept and fold, aware of the match score.

Watten and Battn hands are played for a stake; a raise offers the opponents to play for one
point more or to fold and give the current stake away.  With ``p`` the chance to win the hand:

* **accepting** a raise from stake ``s`` (to ``s + 1``) beats folding (losing ``s``) when
  ``p (s+1) - (1-p) (s+1) > -s``, i.e. ``p > 1 / (2 (s+1))`` with points counted linearly;
* **raising** (or re-raising) from ``s`` gives the opponents the choice: fold (I win ``s``) or
  play for ``s + 1``.  They choose what is worse for me, so a raise is worth
  ``min(win s, play for s+1)``; with linear points that beats playing on for ``s`` exactly when
  ``p > 1/2``: raise only as the favourite.

Points are not worth the same at every score.  With a match ``target`` the value of a hand's
outcome is the chance to win the match from the score it leaves (:func:`match_win`): a model in
which every later hand is an even contest worth 2, 3 or 4 points.  So a point that wins the
match is worth much more than one that does not, a point the opponents need to win the match
costs much more than one they do not, and a raise that only lifts the stake past what the
opponents need ("a gift": they win the match with this hand whereas at the old stake they
would not) is valued by what it risks, not refused by a cap.

What a raise, an answer and a give-away are in each game is the game's declaration
(``rulesets/<game>/bets.py``, found by ``companion(game, "bets")``; :class:`Declaration`).

Used by the search bots (``p`` from their sampled worlds, ``stich.bots.search.betting``) and by the
``heuristic`` bot (``p`` from its hand strength).
"""

from __future__ import annotations

import math  # fsum totals: exact, the same choices under every Python (test_python_versions)
from dataclasses import dataclass
from functools import cache

from stich.engine import ROLES

#: the stake of a typical later hand (Watten and Battn: 2, raised sometimes): (points, chance)
LATER_HANDS = ((2, 0.6), (3, 0.25), (4, 0.15))

#: the largest need :func:`match_win` recurses on (any target is a legal option; a race to 1000
#: overflowed Python's stack): longer races are scaled down to it, keeping their proportions
MATCH_CAP = 120

#: estimation noise: a raise is made only when it is better even with ``p`` lowered by this much
RAISE_MARGIN = 0.05


#: the answers :func:`respond` gives (the bet arithmetic's own words; each game's verbs for them are
#: in its :class:`Declaration`)
ACCEPT, FOLD, RAISE = "accept", "fold", "raise"


#: the stake of a game that declares no raise (Biscambiggia, Barbu: every hand counts as it is)
FIXED_STAKE = 1


class Declaration:
    """What a game's bets are, from its ``"bets"`` companion (``rulesets/<game>/bets.py``): the
    raise verb, the answers (play on / give away), the play-on / give-away pairs, the raise poll's
    pass, the decisions search evaluates candidate by candidate, the verbs an opponent model skips,
    the variants whose searches need more worlds than the bot's default.
    This module and the search bots name no game verb: they read them here.

    A name the module leaves out takes the default the ``"bets"`` role declares
    (``stich.engine.ROLES["bets"]``): no raise, no answers, no play-on / give-away pairs, no raise
    poll, nothing decided by evaluation, every verb informative, and then a fixed stake of
    :data:`FIXED_STAKE` (with a raise verb but no ``stake`` functions: 2, Watten's and Battn's
    base), the bot's own number of worlds.  A game without raising declares only what differs
    (``DECIDED``); one without bets at all declares ``"bets": None``."""

    def __init__(self, module=None, card_verb: str | None = None):
        #: the game's verb of playing a card (``Game.card_verb``): a raise offered with cards
        self.card_verb = card_verb
        declared = ROLES["bets"]

        def get(name: str):
            # the role's reader: a name it does not declare is an error here, not a default
            return declared.read(module, name)

        self.raise_verb: str | None = get("RAISE")
        self.accept: str | None = get("ACCEPT")
        self.fold: str | None = get("FOLD")
        self.go_on: dict[str, str] = dict(get("GO_ON"))
        self.poll_pass: str | None = get("POLL_PASS")
        self.go_on_stake: int = get("GO_ON_STAKE")
        self.go_on_gives: int = get("GO_ON_GIVES")
        self.decided: frozenset[str] = frozenset(get("DECIDED"))
        self.uninformative: frozenset[str] = frozenset(get("UNINFORMATIVE"))
        #: variant -> the worlds a search decision draws by default where the bot's own number is
        #: not enough (measured per variant; a game-wide entry under None)
        self.search_worlds: dict[str | None, int] = dict(get("SEARCH_WORLDS"))
        self._stake = get("stake")
        self._state_stake = get("state_stake")
        #: the game's verb for each answer of :func:`respond`
        self.answers: dict[str, str | None] = {ACCEPT: self.accept, FOLD: self.fold, RAISE: self.raise_verb}
        #: every play-on verb -> its give-away, the answer to a raise included
        self.gives: dict[str, str] = dict(self.go_on)
        if self.accept and self.fold:
            self.gives[self.accept] = self.fold

    def stake(self, view: dict) -> int:
        if self._stake is not None:
            return int(self._stake(view))
        return FIXED_STAKE if self.raise_verb is None else 2

    def state_stake(self, state) -> int:
        if self._state_stake is not None:
            return int(self._state_stake(state))
        return FIXED_STAKE if self.raise_verb is None else 2

    def worlds(self, variant: str | None, game=None) -> int | None:
        """The worlds a search decision draws by default in ``variant`` (None: the bot's own); with
        ``game`` (of that variant), a variant without a number of its own draws its base's
        (``Game.variant_lineage``)."""
        if game is not None:
            return game.by_variant(self.search_worlds, self.search_worlds.get(None))
        return self.search_worlds.get(variant, self.search_worlds.get(None))

    def kind_of(self, legal: list[str]) -> str | None:
        """Which bet a decision is: ``"answer"`` (a raise to accept, fold or re-raise),
        ``"go_on"`` (play on or give the refusal's points), ``"raise"`` (raise or play a card /
        pass the poll), or None (not a bet)."""
        verbs = {a.split(" ", 1)[0] for a in legal}
        if self.accept in verbs and self.fold in verbs:
            return "answer"
        if self.go_on_verb(legal) is not None:
            return "go_on"
        on = {self.card_verb, self.poll_pass} - {None}
        if self.raise_verb in verbs and verbs & on:
            return "raise"
        return None

    def go_on_verb(self, legal: list[str]) -> str | None:
        """The play-on verb of a go-on decision in ``legal`` (None: not one)."""
        verbs = {a.split(" ", 1)[0] for a in legal}
        for verb, give in self.go_on.items():
            if verb in verbs and give in verbs:
                return verb
        return None


_DECLARATIONS: dict[str | None, Declaration] = {}


def declared(game: str | None) -> Declaration:
    """The bets ``game`` (a game name) declares (an empty declaration for a game without)."""
    decl = _DECLARATIONS.get(game)
    if decl is None:
        from stich.engine import OptionError, companion, game_class

        try:
            card_verb = game_class(game).card_verb if isinstance(game, str) else None
        except OptionError:
            card_verb = None
        decl = Declaration(companion(game, "bets") if isinstance(game, str) else None, card_verb)
        _DECLARATIONS[game] = decl
    return decl


def kind_of(legal: list[str], game: str | None) -> str | None:
    """Which bet a decision of ``game`` is (:meth:`Declaration.kind_of`)."""
    return declared(game).kind_of(legal)


@cache
def match_win(need_me: int, need_them: int) -> float:
    """The chance to win a match when I need ``need_me`` more points and the opponents
    ``need_them``, every later hand being an even contest worth :data:`LATER_HANDS`."""
    if need_me <= 0:
        return 1.0
    if need_them <= 0:
        return 0.0
    if max(need_me, need_them) > MATCH_CAP:   # a very long match: the same race, scaled (recursion depth)
        return match_win(*_scaled((need_me, need_them), MATCH_CAP))
    return math.fsum(q * 0.5 * (match_win(need_me - v, need_them) + match_win(need_me, need_them - v))
               for v, q in LATER_HANDS)


#: the largest need :func:`race_win` is asked about (its table grows with the cube of the needs):
#: in a longer race the needs are scaled down to it, keeping their proportions (a 4-point lead
#: in a race to 500 is worth about nothing, as it should be; 30 : 60 : 60 stays far ahead)
RACE_CAP = 21


@cache
def race_win(needs: tuple[int, int, int], solo: int) -> tuple[float, float, float]:
    """Three seats each keeping his own score (Watten for three): each seat's chance to win the
    match when they still need ``needs`` and seat ``solo`` plays the next hand alone against the
    other two.  As in :func:`match_win` every later hand is an even contest worth
    :data:`LATER_HANDS`; the solo scores alone, the two of the duo both score; the next hand's
    solo is the next seat.  The match ends with the hand in which somebody reaches the target: the
    higher total wins, equal totals share (R18).

    Exact under that model, where a product of two-seat races is not: the two of the duo move
    together, so beating one of them is most of beating both, and the product (which treats the
    two as independent) made gambles look good to the solo: he raised with a 40 % hand for 2 and a
    20 % hand from 5."""
    if max(needs) > RACE_CAP:
        return race_win(_scaled(needs, RACE_CAP), solo)
    out = [0.0, 0.0, 0.0]
    for v, q in LATER_HANDS:
        for solo_wins in (True, False):
            after = tuple(n - v if (i == solo) == solo_wins else n for i, n in enumerate(needs))
            shares = _settled(after) or race_win(after, (solo + 1) % 3)
            for i in range(3):
                out[i] += q * 0.5 * shares[i]
    return out[0], out[1], out[2]


def _scaled(needs: tuple[int, ...], cap: int) -> tuple[int, ...]:
    """Positive needs scaled so that the largest is ``cap``, in proportion (at least 1 each)."""
    top = max(needs)
    return tuple(max(1, round(need * cap / top)) for need in needs)


def _settled(needs) -> tuple[float, ...] | None:
    """The shares of a finished three-seat race (somebody at the target: the lowest need, the
    highest total, wins; ties share), or None while it goes on."""
    best = min(needs)
    if best > 0:
        return None
    winners = [i for i, n in enumerate(needs) if n == best]
    return tuple(1.0 / len(winners) if i in winners else 0.0 for i in range(len(needs)))


@dataclass(frozen=True)
class Score:
    """Where the match stands for the deciding side: the points each side still needs (None:
    no match target known; points then count linearly).

    Where everybody keeps his own score (Watten with three players) the match is a race against
    every other seat, and a seat's side changes from hand to hand: ``need_them`` is the leading
    opponent of this hand, ``also_them`` the other opponents, ``partners`` the seats on my side in
    this hand - who score with me, and are rivals for the match all the same.  The worth of a
    hand is then the chance to win the three-seat race after it (:func:`race_win`, averaged over
    who plays alone next).  With two seats it is the two-sided race of :meth:`of`."""

    need_me: int | None = None
    need_them: int | None = None
    also_them: tuple[int, ...] = ()
    partners: tuple[int, ...] = ()

    @classmethod
    def of(cls, mine: int, theirs: int, target: int | None) -> Score:
        if not target:
            return cls()
        return cls(max(0, target - mine), max(0, target - theirs))

    @classmethod
    def race(cls, mine: int, opponents: list[int], partners: list[int], target: int | None) -> Score:
        """Per-seat scores of two or three seats: mine, this hand's opponents' and partners' (at
        least one opponent)."""
        if not target:
            return cls()
        them = sorted(max(0, target - o) for o in opponents)
        return cls(max(0, target - mine), them[0], tuple(them[1:]),
                   tuple(max(0, target - p) for p in partners))

    def value(self, won: int = 0, lost: int = 0) -> float:
        """The worth of a hand in which my side scores ``won`` and the opponents ``lost``
        points: the chance to win the match after it (linear points: ``won - lost``)."""
        if self.need_me is None or self.need_them is None:
            return float(won - lost)
        me = self.need_me - won
        if len(self.also_them) + len(self.partners) == 1:      # three seats
            others = [need - lost for need in (self.need_them, *self.also_them)]
            others += [need - won for need in self.partners]
            needs = (me, others[0], others[1])
            done = _settled(needs)
            if done is not None:
                return done[0]
            return math.fsum(race_win(needs, solo)[0] for solo in range(3)) / 3
        return match_win(me, self.need_them - lost)

    def play(self, p: float, stake: int) -> float:
        """Play the hand out for ``stake`` with the chance ``p`` to win it."""
        return p * self.value(won=stake) + (1 - p) * self.value(lost=stake)

    def offer(self, p: float, stake: int) -> float:
        """Raise from ``stake``: the opponents fold (I win ``stake``) or play for ``stake + 1``,
        whichever is worse for me."""
        return min(self.value(won=stake), self.play(p, stake + 1))


def respond(score: Score, p: float, stake: int, fold_loses: int | None = None, can_raise: bool = False) -> str:
    """Answer a raise from ``stake`` to ``stake + 1``: ``"accept"``, ``"fold"`` or ``"raise"``
    (accept and raise again).  ``fold_loses``: what folding costs (default ``stake``)."""
    fold = score.value(lost=stake if fold_loses is None else fold_loses)
    if can_raise and should_raise(score, p, stake + 1) and score.offer(p, stake + 1) >= fold:
        return RAISE
    return ACCEPT if score.play(p, stake + 1) >= fold else FOLD


def should_raise(score: Score, p: float, stake: int) -> bool:
    """Offer a raise from ``stake`` rather than play on for it (``p`` lowered by the margin)."""
    q = max(0.0, p - RAISE_MARGIN)
    return score.offer(q, stake) > score.play(q, stake) + 1e-12


def play_or_give(score: Score, p: float, stake: int, give: int) -> bool:
    """Play a hand for ``stake`` (True) rather than give the opponents ``give`` points (a
    4-Punkte / gestrichen concession, a refused Orbi, a declined X)."""
    return score.play(p, stake) >= score.value(lost=give)


def break_even(score: Score, stake: int, fold_loses: int | None = None) -> float:
    """The chance to win the hand above which accepting a raise from ``stake`` beats folding
    (``1 / (2 (stake+1))`` with linear points)."""
    lo, hi = 0.0, 1.0
    for _ in range(40):
        mid = (lo + hi) / 2
        if respond(score, mid, stake, fold_loses) == ACCEPT:
            hi = mid
        else:
            lo = mid
    return hi
