"""The Barbu rule set: options (R-20), action notation and the precomputed action tables.

Action text (one decision each; the actor is always ``state.current_player``):

* declaration (§1.4 step 2, R-4: the parameter is part of the declaration)::

      contract NO_TRICKS | NO_HEARTS | NO_QUEENS | BARBU | NO_LAST_TWO
      contract TRUMPS S            (trump suit S, H, D or C)
      contract DOMINO 7            ("domino from 7"; ranks 2..10, J, Q, K, A)

* doubling turn (§3.2 rule 4, one per player and deal).  Seats are 1-based in text, as everywhere
  in stich (seat 1 = the rules' P0); the rules' names ``P0..P3`` are accepted when parsing::

      pass                         (neither doubles nor redoubles)
      double 1,3                   (doubles P0 and P2)
      redouble 2                   (redoubles P1, who doubled me earlier in this round)
      double 4 redouble 2          (both at once: doubles P3, redoubles P1)

* a card (trick contracts and domino): ``play SQ``; a forced domino pass: ``pass``.
"""

from __future__ import annotations

import re
from pathlib import Path

from stich.cards import MaskLists
from stich.engine import Game, OptionSpec
from stich.rulesets.barbu import rules as R
from stich.rulesets.barbu.state import BarbuState

BOOL = (False, True)
_SUIT_ALIASES = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "SPADES": "S", "HEARTS": "H", "DIAMONDS": "D",
                 "CLUBS": "C"}
_SEAT = re.compile(r"^(?:p([0-3])|([1-4]))$", re.IGNORECASE)  # P0..P3 (rules) or 1..4 (text)


#: the trick contracts ``stich bench`` draws from (DOMINO: ``benchmarks/barbu_speed.py``)
BENCH_TRICK_CONTRACTS = ("NO_TRICKS", "NO_HEARTS", "NO_QUEENS", "BARBU", "NO_LAST_TWO", "TRUMPS")


class BarbuGame(Game):
    """Barbu: 4 players, 7 contracts each, doubling, a 28-deal match (rules file v1.1)."""

    name = "barbu"
    title = "Barbu"
    variants = ("standard",)
    default_variant = "standard"
    deck = R.DECK
    num_players = 4
    state_class = BarbuState
    reveal_events = frozenset({"domino_play"})  # domino cards are played face up to the layout

    # What the layers above ask (engine.Game documents each field).
    cards_per_hand = 13
    default_language = "fr"
    max_decisions = 400
    card_verb = "play"
    search_verbs = ("play",)
    rollout_avoid = frozenset({"double", "redouble"})
    calm_verbs = frozenset({"pass"})
    #: the game's words, in its own package (locale/<lang>/LC_MESSAGES/barbu.po): read when the class is
    #: loaded, as an outside game's are
    catalogues = str(Path(__file__).parent / "locale")
    companions = {"heuristic": "stich.rulesets.barbu.heuristic", "encoder": "stich.rulesets.barbu.encoding",
                  "narration": "stich.rulesets.barbu.text",
                  "help": "stich.rulesets.barbu.help", "page": "stich.rulesets.barbu.page",
                  "bets": "stich.rulesets.barbu.bets",
                  "kernel": "stich.rulesets.barbu.kernel", "stats": "stich.rulesets.barbu.stats"}

    def reward_scale(self) -> float:
        return 200.0

    bench_references = ("euchre", "hearts")
    bench_note = ("deals of a trick contract (the declaration drawn from the six trick contracts; "
                  "DOMINO: benchmarks/barbu_speed.py); matches/s: whole matches.")

    def bench_first_action(self, rng) -> str:
        """``stich bench`` times deals of a trick contract (the kind of deal hearts is): a
        uniformly random trick contract (not DOMINO; TRUMPS with a random trump suit) as the first
        caller's declaration.  A random declaration would be DOMINO 13 times in 22, a different game."""
        contract = rng.choice(BENCH_TRICK_CONTRACTS)
        return f"contract {contract} {rng.choice('SHDC')}" if contract == "TRUMPS" else f"contract {contract}"
    # R-20, the options table; names and values are the rules' names in lower case (docs/barbu.md).
    option_specs = (
        OptionSpec("heart_lead", ("only_hearts_left", "after_broken", "anytime"), "only_hearts_left",
                   rule="§2.3, §2.5, R-5", help="when a heart may be led in NO_HEARTS and BARBU"),
        OptionSpec("trumps_must_ruff", BOOL, True, rule="§2.7 rule 3, R-20",
                   help="a player void in the suit led must trump when no trump is in the trick"),
        OptionSpec("trumps_must_overtrump", BOOL, True, rule="§2.7 rules 1 and 4, R-20",
                   help="a player must beat the highest trump in the trick if he can"),
        OptionSpec("skip_undoubled_negative", BOOL, True, rule="§4, R-14",
                   help="an undoubled negative contract is not played but split"),
        OptionSpec("redouble", ("any_doubled_player", "caller_only"), "any_doubled_player",
                   rule="§3.2 rule 8, R-12", help="who may redouble"),
        OptionSpec("obligation", ("caller_twice_per_block", "none"), "caller_twice_per_block",
                   rule="§3.3, R-13", help="enforce: each non-caller doubles the caller twice in his window"),
        OptionSpec("rotation", ("block", "every_deal"), "block", rule="§1.3, R-3",
                   help="the caller changes after 7 deals or after every deal"),
        OptionSpec("forced_barbu", BOOL, False, rule="§2.5, R-6",
                   help="the K♥ holder must shed the K♥ when void or after the A♥ fell"),
        OptionSpec("domino_ace_replay", BOOL, False, rule="§2.8 rule 6",
                   help="playing an ace gives an extra turn in DOMINO"),
        OptionSpec("no_hearts_early_end", BOOL, False, rule="§2.3, R-7",
                   help="NO_HEARTS ends when all 13 hearts are taken (score-neutral)"),
        OptionSpec("dealer_is_caller", BOOL, False, rule="§1.2 rule 6, R-1",
                   help="display label only: show the caller as dealer"),
    )

    def _setup(self) -> None:
        o = self.options
        self.num_players = 4
        self.heart_lead = ("only_hearts_left", "after_broken", "anytime").index(o.heart_lead)
        self.must_ruff = bool(o.trumps_must_ruff)
        self.must_overtrump = bool(o.trumps_must_overtrump)
        self.skip_undoubled = bool(o.skip_undoubled_negative)
        self.caller_only_redouble = o.redouble == "caller_only"
        self.obligation = o.obligation == "caller_twice_per_block"
        self.every_deal = o.rotation == "every_deal"
        self.forced_barbu = bool(o.forced_barbu)
        self.ace_replay = bool(o.domino_ace_replay)
        self.no_hearts_early_end = bool(o.no_hearts_early_end)
        self.dealer_is_caller = bool(o.dealer_is_caller)

        # Interned actions, named as docs/engine.md says (a_<verb>, indexed by the value).
        # Declarations: value = (contract, trump suit or domino rank or None).
        self.a_contract: dict[tuple[int, int | None], object] = {}
        for c, name in enumerate(R.CONTRACTS):
            if c == R.TRUMPS:
                for s, code in enumerate(R.SUITS):
                    self.a_contract[c, s] = self.action("contract", f"{name} {code}", (c, s))
            elif c == R.DOMINO:
                for r in R.RANKS:
                    self.a_contract[c, r] = self.action("contract", f"{name} {R.RANK_CODE[r]}", (c, r))
            else:
                self.a_contract[c, None] = self.action("contract", name, (c, None))
        # Doubling turns (verbs pass, double, redouble: one decision): value = (doubles, redoubles)
        # as seat bitmasks; index doubles << 4 | redoubles.
        self.a_doubling: list = [None] * 256
        for d in range(16):
            for r in range(16):
                if d & r:
                    continue
                text = R.doubling_text(d, r)
                verb, _, arg = text.partition(" ")
                self.a_doubling[d << 4 | r] = self.action(verb, arg or None, (d, r))
        self.a_pass = self.a_doubling[0]  # "pass": an empty doubling turn, and the forced domino pass
        self.pass_menu = [self.a_pass]  # the legal list of a domino player who cannot play
        # One interned "play" action per card; legal lists come from 13-bit chunks, one per suit
        # (stich.cards.MaskLists; a led suit's table is read directly by the follow rule).
        self.a_play = tuple(self.action("play", R.CODES[c], c) for c in range(52))
        self.play_lists = MaskLists(self.a_play, width=13)
        self._doubling_cache: dict[int, list] = {}
        self._doubling_lists: dict[tuple, list] = {}  # state-side key -> list (BarbuState._doubling_list)
        self._declare_cache: dict[int, list] = {}
        self._trick_setups: dict[tuple[int, int], tuple] = {}

    def trick_setup(self, contract: int, trump: int) -> tuple:
        """(plain, follow_tables, lead_any, trump_mask, early) of a trick contract (``trump`` -1 but
        in TRUMPS) under this game's options, computed once:

        * plain: follow suit, else any card (no trumps and no forced K♥);
        * follow_tables[s]: the chunk table of legal lists when suit ``s`` is led and a player who
          holds it simply follows it (§2.7 rule 2: any non-trump suit, unless the K♥ may be forced),
          else None;
        * lead_any: any card may be led (not NO_HEARTS or BARBU, or hearts may be led anytime; R-5);
        * trump_mask: the trump suit's cards (0 without trumps);
        * early: the cards whose fall ends the deal early (R-7), 0 if none.
        """
        ts = self._trick_setups.get((contract, trump))
        if ts is None:
            simple_follow = not (contract == R.BARBU and self.forced_barbu)
            early = {R.NO_QUEENS: R.QUEEN_MASK, R.BARBU: R.BIT[R.KH]}.get(contract, 0)
            if contract == R.NO_HEARTS and self.no_hearts_early_end:
                early = R.HEART_MASK
            ts = self._trick_setups[contract, trump] = (
                contract != R.TRUMPS and simple_follow,
                tuple(self.play_lists.tables[s] if simple_follow and s != trump else None for s in range(4)),
                not (contract == R.NO_HEARTS or contract == R.BARBU) or self.heart_lead == 2,
                R.SUIT_MASK[trump] if trump >= 0 else 0,
                early,
            )
        return ts

    def doubling_turns(self, may_double: int, may_redouble: int, must: int) -> list:
        """§3.2 rule 13: every (Dbl, Rdbl) with must <= Dbl <= may_double and Rdbl <= may_redouble."""
        key = may_double << 8 | may_redouble << 4 | must
        lst = self._doubling_cache.get(key)
        if lst is None:
            table = self.a_doubling
            lst = self._doubling_cache[key] = [
                table[d << 4 | r] for d in R.submasks(may_double) if d & must == must for r in R.submasks(may_redouble)]
        return lst

    def declarations(self, used: int) -> list:
        """The declarations of a caller who has already used the contracts in the bitmask ``used``."""
        lst = self._declare_cache.get(used)
        if lst is None:
            lst = self._declare_cache[used] = [a for (c, _p), a in self.a_contract.items() if not used >> c & 1]
        return lst

    # --- parsing: accept the rules' spellings, produce the canonical text ----------------------------
    def _parse_arg(self, verb: str, arg: str) -> str:
        if verb == "contract":
            return _canonical_contract(arg)
        if verb in ("double", "redouble"):
            return _canonical_doubling(verb, arg)
        return super()._parse_arg(verb, arg)

    # --- determinization hooks (stich.engine.worlds; code in worlds.py) -----------------------------
    def world_spec(self, view: dict):
        from stich.rulesets.barbu.worlds import world_spec
        return world_spec(self, view)


def _canonical_contract(arg: str) -> str:
    tokens = arg.replace(",", " ").split()
    if not tokens:
        return arg
    name = tokens[0].upper().replace("-", "_")
    if name == "TRUMPS" and len(tokens) == 2:
        t = tokens[1].upper()
        return f"TRUMPS {_SUIT_ALIASES.get(t, t)}"
    if name == "DOMINO" and len(tokens) == 2:
        t = tokens[1].upper()
        return f"DOMINO {'10' if t == 'T' else t}"
    if len(tokens) == 1:
        return name
    return arg


def _seats(text: str) -> str | None:
    """Canonical seat list: 1-based numbers (``1,3``); the rules' names ``P0..P3`` are accepted too."""
    seats = set()
    for tok in text.replace(",", " ").split():
        m = _SEAT.match(tok)
        if m is None:
            return None
        seats.add(int(m.group(2)) if m.group(2) else int(m.group(1)) + 1)
    return ",".join(str(p) for p in sorted(seats)) if seats else None


def _canonical_doubling(verb: str, arg: str) -> str:
    if verb == "redouble":
        return _seats(arg) or arg
    head, sep, tail = _split_redouble(arg)
    d = _seats(head)
    if d is None:
        return arg
    if not sep:
        return d
    r = _seats(tail)
    return f"{d} redouble {r}" if r else arg


def _split_redouble(arg: str) -> tuple[str, str, str]:
    parts = re.split(r"\s+redouble\s+", arg, maxsplit=1, flags=re.IGNORECASE)
    if len(parts) == 2:
        return parts[0], "redouble", parts[1]
    return arg, "", ""
