"""A Watten hand set up in the middle of play: ``new_state(position={...})``.

Puzzles, tests, analysis and bug reports start from a position instead of a history that reaches
it.  The position is validated against the rules (a :class:`SetupError` names what does not fit)
and becomes the first hand of the match; later hands are dealt from the seed.  Fields:

* ``hands``: per seat the cards still in hand (after the tricks played and the current trick);
* ``schlag`` (rank ``A K O U 10 9 8 7 6``) and ``trump`` (suit ``H S E L``): the Ansage, complete;
* ``trick``: the cards of the current trick so far, ``[[seat, card], ...]`` in playing order
  (seats 0-based); ``leader``: the seat that leads (led) the current trick; the seat to act
  follows from both;
* ``tricks``: the finished tricks, each ``[[seat, card], ...]`` in playing order, replayed through
  the rules (forehand leads the first, each winner the next; the follow rules); or instead
  ``tricks_won``: tricks already won per side of the hand (per seat with two players; [solo, duo]
  with three), ``played``: optionally the cards of those tricks (public; completes the count);
  with ``tricks`` the ``leader`` may be left out (the last trick's winner leads);
* ``stake`` (default 2) and ``last_raiser``: the seat whose side made the last accepted raise
  (needed when the stake was raised: the other side raises next, §2.8); in trick 5 the stake is
  taken as the stake when the trick was led (R14);
* ``dealer``, ``scores``, ``hand`` (the hand number, default 1), ``schlag_seat`` (Euregio: the
  Ansager who named the Schlag, forehand unless a Schlagtausch was agreed);
* ``raise_pending``: the seat whose raise awaits an answer (§2.8: the first opponent after him
  answers, R34); the raiser is the seat on turn, or ``accepted_by``;
* ``accepted_by``: the seat that has just accepted a raise and may still raise before the next card
  (R9 window (b), PR-W3);
* ``raised_before_last_trick``: in trick 5, whether a raise was accepted before the trick was led
  (T1.8, R14; default: whether the stake was raised at all); a fixed 3 or 4 (E.11, T1.9) lifts the
  last-trick test without it.

The phase is play, or the answer to a raise: the Ansage is complete, the exchange window closed,
a fixed-value hand (E.11, T1.9) has been held.  Every card of the current trick is checked against
the follow rules, a pending raise against §2.8 (who may raise at that moment).

``position_of(state)`` (``state.position()``) is the inverse: the position of a state in play, which
``new_state(position=...)`` sets up again with the same legal actions for every seat.
"""

from __future__ import annotations

from stich.cards import iter_bits
from stich.engine import SetupError
from stich.engine.setup import check_position_fields, parse_cards
from stich.rulesets.watten.deal import PLAY, RESPOND
from stich.rulesets.watten.ranking import RANK_CODES, SUIT_CODES, WELI_RANK

FIELDS = ("hands", "schlag", "trump", "trick", "leader", "tricks", "tricks_won", "played", "stake", "last_raiser",
          "dealer", "scores", "hand", "schlag_seat", "raise_pending", "accepted_by", "raised_before_last_trick")


def _seat(value, what: str, n: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
        raise SetupError(f"{what} must be a seat 0..{n - 1} (0-based), not {value!r}")
    return value


class PositionMixin:
    """``_start_position``: the validated set-up of a hand in play; ``position()``: its inverse."""

    def position(self) -> dict:
        return position_of(self)

    def _start_position(self, pos) -> None:
        g = self.game
        n = g.num_players
        d = g.deck
        check_position_fields(pos, FIELDS, ("hands", "schlag", "trump"))
        done_tricks = self._position_tricks(pos)
        if "leader" not in pos and done_tricks is None:
            raise SetupError("position needs 'leader' (or 'tricks', whose last winner leads)")
        self.scores = self._check_scores(pos.get("scores"))
        self.dealer = _seat(pos.get("dealer", n - 1), "position dealer", n)
        hand_no = pos.get("hand", 1)
        if isinstance(hand_no, bool) or not isinstance(hand_no, int) or hand_no < 1:
            raise SetupError(f"position hand (the hand number) must be a whole number >= 1, not {hand_no!r}")
        # Ansage
        schlag = self._position_rank(pos["schlag"])
        trump = str(pos["trump"]).strip().upper()
        if trump not in SUIT_CODES:
            raise SetupError(f"position trump must be one of {' '.join(SUIT_CODES)}, not {pos['trump']!r}")
        trump = SUIT_CODES.index(trump)
        # The current trick
        trick = pos.get("trick", [])
        if isinstance(trick, str) or not isinstance(trick, (list, tuple)) or len(trick) >= n:
            raise SetupError(f"position trick must be a list of at most {n - 1} [seat, card] pairs, not {trick!r}")
        leader = _seat(pos["leader"], "position leader", n) if "leader" in pos else None
        t_seats, t_cards = [], []
        seat = leader
        for i, item in enumerate(trick):
            if not (isinstance(item, (list, tuple)) and len(item) == 2):
                raise SetupError(f"position trick[{i}] must be a [seat, card] pair, not {item!r}")
            s = _seat(item[0], f"position trick[{i}] seat", n)
            if seat is None:   # the leader follows from the tricks (checked when they are replayed)
                seat = s
            if s != seat:
                raise SetupError(f"position trick[{i}]: seat {seat} plays after the leader {leader} and "
                                 f"those before him, not seat {s}")
            t_seats.append(s)
            t_cards += parse_cards(d, [item[1]], f"position trick[{i}]")
            seat = self._nxt(seat)
        # Tricks done
        width = 2   # per side of the hand: A/B, the two players, or solo/duo (§0.5)
        won = pos.get("tricks_won", [0] * width)
        if not (isinstance(won, (list, tuple)) and len(won) == width
                and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 2 for x in won)):
            raise SetupError(f"position tricks_won must be {width} numbers 0..2 (a side with 3 tricks has "
                             f"won the hand), not {won!r}")
        done = sum(won) if done_tricks is None else len(done_tricks) // n
        # Hands: 5 cards less one per trick done, less the card already played to this trick.
        hands = pos["hands"]
        if isinstance(hands, str) or not isinstance(hands, (list, tuple)) or len(hands) != n:
            raise SetupError(f"position hands must be {n} lists of cards, one per seat, not {hands!r}")
        masks = []
        seen = 0
        for c in t_cards:
            if seen >> c & 1:
                raise SetupError(f"card {d.code(c)} is played twice in the trick")
            seen |= 1 << c
        for s, h in enumerate(hands):
            cards = parse_cards(d, h, f"position hands[{s}] (seat {s + 1})")
            size = 5 - done - (1 if s in t_seats else 0)   # (cards of the given tricks are not held)
            if len(cards) != size:
                raise SetupError(f"position hands[{s}] (seat {s + 1}) must hold {size} cards after {done} "
                                 f"trick(s){' and its card in this trick' if s in t_seats else ''}, "
                                 f"not {len(cards)}")
            m = 0
            for c in cards:
                if seen >> c & 1:
                    raise SetupError(f"card {d.code(c)} is in two places")
                seen |= 1 << c
                m |= 1 << c
            masks.append(m)
        played = parse_cards(d, pos.get("played", []), "position played")
        if played and len(played) != n * done:
            raise SetupError(f"position played must hold the {n * done} cards of the {done} trick(s) done, "
                             f"not {len(played)}")
        for c in played:
            if seen >> c & 1:
                raise SetupError(f"card {d.code(c)} is in two places")
            seen |= 1 << c
        dealt = list(masks)   # with tricks given: what each seat held before them
        for p, c in done_tricks or ():
            if seen >> c & 1:
                raise SetupError(f"card {d.code(c)} is in two places")
            seen |= 1 << c
            dealt[p] |= 1 << c
        self._position_hand(hand_no, dealt, seen, schlag, trump, pos)
        if "scores" in pos:   # as an explicit set-up's: a match taken up in progress, scores public
            self.emit("scores", None, scores=list(self.scores))
        if done_tricks is None:
            self.tricks = list(won)
            self.trick_no = done + 1
        else:
            won = [0, 0]   # counted by the tricks' own events, as they are replayed
        base = self._position_stake(pos)
        if done_tricks is not None:
            self._replay_tricks(done_tricks)
            if leader is not None and leader != self.turn:
                raise SetupError(f"position leader: seat {self.turn} leads trick {self.trick_no} (it won the last "
                                 f"trick, §2.3), not seat {leader}")
            leader = self.turn
        # R14: whether the stake was raised before trick 5 was led (default: whether it was raised).
        before = pos.get("raised_before_last_trick", self.raised)
        if not isinstance(before, bool):
            raise SetupError(f"position raised_before_last_trick must be true or false, not {before!r}")
        if before and not self.raised:
            raise SetupError("position raised_before_last_trick: the stake was never raised")
        if "raised_before_last_trick" in pos and self.trick_no != 5:
            raise SetupError("position raised_before_last_trick is only for a position in trick 5 (T1.8, R14)")
        self.raised_before_t5 = before
        self.last_trick_free = before or base > 2   # the stake when trick 5 was led (R14)
        self.emit("position", None, trick_no=1 if done_tricks is not None else self.trick_no,
                  tricks_won=list(won), leader=leader, played=[d.code(c) for c in played])
        # The current trick, through the follow rules: a card the rules forbid is a set-up error.
        self.turn = self.current_player = leader
        for s, c in zip(t_seats, t_cards, strict=True):
            self.hands[s] |= 1 << c
            if not self._playable(s) >> c & 1:
                ok = ", ".join(d.codes_of(self._playable(s)))
                raise SetupError(f"position trick: seat {s} may not play {d.code(c)} there (follow rules "
                                 f"T1.6/E.8/B1.5; it could play {ok})")
            self._apply_play(s, c)
        self._position_raise(pos)

    def _position_tricks(self, pos):
        """``tricks``: the finished tricks as (seat, card) pairs in playing order, or None."""
        if "tricks" not in pos:
            return None
        if "tricks_won" in pos or "played" in pos:
            raise SetupError("position: give the finished tricks either as tricks or as tricks_won (and played)")
        g = self.game
        n = g.num_players
        tricks = pos["tricks"]
        if isinstance(tricks, str) or not isinstance(tricks, (list, tuple)) or len(tricks) > 4:
            raise SetupError(f"position tricks must be the finished tricks (at most 4), each {n} [seat, card] "
                             f"pairs, not {tricks!r}")
        out = []
        for t, trick in enumerate(tricks):
            if isinstance(trick, str) or not isinstance(trick, (list, tuple)) or len(trick) != n:
                raise SetupError(f"position tricks[{t}] must be {n} [seat, card] pairs, not {trick!r}")
            for i, item in enumerate(trick):
                if not (isinstance(item, (list, tuple)) and len(item) == 2):
                    raise SetupError(f"position tricks[{t}][{i}] must be a [seat, card] pair, not {item!r}")
                out.append((_seat(item[0], f"position tricks[{t}][{i}] seat", n),
                            parse_cards(g.deck, [item[1]], f"position tricks[{t}]")[0]))
        return out

    def _replay_tricks(self, plays) -> None:
        """The finished tricks through the rules: forehand leads (§2.3), then each trick's winner;
        every card against the follow rules; no side may have won the hand."""
        d = self.game.deck
        self.tricks = [0, 0]
        self.trick_no = 1
        self.turn = self.current_player = self.forehand
        for i, (s, c) in enumerate(plays):
            if s != self.turn:
                raise SetupError(f"position tricks, card {i + 1}: seat {self.turn} is to play (forehand leads the "
                                 f"first trick, the winner of each trick the next, §2.3), not seat {s}")
            if not self._playable(s) >> c & 1:
                ok = ", ".join(d.codes_of(self._playable(s)))
                raise SetupError(f"position tricks: seat {s} may not play {d.code(c)} there (follow rules "
                                 f"T1.6/E.8/B1.5; it could play {ok})")
            self._apply_play(s, c)
            if self.phase != PLAY:
                raise SetupError(f"position tricks: a side has won the hand with three tricks after card {i + 1} "
                                 "(R31): there is no position left in it")

    def _position_raise(self, pos) -> None:
        """R9 window (b) and a raise awaiting its answer (§2.8, R34)."""
        n = self.game.num_players
        acc = pos.get("accepted_by")
        if acc is not None:
            acc = _seat(acc, "position accepted_by", n)
            if not self.raised or self.side[acc] == self.last_raiser_side:
                raise SetupError(f"position accepted_by: seat {acc} cannot have just accepted a raise (the stake "
                                 "was not raised, or his side made the last raise, last_raiser)")
            self.accepted_at = (acc, self.trick_no, len(self.trick))
        raiser = pos.get("raise_pending")
        if raiser is None:
            return
        raiser = _seat(raiser, "position raise_pending", n)
        if self.phase != PLAY:
            raise SetupError("position raise_pending: nobody may raise here (a hold/concede decision is due)")
        if raiser != self.current_player and raiser != acc:
            raise SetupError(f"position raise_pending: seat {raiser} may not raise now; the seat on turn "
                             f"({self.current_player}) raises, or the one who has just accepted (R9, accepted_by)")
        if not self._can_raise(raiser):
            raise SetupError(f"position raise_pending: seat {raiser} may not raise: {self._why_no_raise(raiser)}")
        self._apply_raise(raiser)

    def _position_rank(self, value) -> int:
        g = self.game
        text = g._parse_arg("schlag", str(value))
        if text not in RANK_CODES or RANK_CODES.index(text) not in g.schlag_ranks:
            ok = " ".join(RANK_CODES[r] for r in g.schlag_ranks)
            raise SetupError(f"position schlag must be one of {ok}, not {value!r}")
        return RANK_CODES.index(text)

    def _position_hand(self, hand_no, masks, seen, schlag, trump, pos) -> None:
        """Begin the hand and complete its Ansage without a deal (the cards are as given)."""
        g = self.game
        n = g.num_players
        self.hand_number = hand_no
        self.redeal = 0
        self._given_pack = None
        self._begin_hand(explicit=None)
        if "schlag_seat" in pos:
            s = _seat(pos["schlag_seat"], "position schlag_seat", n)
            if not g.euregio or s not in (self.forehand, self.dealer):
                raise SetupError("position schlag_seat: only in euregio, and only forehand or the dealer "
                                 "(after a Schlagtausch, E.6)")
            if s != self.schlag_seat:
                self.schlag_seat, self.trump_seat = self.trump_seat, self.schlag_seat
                self.swapped = True
                self.emit("watten_roles", None, schlag_seat=self.schlag_seat, trump_seat=self.trump_seat)
        self.hands = masks
        self.dealt = {s: list(iter_bits(m)) for s, m in enumerate(masks)}
        self.stock = list(iter_bits(g.deck.full_mask & ~seen))
        self.exchange_closed = True
        self.looked = (1 << n) - 1
        for s in range(n):
            self.emit("deal", 1 << s, seat=s, cards=self._codes(masks[s]))
        self.schlag, self.trump = schlag, trump
        if g.blind:   # T3, E.4: only the two Ansager know the Ansage
            ansager = (1 << self.schlag_seat) | (1 << self.trump_seat)
            self.emit("ansage_known", ansager, schlag=RANK_CODES[schlag], trump=SUIT_CODES[trump])
        else:
            self.emit("schlag", None, seat=self.schlag_seat, rank=RANK_CODES[schlag])
            self.emit("trump", None, seat=self.trump_seat, suit=SUIT_CODES[trump])
        self.rk = g.ranking(schlag, trump)
        self.emit("ansage_done", None)
        # R24, PR-W10: where the Weli is the lowest trump (the Tyrolean family), a Weli Schlag
        # shows the partners each other's hands
        if g.family == "tyrolean" and schlag == WELI_RANK:
            for s in range(4):
                p = (s + 2) % 4
                self.emit("deal", 1 << s, seat=p, cards=self._codes(masks[p]), replace=True, partner_view=True)
        self.phase = PLAY

    def _position_stake(self, pos) -> int:
        """Sets the stake, the fixed value and the last raiser; returns the stake before any raise."""
        g = self.game
        d_stake = pos.get("stake", 2)
        self._setup_fixed_value()
        if self.decision is not None:   # the position lies after a held decision (E.11, T1.9)
            kind = self.decision[2]
            self.emit("hold", None, seat=self.decision[0], stake=3 if kind == "gestrichen" else self.stake)
            self.decision = None
            self.decided = True
            if kind == "gestrichen":
                self.stake = 3
            elif g.options.four_points_raising != "trailing_may_raise":
                self.trailing_side = -1
        base = self.stake
        if self.fixed and d_stake != base and self.trailing_side < 0:
            raise SetupError(f"the scores make this a fixed-value hand (E.11/T1.9): its stake is {base}, "
                             f"not {d_stake!r}")
        if isinstance(d_stake, bool) or not isinstance(d_stake, int) or d_stake < base:
            raise SetupError(f"position stake must be a whole number >= {base}, not {d_stake!r}")
        raiser = pos.get("last_raiser")
        if d_stake > base:
            if raiser is None:
                raise SetupError("position stake was raised: say whose side raised last (last_raiser, a seat), "
                                 "since the other side raises next (§2.8)")
            raiser = _seat(raiser, "position last_raiser", g.num_players)
            if self._score_of(raiser) >= g.lock_at:
                raise SetupError(f"position last_raiser: seat {raiser}'s side is locked at "
                                 f"{self._score_of(raiser)} and cannot have raised (§2.9)")
            self.last_raiser_side = self.side[raiser]
            self.raised = True
            self.stake = d_stake
            self.emit("stake", None, stake=d_stake, fixed=self.fixed)
        elif raiser is not None:
            raise SetupError("position last_raiser given, but the stake was never raised")
        elif self.fixed:
            self.emit("stake", None, stake=base, fixed=True)
        return base


def position_of(state) -> dict:
    """The ``position=`` of a Watten state in play (the inverse of ``_start_position``): a
    SetupError where the state is at a moment a position does not describe (the cut, the Ansage,
    a request, an open exchange window or a fixed-value decision still to take, the end)."""
    g = state.game
    d = g.deck
    events = [ev for _aud, ev in state.events]   # (the property runs a deferred deal first)
    if state.phase not in (PLAY, RESPOND) or state.decision is not None or not state.exchange_closed:
        raise SetupError("a Watten position is a hand in play: the Ansage done, the exchange window closed "
                         "and no hold/concede decision still to take")
    n = g.num_players
    # The cards of the finished tricks of this hand: its play events (and a set-up's own) less the trick.
    start = max(i for i, ev in enumerate(events) if ev["type"] == "hand_start")
    flat = None   # a hand set up with tricks_won: its finished tricks are only a flat list
    plays = []
    for ev in events[start:]:
        if ev["type"] == "position" and any(ev["tricks_won"]):
            flat = list(ev["played"])
        elif ev["type"] == "play":
            plays.append([ev["seat"], ev["card"]])
    if state.trick:
        plays = plays[:-len(state.trick)]
    pos = {
        "hands": [d.codes_of(state.hands[s]) for s in range(n)],
        "schlag": RANK_CODES[state.schlag], "trump": SUIT_CODES[state.trump],
        "trick": [[s, d.code(c)] for s, c in zip(state.trick_seats, state.trick, strict=True)],
        "leader": state.trick_seats[0] if state.trick else state.turn,
        "stake": state.stake, "dealer": state.dealer,
        "hand": state.hand_number,
    }
    if flat is None:
        pos["tricks"] = [plays[i:i + n] for i in range(0, len(plays), n)]
    else:
        pos.update(tricks_won=list(state.tricks), played=flat + [c for _s, c in plays])
    if state.hand_number > 1 or any(state.scores):
        pos["scores"] = list(state.scores)
    if state.last_raiser_side >= 0 and state.raised:
        # Only the side counts (§2.8: the other side raises next), so a seat of it that can have
        # raised: with three players the duo's first seat may be locked (§2.9) while its partner
        # raised, and a position naming a locked raiser is refused.
        side = state.last_raiser_side
        seats = [p for p in range(g.num_players) if state.side[p] == side]
        pos["last_raiser"] = next((p for p in seats if state._score_of(p) < g.lock_at), seats[0])
    if g.euregio:
        pos["schlag_seat"] = state.schlag_seat
    if state.trick_no == 5:
        pos["raised_before_last_trick"] = state.raised_before_t5
    at = state.accepted_at
    if at is not None and at[1] == state.trick_no and at[2] == len(state.trick):
        pos["accepted_by"] = at[0]
    if state.phase == RESPOND:
        pos["raise_pending"] = state.raiser
    return pos
