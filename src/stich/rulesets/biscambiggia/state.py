"""A match of Biscambiggia chiamata: deal, auction, call, eight tricks, marche (rules B2, BB-x).

Seats are absolute, 0..4, and **increasing index is playing order** (BB-1.6: seat k+1 sits at
seat k's right, and everything goes counter-clockwise, i.e. to the right).  In a hand dealt by
``d`` the rules' relative seats are A = d+1, B = d+2, C = d+3, D = d+4, E = d (mod 5).

Information model (BB-4.5, BB-4.6, B4-9): hands are private (``deal`` events go to their owner
only); the contract, the caller and the called card are public (``contract``, ``call``); the
holder of the called card learns nothing new (he sees the card in his own hand) but gets a
private ``partner`` event naming his role; the partnership becomes public only through the
public ``partner_revealed`` event that directly follows the play of the called card.
"""

from __future__ import annotations

from stich.engine import TERMINAL, SetupError, State
from stich.engine.setup import mask, parse_cards, parse_hands
from stich.rulesets.biscambiggia.phases import AUCTION, CALL, DEALING, OVER, PLAY  # noqa: F401  (re-exported)
from stich.rulesets.biscambiggia.playout import SearchMixin
from stich.rulesets.biscambiggia.position import position_of, start_position
from stich.rulesets.biscambiggia.rules import (
    CARDS_EACH,
    DECK,
    NUM_PLAYERS,
    TOTAL_POINTS,
    TRICKS,
    deal_positions,
    marche,
)

FULL = (1 << NUM_PLAYERS) - 1


class BiscambiggiaState(SearchMixin, State):
    """One match: a fixed number of hands (BB-1.3), each dealt, bid, called, played and scored."""

    # The fields _start sets are slots: in the instance dict they would pass CPython's 30 shared
    # keys and every attribute access would get slower (see State).
    __slots__ = (
        "scores", "dealer", "deal_number", "target_hands", "last_result", "winners", "hands", "phase",
        "high", "high_bidder", "passed", "auction_moves", "caller", "contract", "called", "trump", "holder",
        "revealed", "taken", "tricks_played", "trick_count", "led", "best_key", "best_seat", "strength",
        "trick_points", "leader",
    )

    # ------------------------------------------------------------------ set-up and dealing
    def _start(self, hands=None, stock=None, dealer=None, scores=None, pack=None, cut=None, position=None,
               **extra) -> None:
        self._open_match(hands, stock, dealer, scores, pack, cut, position, extra)

    def _open_match(self, hands=None, stock=None, dealer=None, scores=None, pack=None, cut=None, position=None,
                    extra=None, hand=1, deal=1) -> None:
        """The set-up of ``_start``; a position (position.py) opens its ``hand``-th hand, the
        ``deal``-th deal of the match (thrown-in deals included), through here too."""
        if position is not None:   # a hand in play (position.py); it holds hands, dealer and scores itself
            if any(v is not None for v in (hands, stock, dealer, scores, pack, cut)) or extra:
                raise SetupError("a position holds its own hands, dealer and scores: give position alone")
            start_position(self, position)
            return
        if extra:
            raise SetupError(f"biscambiggia has no set-up field(s) {', '.join(sorted(extra))}; "
                             "it takes hands, dealer, scores, pack and cut, or a position")
        if stock:
            raise SetupError("biscambiggia has no stock: all 40 cards are dealt (BB-2.4)")
        if scores is None:
            scores = [0] * NUM_PLAYERS
        if (not isinstance(scores, (list, tuple)) or len(scores) != NUM_PLAYERS
                or any(isinstance(x, bool) or not isinstance(x, int) for x in scores)):
            raise SetupError(f"scores must be {NUM_PLAYERS} whole numbers of marche, one per seat, not {scores!r}")
        if sum(scores) != 0:
            raise SetupError(f"marche are zero-sum (BB-1.4): the scores {list(scores)} sum to {sum(scores)}")
        self.scores = list(scores)
        dealt = self._check_hands(hands) if hands is not None else None
        if pack is not None or cut is not None:
            if dealt is not None:
                raise SetupError("give either hands or a pack (and cut), not both")
            dealt = ("pack", self._check_pack(pack), cut)   # dealt once the dealer is known
        if dealer is None:
            dealer = self.hand_rng("first-dealer").randrange(NUM_PLAYERS)   # BB-2.1: chosen at random
        self.dealer = dealer
        if isinstance(dealt, tuple):                # a given pack, cut at a given place
            dealt = self._cut_hands(dealt[1], dealt[2])
        self.deal_number = deal - 1                 # every deal, thrown-in ones included
        o = self.game.options
        self.target_hands = o.hands_per_match
        while hand > self.target_hands and o.tie_break == "extra_rounds":
            self.target_hands += NUM_PLAYERS        # B4-13: the rounds of 5 hands added so far
        self.last_result = None
        self.winners = None
        self.hand_number = hand
        self.emit("scores", None, scores=list(self.scores))
        self._deal(dealt)

    def position(self) -> dict:
        return position_of(self)

    def _check_pack(self, pack) -> list[int]:
        cards = parse_cards(DECK, pack, "pack") if pack is not None else None
        if cards is None:
            raise SetupError("a cut position needs the pack it cuts: give pack= (40 cards, top first)")
        if sorted(cards) != list(range(len(DECK))):
            raise SetupError(f"pack must hold each of the {len(DECK)} cards exactly once (top first)")
        return cards

    def _cut_hands(self, pack: list[int], cut) -> list[int]:
        """BB-2.2/2.3: the player at the dealer's left lifts ``cut`` cards (1..39, default none),
        the lifted packet goes under the rest, then the deal by positions (PR-C3)."""
        if cut is None:
            cut = 0
        if isinstance(cut, bool) or not isinstance(cut, int) or not 0 <= cut < len(DECK):
            raise SetupError(f"cut must be the number of cards lifted, 0..{len(DECK) - 1}, not {cut!r}")
        cards = pack[cut:] + pack[:cut]
        given = [0] * NUM_PLAYERS
        for rel in range(NUM_PLAYERS):
            seat = (self.dealer + 1 + rel) % NUM_PLAYERS
            for pos in deal_positions(rel):
                given[seat] |= 1 << cards[pos]
        return given

    def _check_hands(self, hands) -> list[int]:
        return [mask(h) for h in parse_hands(DECK, hands, NUM_PLAYERS, CARDS_EACH)]   # BB-2.3

    def _deal(self, given=None) -> None:
        """BB-2.2/2.3: shuffle, cut and deal 4 + 4 cards each, from the dealer's right, dealer last."""
        self.deal_number += 1
        d = self.dealer
        if given is None:
            # The cut (BB-2.2) is part of the random shuffle: see PR-C2 in docs/biscambiggia.md.
            cards = self.shuffled(len(DECK), "deal", self.deal_number)
            given = [0] * NUM_PLAYERS
            for rel in range(NUM_PLAYERS):
                seat = (d + 1 + rel) % NUM_PLAYERS
                for pos in deal_positions(rel):
                    given[seat] |= 1 << cards[pos]
        self.hands = list(given)
        # Per-hand state.
        self.phase = AUCTION
        self.high = 0                  # highest bid so far, 0 = none (BB-3.7 `high`)
        self.high_bidder = -1
        self.passed = 0                # seats that have passed (bitmask; no re-entry, B4-5)
        self.auction_moves = 0
        self.caller = -1
        self.contract = 0
        self.called = -1
        self.trump = -1
        self.holder = -1
        self.revealed = False
        self.taken = [0] * NUM_PLAYERS    # card points in each seat's pile (BB-5.5)
        self.tricks_played = 0
        self.trick_count = 0              # cards in the current trick
        self.led = -1
        self.best_key = -1
        self.best_seat = -1
        self.strength = ()                # BB-5.4 strengths for the current trump and suit led
        self.trick_points = 0
        self.leader = (d + 1) % NUM_PLAYERS
        # BB-3.1: the auction begins with A, the player at the dealer's right.
        self.current_player = (d + 1) % NUM_PLAYERS
        if not self.lean:   # a lean state keeps no narration: its payloads are not even built
            self.emit("hand_start", None, hand=self.hand_number, deal=self.deal_number, dealer=d)
            for rel in range(NUM_PLAYERS):
                seat = (d + 1 + rel) % NUM_PLAYERS
                self.emit("deal", 1 << seat, seat=seat, cards=DECK.codes_of(self.hands[seat]))
            self.emit("auction_start", None, first=self.current_player, min_bid=self.game.options.min_opening_bid)

    def _copy_into(self, other) -> None:
        other.hands = self.hands.copy()
        other.scores = self.scores.copy()
        other.taken = self.taken.copy()

    # ------------------------------------------------------------------ legal actions
    def _legal_actions(self):
        phase = self.phase
        g = self.game
        if phase == PLAY:
            hand = self.hands[self.current_player]
            if self.trick_count and g.options.follow_suit:
                same = hand & g.suit_masks[self.led]     # B4-1 option: follow suit when able
                if same:
                    hand = same
            # BB-5.3: any card.  The play lists' four suit tables are complete (eager), so the
            # lookups are inlined: a call per decision costs about 1% of random play.
            t0, t1, t2, t3 = g.play_lists.tables
            return [*t0[hand & 1023], *t1[hand >> 10 & 1023], *t2[hand >> 20 & 1023], *t3[hand >> 30]]
        if phase == AUCTION:
            if self.auction_moves == 0 and g.options.opening_bid_compulsory:
                return g.opening_menu                           # BB-3.4 / B4-6: A must open
            lo = self.high + 1 if self.high else g.options.min_opening_bid
            return g.auction_menus[min(lo, g.options.max_bid + 1)]
        if phase == CALL:
            if g.options.allow_call_own_card:                   # BB-4.1 / B4-8: any of the 40
                return list(g.a_call)
            own = self.hands[self.caller]
            return [a for a in g.a_call if not own >> a.value & 1]   # B4-7 option
        return []

    def _why_illegal(self, action) -> str | None:
        o = self.game.options
        verb = action.verb
        if verb in ("bid", "pass") and self.phase != AUCTION:
            return "the auction is over"
        if verb == "call" and self.phase != CALL:
            return "only the winner of the auction calls a card, right after the auction (BB-4.1)"
        if verb == "play" and self.phase != PLAY:
            return "cards are played only after the auction and the call"
        if verb == "pass":
            return (f"the player at the dealer's right must open the auction with a bid of "
                    f"{o.min_opening_bid} to {o.max_bid} (BB-3.4, B4-6)")
        if verb == "bid":
            n = action.value
            if n > o.max_bid:
                return f"the highest possible bid is {o.max_bid} (BB-3.3)"
            if self.high and n <= self.high:
                return f"a bid must be higher than {self.high} (BB-3.3)"
            if n < o.min_opening_bid:
                return f"the first bid must be at least {o.min_opening_bid} (BB-3.3)"
        if verb == "call":
            return (f"you hold {action.arg}; with allow_call_own_card off the caller must call "
                    "a card he does not hold (B4-7)")
        if verb == "play":
            c = action.value
            if not self.hands[self.current_player] >> c & 1:
                return f"{action.arg} is not in your hand"
            return f"you must follow suit: you hold {DECK.suit_codes[self.led]} (follow_suit, B4-1)"
        return None

    # ------------------------------------------------------------------ applying actions
    def _apply(self, action) -> None:
        verb = action.verb
        if verb == "play":
            self._play(action.value)
        elif verb == "bid":
            seat = self.current_player
            self.high, self.high_bidder = action.value, seat
            self.auction_moves += 1
            self.emit("bid", None, seat=seat, bid=action.value)
            self._next_bidder(seat)
        elif verb == "pass":
            seat = self.current_player
            self.passed |= 1 << seat
            self.auction_moves += 1
            self.emit("pass", None, seat=seat)
            self._next_bidder(seat)
        else:
            self._call(action.value)

    def _next_bidder(self, seat: int) -> None:
        """BB-3.5/3.6/3.8: skip passed players; end when all but the high bidder have passed."""
        active = FULL & ~self.passed
        if self.high_bidder >= 0 and active == 1 << self.high_bidder:
            self.caller, self.contract = self.high_bidder, self.high          # BB-3.6
            self.phase = CALL
            self.current_player = self.caller
            self.emit("contract", None, caller=self.caller, bid=self.contract)
            return
        if not active:                      # BB-3.8 (opening not compulsory): all five passed
            self._throw_in()
            return
        nxt = (seat + 1) % NUM_PLAYERS
        while self.passed >> nxt & 1:
            nxt = (nxt + 1) % NUM_PLAYERS
        self.current_player = nxt

    def _throw_in(self) -> None:
        """BB-3.8 / B4-6 (b): cards thrown in, no marche, next dealer; the deal does not count."""
        self.emit("throw_in", None, hand=self.hand_number, deal=self.deal_number)
        self.last_result = {"hand": self.hand_number, "thrown_in": True}   # as the views fold it
        self.dealer = self._next_dealer()
        self._defer_deal()

    def _call(self, card: int) -> None:
        """BB-4.1-4.6: the called card's suit is trump; its holder is the secret traitor."""
        self.called = card
        self.trump = card // 10
        holder = 0
        while not self.hands[holder] >> card & 1:
            holder += 1
        self.holder = holder
        self.emit("call", None, seat=self.caller, card=DECK.code(card), trump=DECK.suit_codes[self.trump])
        # BB-4.6: only the holder is told (he sees the card in his own hand anyway).
        self.emit("partner", 1 << holder, seat=holder, caller=self.caller, alone=holder == self.caller)
        self.phase = PLAY
        self.current_player = self.leader      # BB-5.1: A leads the first trick, whoever the caller is

    def _play(self, card: int) -> None:
        """BB-5.2-5.5: play a card; after five cards the highest trump, else highest of suit led, wins."""
        g = self.game
        seat = self.current_player
        self.hands[seat] ^= 1 << card
        if self.trick_count == 0:
            self.led = card // 10
            self.strength = g.strengths[self.trump][self.led]
        # BB-5.4: trump 20 + rank value, suit led rank value, others 0; strictly greater wins.
        key = self.strength[card]
        if key > self.best_key:
            self.best_key, self.best_seat = key, seat
        self.trick_points += g.points[card]
        self.trick_count += 1
        lean = self.lean   # a lean state keeps no narration: its payloads are not even built
        if not lean:
            self.emit("play", None, seat=seat, card=DECK.code(card))
        if card == self.called:
            # BB-4.6: from the moment the called card is played, the teams are public.
            self.revealed = True
            alone = seat == self.caller
            self.emit("partner_revealed", None, seat=None if alone else seat, caller=self.caller, alone=alone)
        if self.trick_count < NUM_PLAYERS:
            self.current_player = (seat + 1) % NUM_PLAYERS
            return
        winner = self.best_seat                                  # BB-5.5: winner's own pile
        self.taken[winner] += self.trick_points
        if not lean:
            self.emit("trick", None, winner=winner, points=self.trick_points)
        self.tricks_played += 1
        self.trick_count, self.best_key, self.best_seat = 0, -1, -1
        self.trick_points = 0
        if self.tricks_played < TRICKS:
            self.leader = self.current_player = winner             # the winner leads next
        else:
            self._score_hand()

    # ------------------------------------------------------------------ scoring
    def _score_hand(self) -> None:
        """BB-6.1-6.3: the caller's team succeeds with >= the bid; marche 2/1/-1 or 4/-1."""
        alone = self.holder == self.caller
        traitor = None if alone else self.holder
        team = self.taken[self.caller] + (0 if alone else self.taken[self.holder])
        success = team >= self.contract                            # B4-11: equal is enough
        cappotto = self.game.options.cappotto_double and team in (0, TOTAL_POINTS)
        delta = marche(self.caller, traitor, success, cappotto)
        for s in range(NUM_PLAYERS):
            self.scores[s] += delta[s]
        self.last_result = {
            "hand": self.hand_number, "dealer": self.dealer, "caller": self.caller, "traitor": traitor,
            "alone": alone, "contract": self.contract, "called_card": DECK.code(self.called),
            "trump": DECK.suit_codes[self.trump], "team_points": team, "opponents_points": TOTAL_POINTS - team,
            "success": success, "cappotto": cappotto, "marche": delta, "points_taken": list(self.taken),
        }
        self.emit("hand_result", None, **self.last_result)
        self.emit("scores", None, scores=list(self.scores))
        self.phase = OVER
        o = self.game.options
        if self.hand_number >= self.target_hands:
            top = max(self.scores)
            if o.tie_break == "extra_rounds" and self.scores.count(top) > 1:
                self.target_hands += NUM_PLAYERS          # B4-13: one more complete round of 5 hands
                self.emit("match_extended", None, hands_per_match=self.target_hands,
                          tied=[s for s in range(NUM_PLAYERS) if self.scores[s] == top])
            else:
                self.winners = [s for s in range(NUM_PLAYERS) if self.scores[s] == top]
                self.current_player = TERMINAL
                self.emit("match_end", None, scores=list(self.scores), winners=self.winners)
                return
        self.hand_number += 1
        self.dealer = self._next_dealer()
        self._defer_deal()

    def _next_dealer(self) -> int | None:
        """BB-2.1, BB-6.4: the deal passes to the next seat after every hand, a thrown-in one too
        (None: the match is over)."""
        return None if self.winners is not None else (self.dealer + 1) % NUM_PLAYERS

    def _defer_deal(self) -> None:
        """The next deal waits until the state is observed (State._defer): a rollout that stops at
        the end of this hand never shuffles the next.  The hands are None until then, so that code
        reading them past the protocol fails loudly."""
        self.current_player = (self.dealer + 1) % NUM_PLAYERS   # BB-3.1: A opens the auction
        self.phase = DEALING
        self.hands = None
        self._defer()

    def _deferred_deal(self) -> None:
        self._deal()

    # ------------------------------------------------------------------ protocol
    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    def returns(self) -> list[float]:
        """The final marche per seat (zero-sum, BB-1.4); 0s until the match is over (PR-C9)."""
        if self.current_player != TERMINAL:
            return [0.0] * NUM_PLAYERS
        return [float(x) for x in self.scores]

    def _hand_summary(self) -> dict:
        """The current hand, public information only (the traitor only once revealed)."""
        out = {
            "hand": self.hand_number, "deal": self.deal_number, "dealer": self.dealer,
            "next_dealer": self._next_dealer(), "phase": self.phase,
            "high_bid": self.high or None, "high_bidder": self.high_bidder if self.high_bidder >= 0 else None,
            "scores": list(self.scores), "hands_per_match": self.target_hands,
        }
        if self.caller >= 0:
            out.update(caller=self.caller, contract=self.contract)
        if self.called >= 0:
            out.update(called_card=DECK.code(self.called), trump=DECK.suit_codes[self.trump],
                       traitor_public=self._traitor_public(), tricks_played=self.tricks_played,
                       points_taken=list(self.taken))
        if self.last_result is not None:
            out["last_result"] = {k: list(v) if isinstance(v, list) else v for k, v in self.last_result.items()}
        if self.winners is not None:
            out["winners"] = list(self.winners)
        return out

    def _traitor_public(self):
        """BB-4.6 `traitor_public`: "unknown" until the called card is played, then a seat or None."""
        if not self.revealed:
            return "unknown"
        return None if self.holder == self.caller else self.holder

    # ------------------------------------------------------------------ views
    def view(self, seat) -> dict:
        """The generic view plus the points each pile holds (derived from the public tricks,
        BB-5.7) and, with ``piles_inspectable``, the piles themselves (B4-10)."""
        v = super().view(seat)
        points, code_points = [0] * NUM_PLAYERS, self.game.code_points
        piles = [[] for _ in range(NUM_PLAYERS)]
        for trick in v["tricks"]:
            w = trick["winner"]
            for played in trick["cards"]:
                points[w] += code_points[played["card"]]
                piles[w].append(played["card"])
        v["points_taken"] = points
        if self.game.options.piles_inspectable:
            v["piles"] = piles
        return v

    def _fold_event(self, view: dict, ev: dict, seat) -> bool:
        t = ev["type"]
        if t == "auction_start":
            view.update(phase=AUCTION, auction=[], high_bid=None, high_bidder=None, contract=None,
                        called_card=None, trump=None, traitor_public=None, role=None, teams=None)
            view.pop("partner", None)
            view.pop("alone", None)
        elif t == "bid":
            view["auction"].append({"seat": ev["seat"], "bid": ev["bid"]})
            view.update(high_bid=ev["bid"], high_bidder=ev["seat"])
        elif t == "pass":
            view["auction"].append({"seat": ev["seat"], "pass": True})
        elif t == "contract":
            view.update(phase=CALL, contract={"caller": ev["caller"], "bid": ev["bid"]})
            if seat == ev["caller"]:
                view["role"] = "caller"
        elif t == "call":
            view.update(phase=PLAY, called_card=ev["card"], trump=ev["trump"], traitor_public="unknown")
            if seat is not None and seat != ev["seat"]:
                view["role"] = "opponent"       # until a private `partner` event says "traitor"
        elif t == "partner":               # private: only the holder of the called card sees it
            if ev["alone"]:
                view.update(role="caller_alone", alone=True)
            else:
                view.update(role="traitor", partner=ev["caller"])
        elif t == "partner_revealed":
            caller = ev["caller"]
            side = [caller] if ev["alone"] else sorted((caller, ev["seat"]))
            view.update(traitor_public=ev["seat"],
                        teams={"caller_side": side, "opponents": [s for s in range(NUM_PLAYERS) if s not in side]})
            if ev["alone"]:
                if seat == caller:
                    view["alone"] = True
            elif seat in side:
                view["partner"] = ev["seat"] if seat == caller else caller
        elif t == "hand_result":
            view["last_result"] = {k: v for k, v in ev.items() if k != "type"}
            view["phase"] = OVER
        elif t == "throw_in":
            view["last_result"] = {"hand": ev["hand"], "thrown_in": True}
        elif t == "match_end":
            view.update(winners=ev["winners"], phase=OVER)
        else:
            return False
        return True
