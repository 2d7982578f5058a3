"""The Watten state: dispatch of actions, legal actions, reasons for refusals, views."""

from __future__ import annotations

from stich.engine import State
from stich.rulesets.watten.deal import ANSAGE, CUT, DECIDE, OVER, PLAY, REQUEST, RESPOND, DealMixin
from stich.rulesets.watten.game import RAISE_BIT
from stich.rulesets.watten.play import PlayMixin
from stich.rulesets.watten.playout import SearchMixin
from stich.rulesets.watten.position import PositionMixin
from stich.rulesets.watten.ranking import RANK_CODES, SUIT_CODES


class WattenState(DealMixin, PlayMixin, PositionMixin, SearchMixin, State):
    """A Watten match: hands are played until a side (or player) reaches the target."""

    # The fields every hand sets (_start, _begin_hand) are slots: with them in the instance dict it
    # would pass CPython's 30 shared keys and every attribute access would get slower (State).
    __slots__ = (
        "scores", "dealer", "redeal", "_given_pack", "pack", "phase",
        "forehand", "cutter", "side", "hands", "public", "looked", "stock", "exchanges", "exchange_closed",
        "schlag_seat", "trump_seat", "request", "resume",
        "schlag", "trump", "shown_schlag", "shown_trump", "swap_asked", "swapped",
        "trick", "trick_seats", "trick_no", "tricks", "stake", "last_raiser_side", "raiser", "turn",
        "raised", "raised_before_t5", "last_trick_free", "fixed", "decision", "decided", "trailing_side", "rk",
        "face_up", "accepted_at",
    )

    def _copy_into(self, other) -> None:
        other.hands = self.hands.copy()
        other.public = self.public.copy()
        other.scores = self.scores.copy()
        other.stock = self.stock.copy()
        other.trick = self.trick.copy()
        other.trick_seats = self.trick_seats.copy()
        other.tricks = self.tricks.copy()

    # --- legal actions (§0.5) ---------------------------------------------------------------------
    def _legal_actions(self):
        seat = self.current_player
        ph = self.phase
        g = self.game
        if ph == PLAY:
            m = self._playable(seat)
            if self._can_raise(seat):
                m |= RAISE_BIT
            acts = g.play_lists.of(m)
            if g.euregio and not self.exchange_closed and self._may_ask_exchange(seat):
                acts.append(g.a_ask_exchange)
            return acts
        if ph == RESPOND:
            return self._respond_actions()
        if ph == CUT:
            return g.cut_menu
        if ph == ANSAGE:
            return self._ansage_actions(seat)
        if ph == DECIDE:
            # E.11 forbids playing and raising while the decision is due, not the Schönere (E.5).
            if g.euregio and self._may_ask_exchange(seat):
                return [g.a_hold, g.a_concede, g.a_ask_exchange]
            return [g.a_hold, g.a_concede]
        if ph == REQUEST:
            return self._request_actions()
        return []

    def _off_turn_actions(self, seat: int):
        """§0.5, E.4-E.6: in Euregio the Ansager not on turn may ask for a Schönere (while the
        window of E.5 is open) or a Schlagtausch (R33), and in the simultaneous Ansage show his card
        whenever he likes.  Nobody else ever acts out of turn."""
        g = self.game
        ph = self.phase
        at = self.accepted_at
        if at is not None and ph == PLAY and at[0] == seat and at[1] == self.trick_no and at[2] == len(self.trick):
            # §0.5, R9 window (b): the player who has just accepted may raise until the next card.
            return [g.a_raise] if self._can_raise(seat) else ()
        if not g.euregio or (seat != self.forehand and seat != self.dealer):
            return ()
        acts = []
        if ph == ANSAGE or ph == PLAY or ph == DECIDE:
            if self._may_ask_exchange(seat):
                acts.append(g.a_ask_exchange)
        if ph == ANSAGE:
            if self._may_ask_swap():
                acts.append(g.a_ask_swap)
            if g.ansage_order == "simultaneous" and not self._has_shown(seat):
                acts += g.show_lists(self.hands[seat])
        return acts

    def _apply_off_turn(self, seat: int, action) -> None:
        if action.verb == "raise":
            self._apply_raise(seat)
        elif action.verb == "show":
            self._apply_show(seat, action.value)
        else:   # ask_exchange, ask_swap
            self._apply_request(seat, action.verb[4:])

    def _apply(self, action) -> None:
        seat = self.current_player
        verb = action.verb
        if verb == "play":
            self._apply_play(seat, action.value)
        elif verb == "raise":
            if self.phase == RESPOND:
                self._apply_reraise(seat)
            else:
                self._apply_raise(seat)
        elif verb == "accept":
            self._apply_accept(seat)
        elif verb == "fold":
            self._apply_fold(seat)
        elif verb == "cut":
            self._apply_cut(action.value)
        elif verb == "schlag":
            self._apply_schlag(seat, action.value)
        elif verb == "trump":
            self._apply_trump(seat, action.value)
        elif verb == "show":
            self._apply_show(seat, action.value)
        elif verb == "hold":
            self._apply_hold(seat)
        elif verb == "concede":
            self._apply_concede(seat)
        elif verb == "challenge":
            self._apply_challenge(seat)
        elif verb in ("ask_exchange", "ask_swap"):
            self._apply_request(seat, verb[4:])
        elif verb in ("agree_exchange", "agree_swap"):
            self._answer_request(seat, True)
        elif verb in ("refuse_exchange", "refuse_swap"):
            self._answer_request(seat, False)
        else:  # pragma: no cover - every interned verb is handled above
            raise AssertionError(verb)

    def _why_illegal(self, action) -> str | None:
        seat = self.current_player
        ph = self.phase
        g = self.game
        verb = action.verb
        names = {CUT: "the cut", ANSAGE: "the Ansage", DECIDE: "a hold/concede decision",
                 PLAY: "the play", RESPOND: "the answer to a raise", REQUEST: "the answer to a request",
                 OVER: "the end of the match"}
        if ph == PLAY and verb == "play":
            c = action.value
            if not self.hands[seat] >> c & 1:
                return f"you do not hold {action.arg}"
            ok = ", ".join(g.deck.codes_of(self._playable(seat)))
            if g.bavarian:
                return (f"the Hauptschlag was led to the first trick and you hold trump: play one of "
                        f"{ok} (B1.5)")
            return f"a trump was led and you hold trump: play one of {ok} (trump or a Linke; T1.6/E.8)"
        if ph == PLAY and verb == "raise":
            return self._why_no_raise(seat)
        if ph == RESPOND and verb == "raise":
            why = self._raise_refusal(seat, accepting=True) or "raising is not possible now"
            return f"accepting and raising again is not allowed now: {why}"
        if verb == "show" and ph == ANSAGE and not self.hands[seat] >> action.value & 1:
            return f"you can only show a card you hold (R23), not {action.arg}"
        if verb == "cut" and ph == CUT:
            return f"the cut must leave at least 4 cards in each part (R17): cut 4..{len(g.deck) - 4}"
        return f"{verb} is not possible during {names.get(ph, 'this phase')}"

    def _why_no_raise(self, seat: int) -> str:
        return self._raise_refusal(seat) or "raising is not possible now"

    # --- public summary and views -----------------------------------------------------------------
    def _hand_summary(self) -> dict:
        g = self.game
        out = {
            "hand": self.hand_number,
            "dealer": self.dealer,
            "next_dealer": self._next_dealer(),
            "forehand": self.forehand,
            "stake": self.stake,
            "fixed": self.fixed,
            "tricks": list(self.tricks),
            "scores": list(self.scores),
            "stock_size": len(self.stock),
        }
        if not g.blind:   # in the blind variants Schlag and trump are never public (T3, E.4)
            out["schlag"] = None if self.schlag is None else RANK_CODES[self.schlag]
            out["trump"] = None if self.trump is None else SUIT_CODES[self.trump]
        if g.row.face_up_first_trick:
            out["face_up_trick"] = self.face_up
        if self.phase == OVER:
            out["result"] = dict(self.result)
        last = self.__dict__.get("result")
        if last is not None:   # the last finished hand, also once the next one has begun
            out["last_result"] = dict(last)
        return out

    def view(self, seat):
        v = super().view(seat)
        v.setdefault("schlag", None)
        v.setdefault("trump", None)
        v.setdefault("stake", 2)
        # Tricks per side of this hand, from the visible trick events (sides follow from the
        # public dealer: 3 players = forehand alone against the other two).
        n = self.game.num_players
        won = list(v["info"].get("position", {}).get("tricks_won", (0, 0)))   # a set-up position
        fh = v.get("forehand")
        for t in v["tricks"]:
            w = t["winner"]
            if n == 4:
                won[w % 2] += 1
            elif n == 2:
                won[w] += 1
            else:
                won[0 if w == fh else 1] += 1
        v["tricks_won"] = won
        return v

    def _fold_event(self, view: dict, ev: dict, seat) -> bool:
        t = ev["type"]
        if t == "watten_hand":
            view.update(schlag=None, trump=None, stake=ev["stake"], fixed=False, forehand=ev["forehand"],
                        cutter=ev["cutter"], schlag_seat=ev["schlag_seat"], trump_seat=ev["trump_seat"],
                        face_up_trick=None, shown=[])
            return True
        if t == "schlag":
            view["schlag"] = ev["rank"]
            return True
        if t == "ansage_known":   # a set-up position in a blind variant: the Ansager know the Ansage
            view["schlag"], view["trump"] = ev["schlag"], ev["trump"]
            return True
        if t == "trump":
            view["trump"] = ev["suit"]
            return True
        if t == "reveal":
            view["schlag"], view["trump"] = ev["schlag"], ev["trump"]
            # Both Ansage cards are now known to both Ansager (in the simultaneous order each had
            # seen only his own): list the other one as shown too.
            shown = view.setdefault("shown", [])
            for role, card in (("schlag", ev["schlag_card"]), ("trump", ev["trump_card"])):
                if not any(sh["card"] == card for sh in shown):
                    shown.append({"seat": view[f"{role}_seat"], "card": card, "role": role})
            return True
        if t == "exchange":
            # E.5, R8: both Ansager discard their hands (what they showed with them) and the Ansage
            # starts again with forehand choosing the Schlag.  (Then the generic fold files it.)
            view["shown"] = []
            view["schlag_seat"], view["trump_seat"] = ev["seats"]
            return False
        if t == "show":
            view.setdefault("shown", []).append({"seat": ev["seat"], "card": ev["card"], "role": ev["role"]})
            return True
        if t in ("raise", "accept", "stake", "hold", "fold"):
            if t != "raise":
                view["stake"] = ev.get("stake", view.get("stake"))
            if t == "stake":
                view["fixed"] = ev["fixed"]
            view["info"][t] = {k: x for k, x in ev.items() if k != "type"}
            return True
        if t == "hand_result":   # kept in view["last_result"] after the next hand begins; also in info
            view["last_result"] = {k: x for k, x in ev.items() if k != "type"}
            view["info"]["hand_result"] = dict(view["last_result"])
            return True
        if t == "face_up":
            view["face_up_trick"] = None if ev["cards"] is None else \
                [{"seat": s, "card": c} for s, c in zip(ev["seats"], ev["cards"], strict=True)]
            return True
        if t == "watten_roles":
            view["schlag_seat"], view["trump_seat"] = ev["schlag_seat"], ev["trump_seat"]
            return True
        return False

    def known_hand(self, seat: int) -> int:
        """R30: a seat that has not picked up its cards yet knows only those dealt to it face up."""
        return self.hands[seat] if self.looked >> seat & 1 else self.hands[seat] & self.public[seat]

    # --- hidden actions (views' action log; stich.engine.worlds) ------------------------------------
    _hidden_verbs = frozenset({"show"})

    def _action_audience(self, seat: int, action):
        """T3, E.4: a blind Ansage card is seen by the Ansager (only its owner when simultaneous)."""
        if self.game.ansage_order == "simultaneous":
            return 1 << seat
        return (1 << self.schlag_seat) | (1 << self.trump_seat)
