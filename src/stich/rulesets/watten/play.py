"""Play, raising and scoring of a Watten hand (rules file §2.2, §2.6, §2.7, §2.8, §2.9, T1.8,
T1.9, E.11)."""

from __future__ import annotations

from stich.engine import TERMINAL
from stich.rulesets.watten.deal import DECIDE, OVER, PLAY, RESPOND
from stich.rulesets.watten.ranking import trick_winner


class PlayMixin:
    """Tricks, follow rules, the raise protocol, fixed-value hands and the score."""

    # --- follow obligations (§2.6, B1.5, T1.6, E.8) -----------------------------------------------
    def _playable(self, seat: int) -> int:
        """The mask of cards ``seat`` may play now."""
        hand = self.hands[seat]
        trick = self.trick
        if not trick:
            return hand
        g = self.game
        rk = self.rk
        if g.bavarian:
            # B1.5: only trick 1, only when the Hauptschlag was led, until a Kritische falls.
            if self.trick_no == 1 and rk.rechte and trick[0] == rk.rechte.bit_length() - 1:
                km = g.kritische_mask
                for c in trick[1:]:
                    if km >> c & 1:
                        return hand
                t = hand & rk.trump_mask   # R15: Kritische, Blinde and trump-suit cards
                return t or hand
            return hand
        # Tyrolean family: the trump-lead rule.
        if not g.bound_all and seat != self.forehand and seat != self.dealer:
            return hand              # T3, E.8: the blind players are free
        if g.first_trick_only and self.trick_no != 1:
            return hand              # option zugeben_scope = first_trick (R25)
        lead = 1 << trick[0]
        if not lead & rk.trump_mask:
            return hand              # R3(b): a Linke lead or a plain lead binds nobody
        if lead == rk.guate and not g.guate_lead:
            return hand
        t = hand & rk.trump_mask
        forcing = t & ~rk.rechte if g.rechte_exempt else t
        if not forcing:
            return hand              # R3(d): the Rechte is never forced
        if g.linke_follow:
            t |= hand & rk.linke_mask   # R3(c): a Linke may be played instead
        return t

    # --- raising (§2.8, R9-R14) -------------------------------------------------------------------
    def _score_of(self, seat: int) -> int:
        return self.scores[self.side[seat]] if self.game.num_players == 4 else self.scores[seat]

    def _can_raise(self, seat: int, bluffing_allowed: bool = True, accepting: bool = False) -> bool:
        """§2.8 item 1 for ``seat``; ``accepting``: as if the pending raise were accepted first
        (window (b) of R9: the accepter raises again before the next card)."""
        return self._raise_refusal(seat, bluffing_allowed, accepting) is None

    def _raise_refusal(self, seat: int, bluffing_allowed: bool = True, accepting: bool = False) -> str | None:
        """Why ``seat`` may not raise now (§2.8 item 1), or None where it may: the one place both
        the legal actions and the refusal's message read, so the reason given is the real one."""
        side = self.side[seat]
        stake = self.stake
        if accepting:
            stake += 1                # the raiser's side is the last accepted raiser now
        elif side == self.last_raiser_side:
            return "your side's raise was the last one accepted; the other side raises next (§2.8)"
        if self.fixed:
            # R13(b): a fixed hand cannot be raised, except by the trailing side with the option.
            if not (self.decided and side == self.trailing_side):
                if self.trailing_side >= 0 and self.decision is not None:
                    return "nobody raises before the struck side has decided to hold (E.11, PR-W11)"
                return "this hand has a fixed value and cannot be raised (E.11, T1.9)"
        g = self.game
        score = self.scores[side] if g.num_players == 4 else self.scores[seat]
        if score >= g.lock_at:
            return f"a score of {g.lock_at} or more is locked (gestrichen) and may not raise (§2.9)"
        if g.raise_cap and score + stake >= g.target:
            return "the stake already covers the points you need (raise_cap, R11)"
        if self.trick_no == 5 and self._last_trick_restricted(seat) and not self._last_trick_card_ok(seat):
            if not (g.bluff and bluffing_allowed):
                return "in the last trick you may raise only with a card of the led suit, a trump or a Schlag (T1.8)"
        return None

    def _last_trick_restricted(self, seat: int) -> bool:
        """T1.8, R14: in trick 5, after its lead, if the stake was still 2 when it was led."""
        rule = self.game.last_trick_rule
        if rule == "off" or self.trick_no != 5 or not self.trick or self.last_trick_free:
            return False
        return rule == "all" or seat == self.forehand or seat == self.dealer

    def _last_trick_card(self, seat: int) -> int:
        if seat in self.trick_seats:
            return self.trick[self.trick_seats.index(seat)]
        return self.hands[seat].bit_length() - 1   # his only card

    def _last_trick_card_ok(self, seat: int) -> bool:
        g = self.game
        c = self._last_trick_card(seat)
        rk = self.rk
        return (g.suit_of[c] == g.suit_of[self.trick[0]]
                or bool((rk.trump_mask | rk.schlag_mask) >> c & 1))

    def _apply_raise(self, seat: int) -> None:
        g = self.game
        self.exchange_closed = True   # E.5: a raise closes the exchange window
        self.raiser = seat
        self.phase = RESPOND
        self.emit("raise", None, seat=seat, stake=self.stake + 1)
        side = self.side[seat]
        r = self._nxt(seat)
        while self.side[r] == side:
            r = self._nxt(r)
        self.current_player = r       # R34: the first opponent after the raiser answers
        self.challengeable = g.bluff and self._last_trick_restricted(seat)

    def _respond_actions(self) -> list:
        g = self.game
        acts = [g.a_accept, g.a_fold]
        if self._can_raise(self.current_player, accepting=True):
            acts.append(g.a_raise)    # PR-W3: accept and raise again at once (R9 window (b))
        if self.challengeable:
            acts.append(g.a_challenge)
        return acts

    def _apply_reraise(self, seat: int) -> None:
        """R9 window (b): ``raise`` while answering = accept, then offer the next raise."""
        self._apply_accept(seat)
        self._apply_raise(seat)

    def _apply_accept(self, seat: int) -> None:
        self.stake += 1
        self.raised = True
        self.last_raiser_side = self.side[self.raiser]
        self.emit("accept", None, seat=seat, stake=self.stake)
        self.accepted_at = (seat, self.trick_no, len(self.trick))   # window (b) lasts until the next card
        if self.trick_no == 5 and not self.trick:
            self.raised_before_t5 = True   # R14: raised before trick 5 was led
            self.last_trick_free = True
        self.phase = PLAY
        self.current_player = self.turn   # PR-W3: play goes on with the player on turn

    def _apply_fold(self, seat: int) -> None:
        self.emit("fold", None, seat=seat, stake=self.stake)
        self._end_hand(self.side[self.raiser], self.stake, "fold")   # §2.8: the pre-raise value

    def _apply_challenge(self, seat: int) -> None:
        """T1.8 bluff mode: 'Farbe!' - the raiser's card is shown."""
        raiser = self.raiser
        c = self._last_trick_card(raiser)
        ok = self._last_trick_card_ok(raiser)
        self.emit("challenge", None, seat=seat, raiser=raiser, card=self.game.deck.code(c), valid=ok)
        win = self.side[raiser] if ok else self.side[seat]
        self._end_hand(win, self.stake, "challenge")

    # --- fixed-value hands (E.11, T1.9) -----------------------------------------------------------
    def _setup_fixed_value(self) -> None:
        g = self.game
        self.decision = None
        self.decided = False
        self.fixed = False
        self.trailing_side = -1
        if g.num_players != 4:
            return
        a, b = self.scores
        struck = [a >= g.lock_at, b >= g.lock_at]
        o = g.options
        if g.euregio and o.four_points_rule == "on":
            if struck[0] != struck[1]:
                s = 0 if struck[0] else 1
                if self.scores[s] - self.scores[1 - s] >= 4:
                    # E.11: fixed 4; the struck side's Ansager decides (R13(c)).
                    self.fixed = True
                    self.stake = 4
                    self.trailing_side = 1 - s
                    seat = self.forehand if self.side[self.forehand] == s else self.dealer
                    when = "lead"
                    if o.four_points_decision == "literal" and seat == self.trump_seat:
                        when = "own"
                    self.decision = (seat, when, "four")
                    self.emit("stake", None, stake=4, fixed=True, struck_side=s, decider=seat)
        elif o.get("tyrolean_gestrichen", "off") == "on":
            if struck[0] and struck[1]:
                self.fixed = True      # T1.9: both gestrichen, played for 2 without raising
                self.emit("stake", None, stake=2, fixed=True)
            elif struck[0] or struck[1]:
                s = 0 if struck[0] else 1
                seat = self.forehand
                while self.side[seat] != s:
                    seat = self._nxt(seat)
                self.fixed = True
                self.trailing_side = -1
                self.decision = (seat, "lead", "gestrichen")
                self.emit("stake", None, stake=3, fixed=True, struck_side=s, decider=seat)

    def _apply_hold(self, seat: int) -> None:
        kind = self.decision[2]
        self.decision = None
        self.decided = True
        self.exchange_closed = True
        if kind == "gestrichen":
            self.stake = 3
        elif self.game.options.four_points_raising != "trailing_may_raise":
            self.trailing_side = -1
        self.emit("hold", None, seat=seat, stake=self.stake)
        self.phase = PLAY
        self.current_player = self.turn

    def _apply_concede(self, seat: int) -> None:
        kind = self.decision[2]
        self.decision = None
        self.emit("concede", None, seat=seat)
        value = 2
        if kind == "four":
            value = self.game.options.four_points_refusal_value
        self._end_hand(1 - self.side[seat], value, "concede")

    # --- the tricks (§2.2, §2.3) ------------------------------------------------------------------
    def _apply_play(self, seat: int, card: int) -> None:
        g = self.game
        self.hands[seat] ^= 1 << card
        trick = self.trick
        trick.append(card)
        self.trick_seats.append(seat)
        self.exchange_closed = True
        lean = self.lean   # a lean state keeps no narration: its payloads are not even built
        if not lean:
            self._events.append((None, {"seat": seat, "card": g.deck.codes[card], "type": "play"}))
        n = g.num_players
        if len(trick) < n:
            nxt = self._nxt(seat)
            self.turn = self.current_player = nxt
            d = self.decision
            if d is not None and d[0] == nxt and d[1] == "own":
                self.phase = DECIDE
            return
        w = self.trick_seats[trick_winner(self.rk, g.suit_of, g.rank_of, trick)]
        side = self.side[w]
        self.tricks[side] += 1
        if not lean:
            self._events.append((None, {"winner": w, "number": self.trick_no, "type": "trick"}))
        if g.row.face_up_first_trick:
            self._first_trick_display()
        if self.tricks[side] >= 3:
            self._end_hand(side, self.stake, "tricks")   # R31: play stops at 3 tricks
            return
        self.trick = []
        self.trick_seats = []
        self.trick_no += 1
        if self.trick_no == 5:
            # R14: the stake when trick 5 is led; a raise accepted before that lead is added in
            # _apply_accept (not here on every card: play is the hot path).  The test applies only
            # at a stake of 2: a fixed 3 or 4 (T1.9, E.11) lifts it like a raise does.
            self.raised_before_t5 = self.raised
            self.last_trick_free = self.stake > 2
        self.turn = self.current_player = w

    def _first_trick_display(self) -> None:
        """T3, R21: the first trick stays face up (or until trick 2 is complete)."""
        if self.trick_no == 1:
            self.face_up = [self.game.deck.codes[c] for c in self.trick]
            self.emit("face_up", None, cards=self.face_up, seats=list(self.trick_seats))
        elif self.trick_no == 2 and self.game.options.first_trick_display == "until_trick_2":
            self.face_up = None
            self.emit("face_up", None, cards=None, seats=None)

    # --- end of a hand, end of the match (§2.7, §2.11, §2.12, B3, R18) -------------------------
    def _end_hand(self, side: int, points: int, reason: str) -> None:
        g = self.game
        n = g.num_players
        if n == 4:
            self.scores[side] += points
            seats = [s for s in range(4) if self.side[s] == side]
        else:
            seats = [s for s in range(n) if self.side[s] == side]
            for s in seats:
                self.scores[s] += points   # B3: each duo member scores the value
        # The hand's final stake goes with the result: a fold scores the stake before the refused
        # raise, a concession the refusal value, so ``points`` alone does not say it.
        self.result = {"side": side, "seats": seats, "points": points, "reason": reason, "stake": self.stake,
                       "hand": self.hand_number}
        self.emit("hand_result", None, **self.result)
        self.emit("scores", None, scores=list(self.scores))
        self.phase = OVER
        if max(self.scores) >= g.target:
            self.current_player = TERMINAL
            return
        self.dealer = self._next_dealer()
        self.hand_number += 1
        self.redeal = 0
        self._begin_hand()

    def _next_dealer(self) -> int | None:
        """§2.12: the deal passes on after every hand (None: the match is over)."""
        return None if max(self.scores) >= self.game.target else self._nxt(self.dealer)

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    def returns(self) -> list[float]:
        """+1 per winning seat, -1 per losing seat (3 players: losers share the winners' total).

        R18: with 3 players, the highest total among those at or over the target wins; equal
        totals share the win.
        """
        g = self.game
        n = g.num_players
        if not self.is_terminal():
            return [0.0] * n
        if n == 4:
            win = 0 if self.scores[0] >= self.scores[1] else 1
            return [1.0 if s % 2 == win else -1.0 for s in range(4)]
        best = max(self.scores)
        winners = [s for s in range(n) if self.scores[s] == best]
        k = len(winners)
        if k == n:
            return [0.0] * n
        lose = -k / (n - k)
        return [1.0 if s in winners else lose for s in range(n)]
