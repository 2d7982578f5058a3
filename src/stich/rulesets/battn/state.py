"""A Battn match in progress: the turn procedure of rules §A3 as a state machine.

Seats are 0..3 in counter-clockwise order, i.e. in playing order: seat k+1 sits at seat k's
right (BT-1.4).  Teams: 0 = A = seats {0, 2}, 1 = B = seats {1, 3}; ``team(seat) = seat & 1``.
In a turn dealt by ``d``: D = d, R = d+1, P = d+2, L = d+3 (mod 4).

Phases of a turn (A3.4): [Orbi window] -> cut (by L) -> [Orbi window] -> deal -> Scheanara
-> Schlòk (R) -> Trumpf (D) -> pre-play decision -> tricks with raise windows -> scoring.
"""

from __future__ import annotations

from stich.engine import TERMINAL, SetupError, State
from stich.engine.setup import mask, parse_cards, parse_hands, parse_stock
from stich.rulesets.battn.cards import BARBA, BELLI, CRITICI_MASK, DECK, RANKS, SPITZ, SUITS, plain_rank_value
from stich.rulesets.battn.phases import (  # noqa: F401  (re-exported)
    BOTH,
    CUT,
    CUT2,
    MOVE,
    ORBI,
    OVER,
    PHASE_NAMES,
    POLL,
    PREPLAY,
    RESPOND,
    SCHE_ANSWER,
    SCHE_ASK,
    SCHLOK,
    TRUMPF,
)
from stich.rulesets.battn.playout import SearchMixin
from stich.rulesets.battn.position import position_of, start_position

TEAM_NAMES = ("A", "B")
_N = len(DECK)


def team(seat: int) -> int:
    return seat & 1


def deal_order(order, held: list[int], pattern: str) -> list[int]:
    """The seat each card of the pack goes to, in turn, at the deal (BT-6.2, A4-11): ``order`` the seats
    from R to the dealer, ``held[s]`` the cards seat ``s`` holds already (critici taken at the cut count
    toward its 5).  The game deals by it and the worlds place the cards the cuts showed by it."""
    have = list(held)
    seats: list[int] = []
    if pattern == "single_cards":
        while any(have[s] < 5 for s in order):
            for s in order:
                if have[s] < 5:
                    seats.append(s)
                    have[s] += 1
    else:   # 3_then_2: first 3 each (less the critici), then the rest
        for first in (True, False):
            for s in order:
                want = max(0, 3 - have[s]) if first else 5 - have[s]
                seats += [s] * want
                have[s] += want
    return seats


#: the draw value of each card per ace_rank (A4-24), as _draw_value tells it
_DRAW_VALUES = {ace: tuple({BARBA: 13, BELLI: 12, SPITZ: 11}.get(c, plain_rank_value(DECK.rank(c), ace))
                           for c in range(len(DECK))) for ace in ("high", "low")}


class BattnState(SearchMixin, State):
    """One match (to 21 by default) of Battn."""

    # The fields _start sets are slots: in the instance dict they would pass CPython's 30 shared
    # keys and every attribute access would get slower (see State).
    __slots__ = (
        "opts", "scores", "x_team", "winner", "last_result", "_draws", "dealer", "R", "P", "L", "base",
        "stake", "proposed", "pending", "raise_right", "orbi_team", "orbi_i", "schlok", "trumpf", "table",
        "tricks", "trick", "trick_no", "leader", "scheanara_count", "sche_asker", "cuts", "misraised",
        "svista", "explicit", "hands", "stock", "deck", "orbi_open", "phase",
    )

    # --- set-up -----------------------------------------------------------------------------------
    def _start(self, hands=None, stock=None, dealer=None, scores=None, deck=None, x_team=None,
               first_dealer_draw=None, position=None, **extra):
        g = self.game
        o = g.options
        if position is not None:   # a turn in play (position.py); it holds the other fields itself
            if any(v is not None for v in (hands, stock, dealer, scores, deck, x_team, first_dealer_draw)) or extra:
                raise SetupError("a position holds its own hands, dealer and scores: give position alone")
            start_position(self, position)
            return
        if extra:
            raise SetupError("battn set-up takes hands, stock, deck, dealer, scores, x_team, first_dealer_draw, "
                             f"position; not {', '.join(sorted(extra))}")
        self.opts = o
        self.scores = self._check_scores(scores)
        self.x_team = self._check_x_team(x_team)
        self.winner = None
        self.last_result = None
        self._draws = None   # the draw for the first dealer, if there is one (BT-3.1)
        explicit = None
        if hands is not None:
            explicit = self._check_hands(hands, stock)
        elif stock is not None:
            raise SetupError("a stock needs hands: give hands=[[5 codes]*4] and stock=[20 codes]")
        given_deck = None
        if deck is not None:
            if explicit is not None:
                raise SetupError("give either deck= (the shuffled deck, which is then cut) or hands=/stock=")
            given_deck = self._check_deck(deck)
        if first_dealer_draw is not None:
            drawn = self._check_draw(first_dealer_draw)
            if dealer is not None and dealer != drawn:
                raise SetupError(f"the first-dealer draw makes seat {drawn} the dealer, not seat {dealer}")
            dealer = drawn
        if dealer is None:
            dealer = self._first_dealer()
        self.dealer = dealer
        self._new_turn(explicit, given_deck)

    def position(self) -> dict:
        return position_of(self)

    def _check_scores(self, scores):
        if scores is None:
            return [0, 0]
        if not isinstance(scores, (list, tuple)) or len(scores) not in (2, 4):
            raise SetupError(f"scores are [team A, team B] (seats 0+2, 1+3), not {scores!r}")
        if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in scores):
            raise SetupError(f"scores must be whole numbers >= 0, not {scores!r}")
        if len(scores) == 4:
            if scores[0] != scores[2] or scores[1] != scores[3]:
                raise SetupError(f"per-seat scores must agree between partners: {scores!r}")
            scores = scores[:2]
        if max(scores) >= self.opts["target"]:
            raise SetupError(f"a score of {max(scores)} has already won the match (target {self.opts['target']})")
        return list(scores)

    def _check_x_team(self, x_team):
        thr = self.opts["x_threshold"]
        over = [t for t in (0, 1) if self.scores[t] >= thr]
        if x_team is None:
            if len(over) == 2:
                raise SetupError(f"both teams have >= {thr}: say which one got the X first (x_team=0 or 1)")
            return over[0] if over else None
        if x_team in ("A", "B", "a", "b"):
            x_team = "AB".index(x_team.upper())
        if x_team not in (0, 1) or isinstance(x_team, bool):
            raise SetupError(f"x_team is 0 (team A, seats 0+2) or 1 (team B), not {x_team!r}")
        if self.scores[x_team] < thr:
            raise SetupError(f"team {TEAM_NAMES[x_team]} has {self.scores[x_team]} < {thr} points: no X")
        return x_team

    def _check_hands(self, hands, stock):
        cards = parse_hands(DECK, hands, 4, 5)
        masks = [mask(h) for h in cards]
        if stock is None:
            dealt = 0
            for m in masks:
                dealt |= m
            st = [c for c in range(_N) if not dealt >> c & 1]
            st = [st[i] for i in self.shuffled(len(st), 1, "stock")]
        else:
            st = parse_stock(DECK, stock, cards)
        return masks, st

    def _check_deck(self, deck):
        cards = parse_cards(DECK, deck, "deck")
        if sorted(cards) != list(range(_N)):
            raise SetupError("deck must list all 40 cards of Le Sappadine once, top first")
        return cards

    def _draw_value(self, c: int) -> int:
        """A4-24: a critico beats any other card (Barba > Belli > Spitz), else the plain rank."""
        return _DRAW_VALUES[self.opts["ace_rank"]][c]

    def _check_draw(self, draw) -> int:
        """An explicit first-dealer draw (BT-3.1): pairs ``[seat 0's card, seat 1's card]``, equal in
        value but the last; returns the dealer and keeps the draws for the public event (PR-B2)."""
        if self.opts["first_dealer"] != "draw":
            raise SetupError("first_dealer_draw needs the option first_dealer = draw")
        if isinstance(draw, str) or not isinstance(draw, (list, tuple)) or not draw:
            raise SetupError(f"first_dealer_draw must be a list of [card, card] pairs (seat 0, seat 1), not {draw!r}")
        pairs = []
        for i, pair in enumerate(draw):
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise SetupError(f"first_dealer_draw[{i}] must be a [card, card] pair, not {pair!r}")
            a, b = parse_cards(DECK, pair, f"first_dealer_draw[{i}]")
            if a == b:
                raise SetupError(f"first_dealer_draw[{i}]: both players cannot draw {DECK.code(a)}")
            va, vb = self._draw_value(a), self._draw_value(b)
            last = i == len(draw) - 1
            if (va == vb) == last:
                raise SetupError(f"first_dealer_draw[{i}]: " + ("equal cards draw again (A4-24): the draw cannot "
                                 "end there" if last else "different cards end the draw: no pair may follow"))
            pairs.append([DECK.code(a), DECK.code(b)])
        winner = 0 if va > vb else 1
        self._draws = (pairs, winner)
        return winner

    def _first_dealer(self) -> int:
        """BT-3.1 / A4-24: seats 0 and 1 (the eldest of each team) draw; the higher card deals."""
        rng = self.hand_rng(0, "first_dealer")
        if self.opts["first_dealer"] == "random":
            return rng.randrange(4)
        draws = []
        while True:
            a, b = rng.sample(range(_N), 2)
            va, vb = self._draw_value(a), self._draw_value(b)
            draws.append([DECK.code(a), DECK.code(b)])
            if va != vb:
                self._draws = (draws, 0 if va > vb else 1)
                return 0 if va > vb else 1

    # --- turn set-up, shuffle and cut (BT-4, BT-5) -------------------------------------------------------
    def _new_turn(self, explicit=None, given_deck=None):
        self.hand_number += 1
        d = self.dealer
        self.R, self.P, self.L = (d + 1) & 3, (d + 2) & 3, (d + 3) & 3
        self.emit("hand_start", None, hand=self.hand_number, dealer=d)
        if self.hand_number == 1 and getattr(self, "_draws", None):
            self.emit("first_dealer", None, draws=self._draws[0], seats=[0, 1], dealer=d)
        self.base = 3 if self.x_team is not None else 2          # BT-4.1
        self.stake = self.base
        self.proposed = 0
        self.pending = None           # team whose raise awaits an answer
        self.raise_right = BOTH       # BT-4.2
        self.orbi_team = None
        self.orbi_i = 0
        self.schlok = self.trumpf = None
        self.table = None
        self.tricks = [0, 0]
        self.trick = []
        self.trick_no = 0
        self.leader = self.R
        self.scheanara_count = 0
        self.sche_asker = None
        self.cuts = 0
        self.misraised = [False, False]
        self.svista = None
        self.explicit = explicit is not None
        self.hands = [0, 0, 0, 0]
        self.stock = []
        if explicit is not None:
            self.hands, self.stock = list(explicit[0]), list(explicit[1])
            self.deck = None
        else:
            # BT-5.1: the pack is shuffled when it is cut (_do_cut), not before: a line of play that
            # stops at the end of a hand (a rollout, the benchmark) never shuffles the next one.
            self.deck = list(given_deck) if given_deck is not None else None
        self.orbi_open = self.opts["orbi_enabled"] and self.x_team is None   # A4-16 vi
        self._status()
        if self.orbi_open and self.opts["orbi_before_cut"]:
            self._open_orbi()
        else:
            self._begin_cut()

    def _begin_cut(self):
        if self.explicit:
            self._after_cut()
        else:
            self.phase, self.current_player = CUT, self.L

    def _pack_size(self) -> int:
        return _N if self.deck is None else len(self.deck)   # None: not shuffled yet (BT-5.1)

    def _cut_points(self):
        m = self.opts["min_packet_size"]
        return range(m, self._pack_size() - m + 1)

    def _do_cut(self, p: int):
        """BT-5.3/5.4: lift ``p`` cards, reveal, hand out critici (L, D, L), put the lifted packet under."""
        if self.deck is None:
            self.deck = self.shuffled(_N, self.hand_number, "shuffle")   # BT-5.1
        top, bottom = self.deck[:p], self.deck[p:]
        order = (self.L, self.dealer, self.L)
        revealed, to = [], []
        got = 0
        c = top[-1]
        revealed.append(c)
        if (1 << c) & CRITICI_MASK:
            top.pop()
            to.append(order[0])
            got = 1
            if self.opts["cut_next_card_from"] == "lifted_packet":
                src, idx = top, -1
            else:
                src, idx = bottom, 0
            while src and got < 3:
                c = src[idx]
                revealed.append(c)
                if not (1 << c) & CRITICI_MASK:
                    to.append(None)
                    break
                src.pop(idx)
                to.append(order[got])
                got += 1
            else:
                if got == 3 and src and idx == -1:   # BT-5.3: the card after a third critico is shown too
                    revealed.append(src[idx])
                    to.append(None)
        else:
            to.append(None)
        for card, seat in zip(revealed, to, strict=True):
            if seat is not None:
                self.hands[seat] |= 1 << card
        self.deck = bottom + top
        self.cuts += 1
        self.emit("cut", None, seat=self.L, cut=self.cuts, at=p,
                  revealed=[DECK.code(c) for c in revealed], to=to)

    def _after_cut(self):
        if self.orbi_open and not self.opts["orbi_before_cut"]:
            self._open_orbi()
        else:
            self._deal()

    # --- Orbi window (BT-16.1): polled R, P, L, D; the first declaration counts ---------------------
    def _open_orbi(self):
        self.orbi_i = 0
        self.phase, self.current_player = ORBI, self.R

    def _close_orbi(self):
        self.orbi_open = False
        if self.opts["orbi_before_cut"]:
            self._begin_cut()
        else:
            self._deal()

    # --- deal (BT-6) ------------------------------------------------------------------------------------
    def _deal(self):
        order = (self.R, self.P, self.L, self.dealer)
        if not self.explicit:
            deck = self.deck
            hands = self.hands
            seats = deal_order(order, [h.bit_count() for h in hands], self.opts["deal_pattern"])
            for pos, s in enumerate(seats):
                hands[s] |= 1 << deck[pos]
            self.stock = deck[len(seats):]
            self.deck = None
        kritish = self.opts["kritish"]
        for s in order:
            if kritish and s in (self.P, self.L):
                continue   # BT-18: P and L look only after the choice
            self.emit("deal", 1 << s, seat=s, cards=DECK.codes_of(self.hands[s]), replace=True)
        if not self.explicit:
            self.emit("stock_bottom", None, card=DECK.code(self.stock[-1]))     # BT-6.3, A4-21
        self._status()
        self._begin_scheanara()

    # --- Scheanara (BT-8) -----------------------------------------------------------------------------
    def _sche_first(self):
        return self.R if self.opts["scheanara_first_speaker"] == "R" else self.dealer

    def _begin_scheanara(self):
        if self.scheanara_count < self.opts["scheanara_max"] and len(self.stock) >= 10:
            self.sche_asker = None
            self.sche_passes = 0
            self.phase, self.current_player = SCHE_ASK, self._sche_first()
        else:
            self.phase, self.current_player = SCHLOK, self.R

    def _other_chooser(self, seat):
        return self.dealer if seat == self.R else self.R

    def _exchange(self):
        """BT-8.3: both hands set aside unseen; 5 new cards each, one at a time, R first."""
        new = {self.R: 0, self.dealer: 0}
        for i in range(10):
            new[self.R if i % 2 == 0 else self.dealer] |= 1 << self.stock[i]
        self.stock = self.stock[10:]
        # Public: both hands (cut critici included, A4-12 iv) are set aside unseen.
        self.emit("exchange", None, seats=[self.R, self.dealer], count=self.scheanara_count + 1)
        for s in (self.R, self.dealer):
            self.hands[s] = new[s]
            self.emit("deal", 1 << s, seat=s, cards=DECK.codes_of(new[s]), replace=True)
        self.scheanara_count += 1
        self._status()
        self._begin_scheanara()

    # --- start of play (BT-11) --------------------------------------------------------------------------
    def _start_play(self):
        self.table = self.game.tables[(self.schlok, self.trumpf)]
        if self.opts["kritish"]:
            for s in (self.P, self.L):
                self.emit("deal", 1 << s, seat=s, cards=DECK.codes_of(self.hands[s]), replace=True)
        if self.opts["partners_see_hands"]:     # BT-7.5
            for s in range(4):
                mate = (s + 2) & 3
                self.emit("partner_hand", 1 << s, seat=mate, cards=DECK.codes_of(self.hands[mate]))
        if self.orbi_team is not None:           # BT-11.2a
            self.phase, self.current_player = PREPLAY, self._speaker(1 - self.orbi_team, self.R)
        elif self.x_team is not None:            # BT-11.2b
            self.phase, self.current_player = PREPLAY, self._speaker(self.x_team, self.R)
        else:
            self._begin_tricks()

    def _begin_tricks(self):
        self.trick_no = 1
        self.leader = self.R                     # BT-11.3, BT-12.1
        self._status()
        self._open_window()

    @staticmethod
    def _speaker(t: int, mover: int) -> int:
        """Who speaks for team ``t`` at the window before ``mover``'s card (PR-B7): the mover
        for his own team, else the opponent sitting just before him in playing order."""
        return mover if team(mover) == t else (mover + 3) & 3

    # --- raising (BT-14) --------------------------------------------------------------------------------
    def _may_raise(self, t: int, to: int) -> bool:
        """BT-14.3/14.8: may team ``t`` propose a stake of ``to`` now?"""
        if to > self.game.stake_limit:
            return False   # option stake_cap = target (PR-B8); BT-14.6 sets no limit
        if t == self.x_team and not self.opts["x_team_may_raise"]:
            return False
        return self.raise_right == BOTH or self.raise_right == t

    def _mover(self) -> int:
        return (self.leader + len(self.trick)) & 3

    def _open_window(self):
        """The raise window before the next card (BT-14.4, PR-B7): first the opponents of the
        player about to play are polled (if entitled), then the mover plays or raises."""
        m = self._mover()
        if self._may_raise(1 - team(m), self.stake + 1):
            self.phase, self.current_player = POLL, (m + 3) & 3
        else:
            self.phase, self.current_player = MOVE, m

    def _propose(self, t: int, seat: int):
        self.pending = t
        self.proposed = self.stake + 1
        self._status()
        self.phase, self.current_player = RESPOND, self._speaker(1 - t, self._mover())

    def _accepted(self, t: int):
        """Team ``t`` accepted the pending raise: the stake rises, ``t`` holds the raise right."""
        self.stake = self.proposed
        self.pending = None
        self.proposed = 0
        self.raise_right = t if self.opts["raise_alternation"] else BOTH

    # --- tricks (BT-12) ----------------------------------------------------------------------------------
    def _play(self, seat: int, card: int):
        self.hands[seat] &= ~(1 << card)
        self.trick.append(card)
        lean = self.lean   # a lean state keeps no narration: its payloads are not even built
        if not lean:
            self.emit("play", None, seat=seat, card=DECK.code(card))
        if len(self.trick) < 4:
            self._open_window()
            return
        pos = self.table.winner(self.trick)
        w = (self.leader + pos) & 3
        if not lean:
            self.emit("trick", None, winner=w)
        self.tricks[team(w)] += 1
        self.trick = []
        if self.tricks[team(w)] == 3:            # BT-12.6
            self._status()
            self._end_by_tricks(team(w))
            return
        self.leader = w                          # BT-12.2
        self.trick_no += 1
        self._status()
        self._open_window()

    # --- scoring (BT-14.6, BT-15, A3.19) ------------------------------------------------------------------
    def _end_by_tricks(self, w: int):
        scorer, points, reason = w, self.stake, "tricks"
        if self.svista is not None:              # BT-17.2 (manual mode)
            scorer, reason = 1 - self.svista, "svista"
        if self.misraised[scorer] and self.orbi_team is not None and self.stake == 3:
            points, reason = 2, reason + "+misraise"   # BT-16.5, A4-17
        self._score(scorer, points, reason)

    def _score(self, t: int, points: int, reason: str):
        self.scores[t] += points
        # The event says exactly what hand_summary()["last_result"] says (so a front end that shows
        # both can tell they are one result).
        self.last_result = {"hand": self.hand_number, "team": t, "points": points, "reason": reason,
                            "stake": self.stake}
        self.emit("turn_result", None, **self.last_result)
        self.emit("scores", None, scores=list(self.scores), teams=[[0, 2], [1, 3]])   # [A, B]
        if self.scores[t] >= self.opts["target"]:    # BT-2.1
            self.winner = t
            self.phase, self.current_player = OVER, TERMINAL
            self.emit("match_end", None, winner=t, scores=list(self.scores))
            return
        if self.x_team is None and self.scores[t] >= self.opts["x_threshold"]:   # BT-15.1
            self.x_team = t
            self.emit("x_mark", None, team=t)
        self.dealer = self._next_dealer()
        self._new_turn()

    def _next_dealer(self) -> int | None:
        """BT-3.2: the deal passes to the next seat after every turn (None: the match is over)."""
        return None if self.winner is not None else (self.dealer + 1) & 3

    # --- public status for views ------------------------------------------------------------------------
    def _status(self):
        if self.lean:   # narration only (a lean state keeps no events): not worth building
            return
        self.emit("status", None, base=self.base, stake=self.stake,
                  proposed=self.proposed or None, raise_pending=self.pending,
                  raise_right="both" if self.raise_right == BOTH else self.raise_right,
                  schlok=None if self.schlok is None else RANKS[self.schlok],
                  trumpf=None if self.trumpf is None else SUITS[self.trumpf],
                  orbi=self.orbi_team, x_team=self.x_team, tricks=list(self.tricks),
                  trick_no=self.trick_no, scheanara=self.scheanara_count, stock=len(self.stock),
                  roles={"D": self.dealer, "R": self.R, "P": self.P, "L": self.L})

    def _call(self, seat: int, text: str):
        if not self.lean:
            self.emit("call", None, seat=seat, call=text)

    # --- the protocol -------------------------------------------------------------------------------------
    def _legal_actions(self):
        g = self.game
        ph = self.phase
        seat = self.current_player
        if ph == MOVE:
            legal = self.table.legal(self.hands[seat], self.trick, self.trick_no, self.opts)
            acts = g.play_lists.of(legal)
            if self._may_raise(team(seat), self.stake + 1):
                acts.append(g.a_raise)
            return acts + self._manual(seat)
        if ph == POLL:
            return [g.a_pass, g.a_raise] + self._manual(seat)
        if ph == RESPOND:
            acts = [g.a_accept, g.a_fold]
            if self._counter_ok(seat):           # BT-14.5 counter-raise, BT-14.8
                acts.append(g.a_raise)
            return acts
        if ph == ORBI:
            return [g.a_orbi_pass, g.a_orbi]
        if ph == CUT:
            return g.cut_menu(self._pack_size())
        if ph == CUT2:
            return [g.a_cut_done] + g.cut_menu(self._pack_size())
        if ph == SCHE_ASK:
            return [g.a_scheanara_pass, g.a_scheanara]
        if ph == SCHE_ANSWER:
            return [g.a_scheanara_no, g.a_scheanara_yes]
        if ph == SCHLOK:
            ranks = g.schlok_order
            if self.opts["schlok_requires_holding"]:   # A4-13 option
                ranks = [r for r in ranks if self.hands[seat] & g.rank_masks[r]]
            return [g.a_schlok[r] for r in ranks]
        if ph == TRUMPF:
            return list(g.a_trumpf)
        if ph == PREPLAY:
            if self.orbi_team is not None:
                return [g.a_orbi_accept, g.a_orbi_refuse]
            return [g.a_x_play, g.a_x_decline]
        return []

    def _counter_ok(self, seat):
        t = team(seat)
        return self.proposed + 1 <= self.game.stake_limit and (self.opts["x_team_may_raise"] or t != self.x_team)

    def _manual(self, seat):
        """Manual-mode bookkeeping actions (BT-16.5, BT-17.2), offered at every play-phase window."""
        if not self.opts["manual_mode"]:
            return []
        g = self.game
        acts = []
        if self.orbi_team is not None and not self.misraised[team(seat)]:
            acts.append(g.a_misraise)
        if self.svista is None:
            acts += [g.a_svista["DP"], g.a_svista["RL"]]
        return acts

    def _off_turn_actions(self, seat: int):
        """BT-14.4/14.8: at a raise window a team that is not on turn may raise "all'inizio della
        carta successiva" - the opponents' speaker while the mover is to play (also right after his
        team accepted a raise, BT-14.3), and the mover while the opponents are polled (PR-B7)."""
        ph = self.phase
        if ph != MOVE and ph != POLL:
            return ()
        m = self._mover()
        t = team(seat)
        if seat != self._speaker(t, m) or not self._may_raise(t, self.stake + 1):
            return ()
        return [self.game.a_raise]

    def _apply_off_turn(self, seat: int, a):
        self._call(seat, "raise")            # the only action out of turn
        self._propose(team(seat), seat)

    def _apply(self, a):
        verb = a.verb
        seat = self.current_player
        ph = self.phase
        if verb == "play":
            self._play(seat, a.value)
        elif verb == "pass":
            self._call(seat, "pass")   # the polled opponent's "no raise" is spoken too (PR-B7)
            self.phase, self.current_player = MOVE, self._mover()
        elif verb == "raise":
            self._call(seat, "raise")
            if ph == RESPOND:                    # counter-raise: accept S+1 and propose S+2
                self._accepted(team(seat))
            self._propose(team(seat), seat)
        elif verb == "accept":
            self._call(seat, "accept")
            self._accepted(team(seat))
            self._status()
            self.phase, self.current_player = MOVE, self._mover()
        elif verb == "fold":                     # BT-14.5; BT-15.5
            self._call(seat, "fold")
            t = team(seat)
            points = self.stake
            if t == self.x_team and self.stake == 3 and self.opts["x_fold_at_base_costs_2"]:
                points = 2
            self._score(1 - t, points, "fold")
        elif verb == "orbi" or verb == "orbi_pass":
            self._call(seat, verb)
            if verb == "orbi":
                self.orbi_team = team(seat)      # BT-16.2
                self.base = 3
                self._status()
                self._close_orbi()
            else:
                self.orbi_i += 1
                if self.orbi_i == 4:
                    self._close_orbi()
                else:
                    self.current_player = (self.R + self.orbi_i) & 3
        elif verb == "cut":
            self._do_cut(a.value)
            if ph == CUT and self.opts["max_cuts"] == 2 and len(self._cut_points()):
                self.phase = CUT2
            else:
                self._after_cut()
        elif verb == "cut_done":
            self._call(seat, "cut_done")
            self._after_cut()
        elif verb == "scheanara":
            self._call(seat, verb)
            self.sche_asker = seat
            self.phase, self.current_player = SCHE_ANSWER, self._other_chooser(seat)
        elif verb == "scheanara_pass":
            self._call(seat, verb)
            if seat == self._sche_first():
                self.current_player = self._other_chooser(seat)
            else:
                self.phase, self.current_player = SCHLOK, self.R    # two passes end the phase
        elif verb == "scheanara_yes":
            self._call(seat, verb)
            self._exchange()
        elif verb == "scheanara_no":
            self._call(seat, verb)
            self.phase, self.current_player = SCHLOK, self.R        # A4-12 vi
        elif verb == "schlok":
            self._call(seat, str(a))
            self.schlok = a.value
            self._status()
            self.phase, self.current_player = TRUMPF, self.dealer
        elif verb == "trumpf":
            self._call(seat, str(a))
            self.trumpf = a.value
            self._status()
            self._start_play()
        elif verb == "orbi_accept":
            self._call(seat, verb)
            self.stake = 3                        # BT-16.3
            self.raise_right = team(seat) if (self.opts["orbi_counts_as_raise"]
                                              and self.opts["raise_alternation"]) else BOTH
            self._begin_tricks()
        elif verb == "orbi_refuse":
            self._call(seat, verb)
            self._score(self.orbi_team, 2, "orbi_refused")
        elif verb == "x_play":
            self._call(seat, verb)
            self._begin_tricks()
        elif verb == "x_decline":
            self._call(seat, verb)
            self._score(1 - self.x_team, 2, "x_declined")             # BT-15.4
        elif verb == "misraise":
            self._call(seat, verb)
            self.misraised[team(seat)] = True
        elif verb == "svista":
            self._call(seat, str(a))
            rel = a.value                         # DP = the dealer's team, RL = the other
            self.svista = team(self.dealer) if rel == "DP" else team(self.R)

    def _why_illegal(self, a):
        ph = self.phase
        verb = a.verb
        where = PHASE_NAMES[ph]
        seat = self.current_player
        if verb == "play":
            if ph != MOVE:
                return f"no card may be played now (phase: {where})"
            if not self.hands[seat] >> a.value & 1:
                return f"you do not hold {a.arg}"
            lead = DECK.code(self.trick[0])
            return (f"{lead} led a Trumpf ({SUITS[self.trumpf]}): you must play a plain trump or an exempt "
                    f"card (critico, Il Buono, Uno Buono) (BT-12.3/12.4)")
        if verb == "raise":
            if ph not in (MOVE, POLL, RESPOND):
                return f"raises are made only during play (BT-14.4; phase: {where})"
            if team(seat) == self.x_team and not self.opts["x_team_may_raise"]:
                return "the X team may not raise (option x_team_may_raise, BT-15.6)"
            if max(self.stake, self.proposed) + 1 > self.game.stake_limit:
                return f"the stake may not exceed the target {self.opts['target']} (option stake_cap, PR-B8)"
            return ("your team does not hold the raise right: the team that accepted the last raise "
                    "raises next (BT-14.3)")
        if verb == "schlok" and ph == SCHLOK:
            return f"you hold no card of rank {a.arg} (option schlok_requires_holding, A4-13)"
        if verb == "cut" and ph in (CUT, CUT2):
            m = self.opts["min_packet_size"]
            return f"each packet must hold at least {m} card(s): cut between {m} and {self._pack_size() - m}"
        if verb in ("misraise", "svista") and not self.opts["manual_mode"]:
            return "misraise and svista exist only in manual mode (option manual_mode)"
        return f"not possible now (phase: {where})"

    def _copy_into(self, other):
        other.scores = self.scores.copy()
        other.hands = self.hands.copy()
        other.stock = self.stock.copy()
        other.deck = None if self.deck is None else self.deck.copy()
        other.tricks = self.tricks.copy()
        other.trick = self.trick.copy()
        other.misraised = self.misraised.copy()

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    def returns(self):
        if self.winner is None:
            return [0.0] * 4
        return [1.0 if team(s) == self.winner else -1.0 for s in range(4)]

    def _hand_summary(self) -> dict:
        return {
            "hand": self.hand_number, "dealer": self.dealer, "next_dealer": self._next_dealer(),
            "roles": {"D": self.dealer, "R": self.R, "P": self.P, "L": self.L},
            "phase": PHASE_NAMES[self.phase],
            "schlok": None if self.schlok is None else RANKS[self.schlok],
            "trumpf": None if self.trumpf is None else SUITS[self.trumpf],
            "base": self.base, "stake": self.stake, "raise_pending": self.pending,
            "tricks": list(self.tricks), "scores": list(self.scores), "x_team": self.x_team,
            "orbi": self.orbi_team, "scheanara": self.scheanara_count,
            "last_result": None if self.last_result is None else dict(self.last_result),
        }

    # --- views ------------------------------------------------------------------------------------------
    def _fold_event(self, view, ev, seat):
        t = ev["type"]
        info = view["info"]
        if t == "status":
            info.update({k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
                         for k, v in ev.items() if k != "type"})
        elif t == "call":
            info.setdefault("calls", []).append([ev["seat"], ev["call"]])
        elif t == "cut":
            info.setdefault("cuts", []).append({k: v for k, v in ev.items() if k != "type"})
            known = view["known_hands"]
            for card, s in zip(ev["revealed"], ev["to"], strict=True):
                if s is not None:   # a critico taken at the cut is public (BT-5.5, BT-7.1)
                    if known[s] is None:
                        known[s] = []
                    known[s].append(card)
        elif t == "exchange":
            for s in ev["seats"]:
                view["known_hands"][s] = None   # the old hands are gone; own new cards follow
        elif t == "stock_bottom":
            info["stock_bottom"] = ev["card"]
        elif t == "partner_hand":
            view["known_hands"][ev["seat"]] = list(ev["cards"])
        elif t == "turn_result":
            view["last_result"] = {k: v for k, v in ev.items() if k != "type"}
            info["result"] = view["last_result"]
        elif t == "x_mark":
            view["x_team"] = ev["team"]
        elif t == "match_end":
            view["winner"] = ev["winner"]
        elif t == "first_dealer":
            view["first_dealer_draw"] = {k: v for k, v in ev.items() if k != "type"}
        else:
            return False
        return True
