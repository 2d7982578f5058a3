"""One Barbu match: 28 deals, each DEAL -> DECLARE -> DOUBLING -> PLAY -> SCORE (§1.4).

The state keeps hands as 52-bit masks and plays a trick with a handful of integer operations:
a trick is the mask of its cards, and its winner (§2.1 rule 5) is the seat dealt its top card.
Random play is a hot path (``stich bench``, search bots), hence the precomputed tables, the
shared event payloads, the slots and the legal lists set while applying a card.
"""

from __future__ import annotations

import copy

from stich.cards import MaskLists
from stich.engine import TERMINAL, SetupError, State
from stich.engine.setup import mask, parse_hands
from stich.rulesets.barbu import rules as R
from stich.rulesets.barbu.phases import DEALING, DECLARE, DOMINO, DOUBLING, OVER, PHASE_NAMES, TRICKS  # noqa: F401  (re-exported)
from stich.rulesets.barbu.position import position_of, start_position
from stich.rulesets.barbu.rules import BIT, CODES, SUIT_MASK, SUIT_OF
from stich.rulesets.barbu.views import finish_view, fold_event

SHIFT = (0, 13, 26, 39)
_SETUP_KEYS = ("hands", "dealer", "scores", "first_caller", "hand_number", "used_contracts", "caller_doubles",
               "position")

# The events of a card play and of a trick's end, one per (card, seat) and per winner: their
# payloads are never mutated (views and records copy them), so sharing them spares two
# allocations per card on the hot path.
_PLAY_EVENTS = tuple(tuple((None, {"seat": p, "card": CODES[c], "type": "play"}) for p in range(4))
                     for c in range(52))
_TRICK_EVENTS = tuple((None, {"winner": w, "type": "trick"}) for w in range(4))
_DOMINO_EVENTS = tuple(tuple((None, {"seat": p, "card": CODES[c], "type": "domino_play"}) for p in range(4))
                       for c in range(52))
_PASS_EVENTS = tuple((None, {"seat": p, "type": "domino_pass"}) for p in range(4))
# The codes of the cards of any mask, in deck order (the deal events' lists): ``DECK.codes_of(m)``
# from 13-bit suit chunks, as the play lists.
_codes = MaskLists(CODES, width=13).of


# the playout policy's facts (BarbuState.playout_card)
_P_TRUMPS, _P_BARBU, _P_NO_HEARTS, _P_NO_QUEENS = map(R.CONTRACTS.index,
                                                     ("TRUMPS", "BARBU", "NO_HEARTS", "NO_QUEENS"))
_P_KH, _P_HEARTS, _P_QUEEN = R.DECK.parse("HK"), R.SUITS.index("H"), R.DECK.parse("SQ") % 13


class BarbuState(State):
    """A whole 28-deal Barbu match (a deal is one "hand": ``hand_number`` 1..28)."""

    # Barbu's own fields are slots: in the instance dict they would take it past the 30 keys of a
    # CPython shared-key dict, and every attribute access (the engine's as well) would get slower.
    # clone() copies them (State._copy_slots); _copy_into copies the mutable containers.
    __slots__ = (
        "first_caller", "schedule", "_deals", "scores", "used", "dcount", "last_result",
        # the deal
        "dealt", "hands", "caller", "window_k", "dealer", "contract", "trump", "domino_rank", "phase",
        "doubled_by", "business", "doubling_log", "dturn", "taken", "won", "winners", "out",
        # trick play and domino
        "tn", "led", "led_shift", "tmask", "played", "follow", "plain", "follow_tables", "lead_any",
        "trump_mask", "early", "ends", "opens",
    )

    # --- set-up -----------------------------------------------------------------------------------------
    def _start(self, hands=None, stock=None, dealer=None, scores=None, first_caller=None, hand_number=None,
               used_contracts=None, caller_doubles=None, position=None, **unknown) -> None:
        g = self.game
        if position is not None:   # a deal in play (position.py); it holds the other fields itself
            if any(v is not None for v in (hands, stock, dealer, scores, first_caller, hand_number,
                                           used_contracts, caller_doubles)) or unknown:
                raise SetupError("a position holds its own hands, dealer, scores and deal fields: give position alone")
            start_position(self, position)
            return
        if unknown:
            raise SetupError(f"barbu has no set-up field {', '.join(map(repr, unknown))}; "
                             f"its fields are: {', '.join(_SETUP_KEYS)}")
        if stock is not None:
            raise SetupError("barbu deals the whole pack (13 cards each): there is no stock")
        hn = 1 if hand_number is None else hand_number
        if isinstance(hn, bool) or not isinstance(hn, int) or not 1 <= hn <= R.DEALS:
            raise SetupError(f"hand_number must be a deal number 1..{R.DEALS}, not {hand_number!r}")
        if first_caller is not None and (isinstance(first_caller, bool) or not isinstance(first_caller, int)
                                         or not 0 <= first_caller < 4):
            raise SetupError(f"first_caller must be a seat 0..3, not {first_caller!r}")
        # The first caller F anchors the schedule (R-2: given, else drawn at random from the seed).
        if dealer is not None:
            caller = dealer if g.dealer_is_caller else (dealer + 1) % 4  # dealer on the caller's right
            offset = (hn - 1) if g.every_deal else (hn - 1) // 7
            implied = (caller - offset) % 4
            if first_caller is not None and first_caller != implied:
                raise SetupError(f"dealer {dealer} makes P{caller} the caller of deal {hn}, so the first caller "
                                 f"is P{implied}, not P{first_caller}")
            first_caller = implied
        perm = None
        if hands is None:
            perm = self.shuffled(52, hn)
            if first_caller is None:
                # The order of the cards within a hand is uniform and independent of which cards
                # the hands hold (only those are dealt), so the place of the lowest of the first
                # four cards is a uniform seat, independent of the deal: no second random draw.
                first_caller = perm.index(min(perm[:4]))
        if first_caller is None:
            first_caller = self.shuffled(4, "first_caller")[0]  # explicit hands: a draw of its own
        self.first_caller = first_caller
        self.schedule = R.callers(first_caller, g.every_deal)
        self._deals = R.deal_table(first_caller, g.every_deal, g.dealer_is_caller)  # per deal, see there
        self.scores = _setup_scores(scores)
        self.used = _setup_used(used_contracts, self.schedule, hn)
        if scores is not None:
            _check_score_sum(self.scores, self.used)
        self.dcount = _setup_dcount(caller_doubles)
        self.last_result = None
        # Fields of the trick and domino phases, at their neutral values until those phases begin.
        self.dturn = self.tmask = self.played = self.led_shift = self.trump_mask = self.early = self.ends = 0
        self.led = -1
        self.plain = self.lead_any = False
        self.follow_tables = self.opens = ()
        self.hand_number = hn
        self._deal(_setup_hands(hands) if hands is not None else None, perm)

    def position(self) -> dict:
        return position_of(self)

    # --- the deal (§1.4 steps 1-2) ------------------------------------------------------------------------
    def _deal(self, hands=None, perm=None) -> None:
        hn = self.hand_number
        if hands is None:  # a uniformly random permutation dealt 13/13/13/13
            if perm is None:
                perm = self.shuffled(52, hn)
            b = BIT
            hands = []
            for i in (0, 13, 26, 39):  # (unrolled: a loop over the 13 cards costs a third more)
                c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12 = perm[i:i + 13]
                hands.append(b[c0] | b[c1] | b[c2] | b[c3] | b[c4] | b[c5] | b[c6] | b[c7] | b[c8] | b[c9]
                             | b[c10] | b[c11] | b[c12])
        self.dealt = hands  # never mutated: a trick's winner is the seat dealt its top card
        self.hands = hands.copy()
        self.caller, self.window_k, block, self.dealer = self._deals[hn - 1]  # window_k: k of §3.3
        caller = self.caller
        dealer = self.dealer
        self.contract = -1
        self.trump = -1
        self.domino_rank = 0
        # Per-deal containers exist from the start of every deal (so clone() copies them blindly).
        self.doubled_by = [0, 0, 0, 0]  # seats that doubled each seat in this round
        self.business = {}  # (a, b) with a < b -> multiplier 1 or 2 (§3.1)
        self.doubling_log = []  # (seat, doubles, redoubles) per turn
        self.taken = [0, 0, 0, 0]  # cards taken per seat
        self.won = [0, 0, 0, 0]  # tricks won per seat
        self.winners = []  # trick winners in order
        self.out = []  # domino going-out order
        self.tn = 0
        self.follow = None  # the led suit's action lists while following in a plain trick contract
        # (emit inlined: the payloads are those emit(type, audience, **fields) would build)
        if not self.lean:   # a lean state keeps no narration: its payloads are not even built
            ev = self._events
            ev.append((None, {"hand": hn, "dealer": dealer, "type": "hand_start"}))
            for p in range(4):
                ev.append((1 << p, {"seat": p, "cards": _codes(hands[p]), "type": "deal"}))
            ev.append((None, {"seat": caller, "block_position": block,
                              "available": list(R.AVAILABLE[self.used[caller]]),
                              "caller_doubles": self.dcount[4 * caller:4 * caller + 4], "type": "caller"}))
        self.phase = DECLARE
        self.current_player = caller

    # --- the protocol ---------------------------------------------------------------------------------------
    def _legal_actions(self):
        g = self.game
        ph = self.phase
        if ph == TRICKS:
            h = self.hands[self.current_player]
            follow = self.follow  # set while a player who holds the led suit must simply follow it
            if follow is not None:  # §2.1 rule 3, §2.7 rule 2: follow suit if you can
                sub = h >> self.led_shift & 0x1FFF
                if sub:
                    return follow[sub] or g.play_lists.chunk(self.led, sub)
                if self.plain:
                    return g.play_lists.of(h)  # void: any card
            elif not self.tn and self.lead_any:
                return g.play_lists.of(h)
            return g.play_lists.of(self._trick_rule(h)[0])
        if ph == DOMINO:
            m = self.hands[self.current_player] & self.ends
            return g.play_lists.of(m) if m else g.pass_menu  # §2.8 rule 5: play if you can, else pass
        if ph == DOUBLING:
            return self._doubling_list()
        if ph == DECLARE:
            return g.declarations(self.used[self.caller])  # §1.3 rule 9: each contract once
        return []

    def _apply(self, action) -> None:
        if self.phase != TRICKS:
            if self.phase == DOMINO:
                self._play_domino(action.value)
            elif self.phase == DOUBLING:
                self._double(*action.value)
            else:
                self._declare(*action.value)
            return
        # A card in a trick contract (the hot path, inlined).  The trick is kept as the mask of
        # its cards; its winner is found when it is complete (§2.1 rule 5, in _end_trick).
        card = action.value
        p = self.current_player
        hands = self.hands
        bit = BIT[card]
        hands[p] ^= bit
        self._events.append(_PLAY_EVENTS[card][p])
        tn = self.tn
        if tn:
            self.tmask |= bit
            if tn == 3:
                self._end_trick()
                return
            self.tn = tn + 1
        else:
            self.led = led = SUIT_OF[card]
            self.tmask = bit
            self.tn = 1
            self.follow = self.follow_tables[led]
            self.led_shift = SHIFT[led]
        p = (p + 1) & 3
        self.current_player = p
        # The next player's legal list in the common cases (he follows suit, or is void in a
        # plain contract), set here rather than in _legal_actions: the engine asks for it before
        # every action (and resets it before _apply), so computing it now is never wasted.
        follow = self.follow
        if follow is not None:
            h = hands[p]
            sub = h >> self.led_shift & 0x1FFF
            if sub:
                self._legal = follow[sub] or self.game.play_lists.chunk(self.led, sub)
            elif self.plain:
                self._legal = self.game.play_lists.of(h)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        """At the end: each seat's final match total (they sum to zero, R-16); 0s before."""
        if self.phase != OVER:
            return [0.0, 0.0, 0.0, 0.0]
        return [float(s) for s in self.scores]

    def _copy_into(self, other) -> None:
        other.hands = self.hands.copy()
        other.scores = self.scores.copy()
        other.used = self.used.copy()
        other.dcount = self.dcount.copy()
        other.doubled_by = self.doubled_by.copy()
        other.business = self.business.copy()
        other.doubling_log = self.doubling_log.copy()
        other.taken = self.taken.copy()
        other.won = self.won.copy()
        other.winners = self.winners.copy()
        other.out = self.out.copy()

    # --- declaration (§1.4 step 2, R-4) -----------------------------------------------------------------------
    def _declare(self, contract: int, param) -> None:
        self.contract = contract
        self.trump = param if contract == R.TRUMPS else -1
        self.domino_rank = param if contract == R.DOMINO else 0
        ev = {"seat": self.caller, "contract": R.CONTRACTS[contract]}
        if contract == R.TRUMPS:
            ev["trump"] = R.SUITS[param]
        elif contract == R.DOMINO:
            ev["domino_rank"] = R.RANK_CODE[param]
        ev["type"] = "contract"
        self._events.append((None, ev))
        # §3.2 rule 2: left(C), opposite(C), right(C), then the caller last.
        self.phase = DOUBLING
        self.dturn = 0
        self.current_player = (self.caller + 1) & 3

    # --- the doubling round (§3) -------------------------------------------------------------------------------
    def _forced_to_double(self, p: int) -> tuple[int, int]:
        """§3.3: (need, k); ``p`` must double the caller now iff need >= k > 0."""
        c = self.caller
        need = max(0, 2 - self.dcount[4 * c + p])
        return need, self.window_k

    def _doubling_rights(self) -> tuple[int, int, int]:
        g = self.game
        p = self.current_player
        forced = False
        if g.obligation and p != self.caller:
            need, k = self._forced_to_double(p)
            forced = need >= k
        return R.doubling_rights(p, self.caller, self.contract in R.POSITIVE, self.doubled_by[p],
                                 g.caller_only_redouble, forced)

    def _doubling_list(self) -> list:
        """The legal doubling turns, cached by what decides them (seat, caller, sign, who doubled
        this seat, whether §3.3 forces a double)."""
        p = self.current_player
        c = self.caller
        forced = self.game.obligation and p != c and 2 - self.dcount[4 * c + p] >= self.window_k
        key = (p, c, self.contract >= R.TRUMPS, self.doubled_by[p], forced)
        cache = self.game._doubling_lists
        lst = cache.get(key)
        if lst is None:
            lst = cache[key] = self.game.doubling_turns(*self._doubling_rights())
        return lst

    def _double(self, doubles: int, redoubles: int) -> None:
        p = self.current_player
        c = self.caller
        if doubles | redoubles:
            business = self.business
            doubled_by = self.doubled_by
            bit = 1 << p
            for q in R.SEATS[doubles]:  # a double opens a business with m = 1 (§3.1)
                business[(p, q) if p < q else (q, p)] = 1
                doubled_by[q] |= bit
            for q in R.SEATS[redoubles]:  # a redouble sets it to m = 2
                business[(p, q) if p < q else (q, p)] = 2
            if doubles >> c & 1:  # §3.3: a double of the caller counts toward the obligation
                self.dcount[4 * c + p] += 1
        self.doubling_log.append((p, doubles, redoubles))
        self._events.append((None, {"seat": p, "doubles": list(R.SEATS[doubles]),
                                   "redoubles": list(R.SEATS[redoubles]), "type": "double"}))
        t = self.dturn = self.dturn + 1
        if t < 4:
            self.current_player = (c + 1 + t) & 3
            return
        # §3.2 rule 12, §4: a negative contract nobody doubled is not played.
        if self.contract < R.TRUMPS:
            if self.business or not self.game.skip_undoubled:
                self._start_tricks()
            else:
                self._finish(None)
        elif self.contract == R.DOMINO:
            self._start_domino()
        else:
            self._start_tricks()

    # --- trick play (§2.1-2.7) -------------------------------------------------------------------------------------
    def _start_tricks(self) -> None:
        self.phase = TRICKS
        self.tn = 0  # cards in the current trick
        self.led = -1
        self.tmask = 0  # the cards of the current trick
        self.played = 0  # cards of completed tricks
        (self.plain, self.follow_tables, self.lead_any, self.trump_mask,
         self.early) = self.game.trick_setup(self.contract, self.trump)
        self.current_player = c = self.caller  # §2.1 rule 1: the caller leads
        if self.lead_any:
            self._legal = self.game.play_lists.of(self.hands[c])

    def _trick_rule(self, h: int) -> tuple[int, str]:
        """(legal cards of hand ``h``, why others are not) — Appendix B ``legal_trick_play``."""
        g = self.game
        c = self.contract
        if not self.tn:  # leading: any card, except hearts in NO_HEARTS and BARBU (§2.3, §2.5, R-5)
            if c == R.NO_HEARTS or c == R.BARBU:
                broken = g.heart_lead == 1 and self.played & R.HEART_MASK
                if g.heart_lead != 2 and not broken:
                    rest = h & ~R.HEART_MASK
                    if rest:
                        return rest, "you may not lead a heart while you hold another suit"
            return h, ""
        led = self.led
        follow = h & SUIT_MASK[led]
        if c != R.TRUMPS:
            if c == R.BARBU and g.forced_barbu and h >> R.KH & 1:  # option FORCED_BARBU
                if not follow:
                    return BIT[R.KH], "you must discard the barbu (forced barbu)"
                if led == R.HEARTS and self.tmask >> R.AH & 1:
                    return BIT[R.KH], "the A♥ is in the trick, you must play the barbu (forced barbu)"
            return (follow, "you must follow suit") if follow else (h, "")
        # TRUMPS (§2.7, R-8): T = trump suit; top = the highest trump in the trick, if any.
        trumps = h & self.trump_mask
        top = (self.tmask & self.trump_mask).bit_length() - 1
        if led == self.trump:  # rule 1
            if not trumps:
                return h, ""
            higher = trumps >> (top + 1) << (top + 1)
            if higher and g.must_overtrump:
                return higher, "you must play a higher trump"
            return trumps, "you must play a trump"
        if follow:  # rule 2: follow suit, never obliged to trump while able to follow
            return follow, "you must follow suit"
        if not trumps:
            return h, ""
        if top >= 0 and g.must_overtrump:  # rule 4: overtrump if you can, else any card
            higher = trumps >> (top + 1) << (top + 1)
            return (higher, "you must overtrump") if higher else (h, "")
        return (trumps, "you must trump") if g.must_ruff else (h, "")  # rule 3

    def _end_trick(self) -> None:
        # §2.1 rule 5: the highest trump wins, else the highest card of the suit led; the winner
        # is the seat that was dealt that card.
        m = self.tmask
        top = ((m & self.trump_mask) or (m & SUIT_MASK[self.led])).bit_length() - 1
        d = self.dealt
        w = 0 if d[0] >> top & 1 else 1 if d[1] >> top & 1 else 2 if d[2] >> top & 1 else 3
        self.taken[w] |= m  # the winner takes the trick's cards
        self.won[w] += 1
        winners = self.winners
        winners.append(w)
        self.played |= m
        self.follow = None
        self._events.append(_TRICK_EVENTS[w])
        early = self.early
        if len(winners) == 13 or (early and self.played & early == early):
            self._finish(R.raw_scores(self.contract, self.taken, self.won, winners))
            return
        self.tn = 0
        self.current_player = w  # §2.1 rule 6: the winner leads
        if self.lead_any:  # (his legal list now, as in _apply)
            self._legal = self.game.play_lists.of(self.hands[w])

    # --- domino (§2.8) ----------------------------------------------------------------------------------------------
    def _start_domino(self) -> None:
        self.phase = DOMINO
        r = self.domino_rank
        self.ends = sum(BIT[R.card(s, r)] for s in range(4))  # the cards that fit the layout now
        self.opens = R.DOMINO_OPENS[r]
        self.current_player = self.caller  # the caller takes the first turn

    def _play_domino(self, card) -> None:
        p = self.current_player
        if card.__class__ is not int:  # "pass": no legal card (rule 5)
            self._events.append(_PASS_EVENTS[p])
        else:
            h = self.hands[p] ^ BIT[card]
            self.hands[p] = h
            # Rule 3: the card leaves the open ends and opens its outer neighbour (R-9: no wrap).
            self.ends = (self.ends ^ BIT[card]) | self.opens[card]
            self._events.append(_DOMINO_EVENTS[card][p])
            if not h:  # rule 7: going out fixes the place
                out = self.out
                out.append(p)
                self._events.append((None, {"seat": p, "place": len(out), "type": "domino_out"}))
                if len(out) == 3:  # the fourth place is now fixed: the deal ends
                    out.append(6 - sum(out))
                    self._finish(R.domino_scores(out))
                    return
            elif card % 13 == 12 and self.game.ace_replay:  # option DOMINO_ACE_REPLAY: another turn
                return
        self.current_player = self._next_with_cards(p)

    def _next_with_cards(self, p: int) -> int:
        q = (p + 1) & 3
        while not self.hands[q]:  # rule 4: players out of cards are skipped
            q = (q + 1) & 3
        return q

    # --- scoring (§1.4 steps 6-8, §3.4, §4) --------------------------------------------------------------------------
    def _finish(self, raw) -> None:
        c = self.caller
        business = self.business
        businesses = [[a, b, m] for (a, b), m in sorted(business.items())] if business else []
        if raw is None:  # §4: not played; the total is split
            adj = None
            final = R.undoubled_split(R.TOTAL[self.contract], c)
        else:
            adj, final = R.settle(raw, business)
        scores = self.scores
        scores[0] += final[0]
        scores[1] += final[1]
        scores[2] += final[2]
        scores[3] += final[3]
        self.used[c] |= 1 << self.contract
        self.last_result = result = {
            "hand": self.hand_number, "caller": c, "contract": R.CONTRACTS[self.contract],
            "played": raw is not None, "raw": raw, "adjustments": adj, "final": final,
            "businesses": businesses,
        }
        events = self._events
        events.append((None, {**result, "type": "deal_result"}))
        events.append((None, {"scores": scores.copy(), "type": "scores"}))
        if self.hand_number >= R.DEALS:
            self.phase = OVER
            self.current_player = TERMINAL
            best = max(scores)
            self.emit("match_end", None, totals=list(scores),
                      winners=[p for p in range(4) if scores[p] == best])  # ties share
            return
        # The next deal waits until the state is observed (State._defer): a rollout or a benchmark
        # that stops at the end of this deal never shuffles the next one.  Until then the hands
        # are None, so that code reading them directly, past the protocol, fails loudly.
        self.hand_number = hn = self.hand_number + 1
        self.current_player = self._deals[hn - 1][0]  # the next caller
        self.phase = DEALING
        self.hands = self.dealt = None
        self._defer()

    def _deferred_deal(self) -> None:
        self._deal()

    # --- explanations ------------------------------------------------------------------------------------------------
    def _why_illegal(self, action) -> str | None:
        ph = self.phase
        verb = action.verb
        p = self.current_player
        codes = R.DECK.codes_of
        if ph == DECLARE:
            if verb != "contract":
                return f"seat {p + 1} (the caller) must first declare a contract"
            free = [R.CONTRACTS[c] for c in range(7) if not self.used[p] >> c & 1]
            return (f"seat {p + 1} has already played {R.CONTRACTS[action.value[0]]} as caller "
                    f"(still available: {', '.join(free)})")
        if ph == DOUBLING:
            if verb not in ("pass", "double", "redouble"):
                return "it is the doubling round: pass, double <seats> or redouble <seats> (seats 1-4)"
            return self._why_not_doubling(*action.value)
        if verb != "play":
            if ph == DOMINO and verb == "pass":
                return f"you can play, so you must (legal: {', '.join(codes(self.hands[p] & self.ends))})"
            return "a card must be played"
        card = action.value
        if not self.hands[p] >> card & 1:
            return f"you do not hold {R.CODES[card]}"
        if ph == DOMINO:
            return f"{R.CODES[card]} does not fit the layout"
        legal, reason = self._trick_rule(self.hands[p])
        return f"{reason}: {', '.join(codes(legal))}" if reason else None

    def _why_not_doubling(self, doubles: int, redoubles: int) -> str | None:
        p = self.current_player
        c = self.caller
        may_d, may_r, must = self._doubling_rights()
        if (doubles | redoubles) >> p & 1:
            return "you cannot double or redouble yourself"
        if doubles & self.doubled_by[p]:
            q = R.seats_of(doubles & self.doubled_by[p])[0]
            return f"seat {q + 1} has doubled you; your answer is a redouble (redouble {q + 1}), not a double"
        if doubles & ~may_d:
            if p == c:
                return "the caller may not double anybody; he may only redouble players who doubled him"
            return f"in a positive contract you may double only the caller (seat {c + 1})"
        if redoubles & ~may_r:
            if redoubles & ~self.doubled_by[p]:
                return "you may redouble only a player who doubled you earlier in this round"
            return "only the caller may redouble (option redouble=caller_only)"
        if must & ~doubles:
            need, k = self._forced_to_double(p)
            return (f"you must double the caller (seat {c + 1}) now: you owe {need} double(s) of him "
                    f"and {k} of his deal(s) are left (§3.3)")
        return None

    def _next_dealer(self) -> int | None:
        """The dealer of the next deal in the schedule (§1.2, §1.3, R-3), None after the 28th."""
        hn = self.hand_number
        return self._deals[hn][3] if hn < len(self._deals) else None

    # --- summaries and views ------------------------------------------------------------------------------------------
    def _hand_summary(self) -> dict:
        out = {
            "hand": self.hand_number, "caller": self.caller, "dealer": self.dealer,
            "next_dealer": self._next_dealer(),
            "phase": PHASE_NAMES[self.phase],
            "contract": R.CONTRACTS[self.contract] if self.contract >= 0 else None,
            "scores": list(self.scores),
        }
        if self.trump >= 0:
            out["trump"] = R.SUITS[self.trump]
        if self.domino_rank:
            out["domino_rank"] = R.RANK_CODE[self.domino_rank]
        if self.phase != DECLARE and self.contract >= 0:
            out["doubling"] = [{"seat": s, "doubles": R.seats_of(d), "redoubles": R.seats_of(r)}
                               for s, d, r in self.doubling_log]
        if self.phase == TRICKS:
            out["tricks_played"] = len(self.winners)
            out["tricks_won"] = list(self.won)
        if self.phase == DOMINO:
            out["out"] = list(self.out)
        if self.last_result is not None:
            out["last_result"] = copy.deepcopy(self.last_result)
        return out

    def _fold_event(self, view: dict, ev: dict, seat) -> bool:
        return fold_event(view, ev, seat)

    def view(self, seat) -> dict:
        return finish_view(super().view(seat))

    # --- what search asks: a cheap playout policy (inside search only, never on the real game) ---------
    def playout_card(self, plays, rng):
        """Trick play (the domino stays random): in ``TRUMPS`` win a trick with the cheapest winning
        card, else throw the lowest; in the negative contracts lead the lowest card, follow with the
        highest card that does not win (all win: the highest), and when void discard the contract's
        penalty cards first (K♥ in ``BARBU``, hearts in ``NO_HEARTS``, queens in ``NO_QUEENS``),
        else the highest card."""
        tmask = self.tmask
        if self.phase != TRICKS or tmask is None:
            return plays[rng.randrange(len(plays))]
        contract = self.contract
        if not self.tn:   # leading
            if contract == _P_TRUMPS:
                return plays[rng.randrange(len(plays))]
            low = min(a.value % 13 for a in plays)
            lows = [a for a in plays if a.value % 13 == low]
            return lows[rng.randrange(len(lows))]
        led = self.led
        trump = self.trump
        trumps_in = tmask & (0x1FFF << (13 * trump)) if trump >= 0 else 0
        best = (trumps_in or tmask & (0x1FFF << (13 * led))).bit_length() - 1
        sb = best // 13

        def wins(c):
            s = c // 13
            return (s == sb and c > best) or (s == trump and sb != s)

        by_rank = sorted(plays, key=lambda a: a.value % 13)
        if contract == _P_TRUMPS:
            for a in by_rank:
                if wins(a.value):
                    return a
            return by_rank[0]
        if plays[0].value // 13 != led:   # void: discard
            if contract == _P_BARBU:
                for a in plays:
                    if a.value == _P_KH:
                        return a
            if contract in (_P_BARBU, _P_NO_HEARTS):
                hearts = [a for a in by_rank if a.value // 13 == _P_HEARTS]
                if hearts:
                    return hearts[-1]
            if contract == _P_NO_QUEENS:
                for a in plays:
                    if a.value % 13 == _P_QUEEN:
                        return a
            return by_rank[-1]
        under = [a for a in by_rank if not wins(a.value)]
        return under[-1] if under else by_rank[-1]




# --- set-up validation ------------------------------------------------------------------------------------------------
def _setup_hands(hands) -> list[int]:
    return [mask(h) for h in parse_hands(R.DECK, hands, 4, 13)]


def _setup_scores(scores) -> list[int]:
    if scores is None:
        return [0, 0, 0, 0]
    if (not isinstance(scores, (list, tuple)) or len(scores) != 4
            or any(isinstance(s, bool) or not isinstance(s, int) for s in scores)):
        raise SetupError(f"scores must be 4 whole numbers (P0..P3), not {scores!r}")
    return list(scores)


def _check_score_sum(scores, used) -> None:
    """PR-D8: each deal's final scores sum to its contract's total T (§1.5, §3.4, §4), so the
    running totals sum to the totals of the contracts used so far (zero at the start)."""
    want = sum(R.TOTAL[c] for m in used for c in range(7) if m >> c & 1)
    if sum(scores) != want:
        raise SetupError(f"scores {list(scores)} sum to {sum(scores)}, but each deal's scores sum to its contract's "
                         f"total (§1.5), so after the contracts used so far they sum to {want}")


def _setup_used(used, schedule, hn) -> list[int]:
    if used is None and hn == 1:  # a match from its start (the common case, kept cheap)
        return [0, 0, 0, 0]
    played = [schedule[:hn - 1].count(p) for p in range(4)]
    if used is None:
        if any(played):
            raise SetupError(f"starting at deal {hn} needs used_contracts: per seat, the contracts it has "
                             f"already chosen as caller (counts {played})")
        return [0, 0, 0, 0]
    if not isinstance(used, (list, tuple)) or len(used) != 4:
        raise SetupError("used_contracts must be 4 lists of contract names (P0..P3)")
    masks = []
    for p, names in enumerate(used):
        m = 0
        for name in names:
            c = R.CONTRACT_ID.get(str(name).upper())
            if c is None:
                raise SetupError(f"unknown contract {name!r}; contracts are {', '.join(R.CONTRACTS)}")
            if m >> c & 1:
                raise SetupError(f"P{p} uses {R.CONTRACTS[c]} twice")
            m |= 1 << c
        if m.bit_count() != played[p]:
            raise SetupError(f"P{p} has been caller in {played[p]} deal(s) before deal {hn}, "
                             f"so must have used {played[p]} contract(s), not {m.bit_count()}")
        masks.append(m)
    return masks


def _setup_dcount(matrix) -> list[int]:
    if matrix is None:
        return [0] * 16
    ok = isinstance(matrix, (list, tuple)) and len(matrix) == 4 and all(
        isinstance(row, (list, tuple)) and len(row) == 4
        and all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 7 for x in row) for row in matrix)
    if not ok or any(matrix[c][c] for c in range(4)):
        raise SetupError("caller_doubles must be a 4x4 matrix: [c][p] = deals in which P<p> doubled caller "
                         f"P<c> (0..7, diagonal 0), not {matrix!r}")
    return [x for row in matrix for x in row]
