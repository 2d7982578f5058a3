"""A Watten hand from the shuffle to the end of the Ansage (rules file §2.1, §2.4, §2.5, §2.10).

Phases of a hand: CUT -> (deal, peeks, Maschine) -> ANSAGE -> [DECIDE] -> PLAY <-> RESPOND -> scored.
Requests (Schönere, Schlagtausch) interrupt the Ansage (and, in Euregio, the time before the
first card): the other Ansager answers, then the requester is on turn again.
"""

from __future__ import annotations

from stich.cards import iter_bits
from stich.engine import SetupError
from stich.engine.setup import mask, parse_cards, parse_hands, parse_stock
from stich.rulesets.watten.ranking import RANK_CODES, SUIT_CODES, WELI_RANK

CUT, ANSAGE, DECIDE, PLAY, RESPOND, REQUEST, OVER = range(7)


class DealMixin:
    """Cut, deal, peeks, viewing rights (R30) and the Ansage of every variant."""

    # --- seats ----------------------------------------------------------------------------------
    def _nxt(self, seat: int) -> int:
        return (seat + self.game.step) % self.game.num_players

    def _prv(self, seat: int) -> int:
        return (seat - self.game.step) % self.game.num_players

    def _codes(self, mask: int) -> list[str]:
        return self.game.codes_of(mask)

    # --- set-up -----------------------------------------------------------------------------------
    def _start(self, hands=None, stock=None, dealer=None, scores=None, pack=None, position=None, **unknown):
        """Explicit set-up: ``hands`` (+ ``stock``) fix the first deal (no cut); or ``pack`` (a
        whole pack, top first) fixes the shuffled pack of the first hand, which is then cut; or
        ``position`` sets up a hand in play (``rulesets/watten/position.py``)."""
        g = self.game
        n = g.num_players
        if unknown:
            raise SetupError(f"watten has no set-up field {', '.join(map(repr, unknown))}; "
                             "fields are hands, stock, dealer, scores, pack, position")
        if position is not None:
            if hands is not None or stock is not None or dealer is not None or scores is not None or pack is not None:
                raise SetupError("a position holds its own hands, dealer and scores: give position alone")
            self._start_position(position)
            return
        self.scores = self._check_scores(scores)
        if scores is not None:   # a match taken up in progress: its scores are public from the start
            self.emit("scores", None, scores=list(self.scores))
        self.dealer = n - 1 if dealer is None else dealer   # §0.3: dealer = seat 4 = index 3
        self.hand_number = 1
        self.redeal = 0
        self._given_pack = None
        if hands is None:
            if stock is not None:
                raise SetupError("a stock needs hands: give hands= as well")
            if pack is not None:
                self._given_pack = self._check_pack(pack)
            self._begin_hand()
            return
        if pack is not None:
            raise SetupError("give either hands (and stock) or a pack, not both")
        self._check_hands(hands, stock)
        self._begin_hand(explicit=True)

    def _check_scores(self, scores):
        g = self.game
        width = 2 if g.num_players == 4 else g.num_players
        if scores is None:
            return [0] * width
        if not isinstance(scores, (list, tuple)) or len(scores) != width:
            who = "per side (A = seats 1,3; B = seats 2,4)" if width == 2 and g.num_players == 4 else "per seat"
            raise SetupError(f"scores must be a list of {width} numbers, {who}; got {scores!r}")
        for s in scores:
            if isinstance(s, bool) or not isinstance(s, int) or s < 0:
                raise SetupError(f"scores must be whole numbers >= 0, got {scores!r}")
            if s >= g.target:
                raise SetupError(f"score {s} already reaches the target {g.target}: the match would be over")
        return list(scores)

    def _check_pack(self, pack) -> list[int]:
        d = self.game.deck
        out = parse_cards(d, pack, "pack")
        if sorted(out) != list(range(len(d))):
            raise SetupError(f"pack must hold each of the {len(d)} cards of the {d.name} deck exactly once")
        return out

    def _check_hands(self, hands, stock):
        g = self.game
        cards = parse_hands(g.deck, hands, g.num_players, 5)
        if stock is None:
            dealt = 0
            for h in cards:
                dealt |= mask(h)
            st = list(iter_bits(g.deck.full_mask & ~dealt))   # the undealt cards in deck order
        else:
            st = parse_stock(g.deck, stock, cards)
        self._given = (cards, st)

    # --- a new hand -------------------------------------------------------------------------------
    def _begin_hand(self, explicit: bool = False) -> None:
        g = self.game
        n = g.num_players
        self.forehand = self._nxt(self.dealer)
        self.cutter = self._prv(self.dealer)   # R1, R19: the player before the dealer cuts
        # Sides of this hand: 4 players by seat parity; 2 players each alone; 3 players the
        # forehand (solo, side 0) against the other two (duo, side 1) (§0.5, B3).
        if n == 4:
            self.side = [0, 1, 0, 1]
        elif n == 2:
            self.side = [0, 1]
        else:
            self.side = [0 if s == self.forehand else 1 for s in range(3)]
        self.hands = [0] * n
        self.public = [0] * n          # cards whose owner is public (Bavarian Kritische at the cut)
        self.looked = 0                 # seats that have seen their own hand (R30)
        self.stock = []
        self.exchanges = 0
        self.exchange_closed = False
        self.schlag_seat = self.forehand
        self.trump_seat = self.dealer
        if n == 3 and g.options.three_player_trump_chooser == "forehand":
            self.trump_seat = self.forehand   # B3: forehand names both
        self.request = None
        self.resume = None
        self._reset_ansage()
        self.trick = []
        self.trick_seats = []
        self.trick_no = 1
        self.tricks = [0, 0]
        self.stake = 2
        self.last_raiser_side = -1
        self.raiser = -1
        self.turn = -1
        self.raised = False
        self.raised_before_t5 = False
        self.last_trick_free = False   # R14: the stake was above 2 when trick 5 was led
        self.accepted_at = None        # (seat, trick, cards in it) of the last accept: window (b) of R9
        self.fixed = False
        self.decision = None           # (seat, when, kind) while a hold/concede decision is open
        self.decided = False
        self.trailing_side = -1
        self.rk = None
        self.face_up = None            # Blind Watten: the first trick, face up (R21)
        self.emit("hand_start", None, hand=self.hand_number, dealer=self.dealer)
        self.emit("watten_hand", None, forehand=self.forehand, cutter=self.cutter, stake=2,
                  schlag_seat=self.schlag_seat, trump_seat=self.trump_seat)
        self.pack = None
        if explicit:
            masks, st = self._given
            del self._given
            self.hands = [sum(1 << c for c in h) for h in masks]
            self.dealt = dict(enumerate(masks))   # seat -> the cards in dealt order
            self.stock = list(st)
            self._after_deal()
            return
        # The pack is shuffled when it is cut (``_apply_cut``); a given pack stands in for the first.
        self.pack = getattr(self, "_given_pack", None)
        self._given_pack = None
        self.phase = CUT
        self.current_player = self.cutter

    def _reset_ansage(self) -> None:
        self.schlag = None
        self.trump = None
        self.shown_schlag = None        # card shown/committed by the Schlag chooser (blind)
        self.shown_trump = None
        self.swap_asked = False
        self.swapped = False

    # --- cut and deal (§2.1, B1.2, E.2, E.3) ----------------------------------------------------
    def _apply_cut(self, k: int) -> None:
        g = self.game
        self.emit("cut", None, seat=self.cutter, k=k)
        pack = self.pack
        if pack is None:
            pack = self.shuffled(len(g.deck), self.hand_number, self.redeal)
        self.pack = None
        top, bottom = pack[:k], pack[k:]
        got = [0] * g.num_players
        if g.bavarian:
            # B1.2: the bottom cards of the lifted packet are shown to all; Kritische go to
            # cutter, dealer, cutter; the first other card stops and becomes the bottom card.
            recipients = (self.cutter, self.dealer, self.cutter)
            i = 0
            while True:
                c = top[-1]
                self.emit("cut_card", None, card=g.deck.code(c))
                if (g.kritische_mask >> c & 1) and i < 3:
                    top.pop()
                    r = recipients[i]
                    self.hands[r] |= 1 << c
                    self.public[r] |= 1 << c
                    got[r] += 1
                    self.emit("deal", None, seat=r, cards=[g.deck.code(c)])
                    i += 1
                    continue
                break
        elif g.euregio:
            # E.2: the cutter privately sees the card that ends at the bottom of the pack.
            self.emit("cut_peek", 1 << self.cutter, seat=self.cutter, card=g.deck.code(top[-1]))
        self._deal(bottom + top, got)

    def _deal(self, pack: list[int], got: list[int]) -> None:
        """3+2 (or 2+3) from the top, forehand first; Kritische already received reduce round 1."""
        g = self.game
        key = (self.forehand, tuple(got))
        order = g.deal_orders.get(key)
        if order is None:
            order = g.deal_orders[key] = self._deal_order(got)
        hands = self.hands
        for seat, c in zip(order, pack, strict=False):
            hands[seat] |= 1 << c
        self.dealt = (order, pack)   # the places of the cards, for an Euregio exchange (PR-W6)
        self.stock = pack[len(order):]
        self._after_deal()

    def _dealt_list(self, seat: int) -> list[int]:
        """The cards of ``seat`` in the order they were dealt to him (``dealt``: the deal's
        ``(order, pack)``, or per seat the cards of an explicit deal or an exchange)."""
        if isinstance(self.dealt, tuple):
            order, pack = self.dealt
            return [c for p, c in zip(order, pack, strict=False) if p == seat]
        return list(self.dealt[seat])

    def _deal_order(self, got: list[int]) -> list[int]:
        """The receiving seat of each card from the top of the pack (cached per forehand)."""
        p1 = self.game.packets[0]
        order = []
        for rnd in (0, 1):
            seat = self.forehand
            for _ in range(self.game.num_players):
                first = max(0, p1 - got[seat])
                order += [seat] * (first if rnd == 0 else 5 - got[seat] - first)
                seat = self._nxt(seat)
        return order

    def _after_deal(self) -> None:
        g = self.game
        # R30: dealer and forehand look at once (both players with 2 players).
        for s in (self.forehand, self.dealer):
            self._look(s)
        if g.euregio:
            self._stock_peek()
        if g.bavarian and g.options.maschine == "on":
            for s in range(g.num_players):
                if self.hands[s] & g.kritische_mask == g.kritische_mask:
                    # B1.7, R20: the hand ends, the holder's side scores 2.
                    self.emit("maschine", None, seat=s, cards=self._codes(g.kritische_mask))
                    self._end_hand(self.side[s], 2, "maschine")
                    return
        self.phase = ANSAGE
        self.current_player = self._first_announcer()

    def _look(self, seat: int) -> None:
        if not self.looked >> seat & 1:
            self.looked |= 1 << seat
            if not self.lean:
                self.emit("deal", 1 << seat, seat=seat, cards=self._codes(self.hands[seat] & ~self.public[seat]))

    def _stock_peek(self) -> None:
        # E.3: the dealer may look at the first and the last card of the stock (private).
        if self.stock and not self.lean:
            d = self.game.deck
            self.emit("stock_peek", 1 << self.dealer, seat=self.dealer,
                      top=d.code(self.stock[0]), bottom=d.code(self.stock[-1]))

    # --- Ansage (§2.5, §0.5) --------------------------------------------------------------------
    def _first_announcer(self) -> int:
        g = self.game
        if g.blind and g.ansage_order == "trump_first":
            return self.trump_seat
        return self.schlag_seat

    def _ansage_actions(self, seat: int) -> list:
        g = self.game
        acts = []
        if g.blind:
            if self._may_ask_exchange(seat):
                acts.append(g.a_ask_exchange)
            if self._may_ask_swap():
                acts.append(g.a_ask_swap)
            return acts + g.show_lists(self.hands[seat]) if acts else g.show_lists(self.hands[seat])
        if self.schlag is None:
            if self._may_ask_exchange(seat):
                acts.append(g.a_ask_exchange)
            ranks = g.schlag_ranks
            if g.must_hold:   # R23 option: the chooser must hold the rank
                held = {g.rank_of[c] for c in iter_bits(self.hands[seat])}
                ranks = [r for r in ranks if r in held]
            acts.extend(g.a_schlag[r] for r in ranks)
            return acts
        suits = range(4)
        if g.must_hold:
            held = {g.suit_of[c] for c in iter_bits(self.hands[seat])}
            suits = [s for s in suits if s in held]
        acts.extend(g.a_trump[s] for s in suits)
        return acts

    def _may_ask_swap(self) -> bool:
        """E.6, R33: either Ansager, once per Ansage, before either card is shown (committed)."""
        return (self.game.euregio and self.game.options.schlagtausch == "on" and not self.swap_asked
                and self.request is None and self.shown_schlag is None and self.shown_trump is None)

    def _has_shown(self, seat: int) -> bool:
        return (self.shown_schlag if seat == self.schlag_seat else self.shown_trump) is not None

    def _may_ask_exchange(self, seat: int) -> bool:
        g = self.game
        if self.exchange_closed or self.request is not None:
            return False
        if g.exchange_rule == "forehand_once":
            # T1.5, R8: forehand, before his Schlag, at most one exchange per deal.
            return seat == self.forehand and self.exchanges == 0 and self.schlag is None \
                and self.shown_schlag is None
        if g.exchange_rule == "euregio":
            # E.5: either Ansager, until the first card / a raise / the 4-point decision.
            return seat in (self.forehand, self.dealer) and not self.trick and self.trick_no == 1
        return False

    def _apply_schlag(self, seat: int, rank: int) -> None:
        self.schlag = rank
        self.emit("schlag", None, seat=seat, rank=RANK_CODES[rank])
        self.current_player = self.trump_seat

    def _apply_trump(self, seat: int, suit: int) -> None:
        self.trump = suit
        self.emit("trump", None, seat=seat, suit=SUIT_CODES[suit])
        self._finish_ansage()

    def _apply_show(self, seat: int, card: int) -> None:
        """Blind Ansage (T3, E.4): the shown card's rank is the Schlag (W -> 6) for the Schlag
        chooser, its suit the trump (W -> Schellen) for the trump chooser."""
        g = self.game
        code = g.deck.code(card)
        ansager = (1 << self.schlag_seat) | (1 << self.trump_seat)
        is_schlag = seat == self.schlag_seat and self.shown_schlag is None
        if is_schlag:
            self.shown_schlag = card
        else:
            self.shown_trump = card
        role = "schlag" if is_schlag else "trump"
        other = self.trump_seat if is_schlag else self.schlag_seat
        if g.ansage_order == "simultaneous":
            self.emit("show", 1 << seat, seat=seat, card=code, role=role)
            self.emit("committed", None, seat=seat)
        else:
            self.emit("show", ansager, seat=seat, card=code, role=role)
        if self.shown_schlag is not None and self.shown_trump is not None:
            self.schlag = g.rank_of[self.shown_schlag]
            self.trump = g.suit_of[self.shown_trump]   # the Weli has suit Schellen
            d = g.deck
            self.emit("reveal", ansager, schlag=RANK_CODES[self.schlag], trump=SUIT_CODES[self.trump],
                      schlag_card=d.code(self.shown_schlag), trump_card=d.code(self.shown_trump))
            self._finish_ansage()
        else:
            self.current_player = other

    def _finish_ansage(self) -> None:
        g = self.game
        self.rk = g.ranking(self.schlag, self.trump)
        self.emit("ansage_done", None)
        # R30: the other players pick up their cards now.
        for s in range(g.num_players):
            self._look(s)
        # R24: Tyrolean Schlag 6 - partners see each other's hands.
        if g.row.weli_mode == "always_lowest_trump" and self.schlag == WELI_RANK:
            for s in range(4):
                p = (s + 2) % 4
                self.emit("deal", 1 << s, seat=p, cards=self._codes(self.hands[p]), replace=True,
                          partner_view=True)
        self.turn = self.forehand
        if g.euregio and g.options.lead_follows_schlag_role == "true" and self.swapped:
            self.turn = self.schlag_seat   # R7 option
        self.phase = PLAY
        self._setup_fixed_value()
        self.current_player = self.turn
        # E.11/T1.9: a decision due before the lead, or before the decider's own first card
        # when he is the one to lead, is taken now.
        if self.decision is not None and (self.decision[1] == "lead" or self.decision[0] == self.turn):
            self.phase = DECIDE
            self.current_player = self.decision[0]

    # --- requests: Schönere and Schlagtausch (§2.10, T1.5, E.5, E.6) ------------------------------
    def _apply_request(self, seat: int, kind: str) -> None:
        other = self.dealer if seat == self.forehand else self.forehand
        self.request = kind
        self.resume = (self.phase, self.current_player)   # the asker may be out of turn (§0.5)
        self.phase = REQUEST
        self.emit("request", None, seat=seat, kind=kind)
        self.current_player = other

    def _request_actions(self) -> list:
        g = self.game
        if self.request == "exchange":
            return [g.a_agree_exchange, g.a_refuse_exchange]
        return [g.a_agree_swap, g.a_refuse_swap]

    def _answer_request(self, seat: int, agree: bool) -> None:
        kind = self.request
        phase, on_turn = self.resume
        self.request = None
        self.resume = None
        self.emit("answer", None, seat=seat, kind=kind, agree=agree)
        self.phase = phase
        self.current_player = on_turn
        if kind == "swap":
            self.swap_asked = True
            if agree:
                # E.6: the dealer now names the Schlag, forehand the suit (nothing is shown yet, R33).
                self.schlag_seat, self.trump_seat = self.trump_seat, self.schlag_seat
                self.swapped = True
                self.emit("watten_roles", None, schlag_seat=self.schlag_seat, trump_seat=self.trump_seat)
                self.current_player = self._first_announcer()
            return
        if not agree:
            self.exchange_closed = True   # R8: a refusal closes the exchange for this deal
            return
        self._exchange()

    def _exchange(self) -> None:
        g = self.game
        fh, dl = self.forehand, self.dealer
        if g.euregio and self.exchanges >= 2:
            # E.5: a third agreed request throws all hands in; the same dealer deals anew.
            self.emit("redeal", None, dealer=self.dealer)
            self.redeal += 1
            self._begin_hand()
            return
        self.exchanges += 1
        if g.euregio:
            # R8: discards are shuffled into the stock; the Ansage (and a swap) are void.  The
            # discards join in the order they were dealt, so the shuffle depends on places only.
            stock = self.stock + self._dealt_list(fh) + self._dealt_list(dl)
            order = self.shuffled(len(stock), self.hand_number, self.redeal, "exchange", self.exchanges)
            stock = [stock[i] for i in order]
        else:
            stock = self.stock   # R8: Tyrolean family, new cards from the top, no reshuffle
            self.exchange_closed = True
        self.hands[fh] = sum(1 << c for c in stock[:5])
        self.hands[dl] = sum(1 << c for c in stock[5:10])
        self.dealt = {fh: stock[:5], dl: stock[5:10]}   # only these two ever exchange
        self.stock = stock[10:]
        self.emit("exchange", None, seats=[fh, dl], count=self.exchanges)
        for s in (fh, dl):
            self.emit("deal", 1 << s, seat=s, cards=self._codes(self.hands[s]), replace=True)
        # An exchange voids whatever was shown or swapped (E.5, R8); the Ansage starts again.
        self.schlag_seat, self.trump_seat = fh, dl
        self._reset_ansage()
        if g.euregio:
            self._stock_peek()
            self.decision = None
            self.fixed = False
            self.stake = 2
            self.rk = None
            self.emit("watten_hand", None, forehand=fh, cutter=self.cutter, stake=2,
                      schlag_seat=fh, trump_seat=dl)
        self.phase = ANSAGE
        self.current_player = self._first_announcer()
