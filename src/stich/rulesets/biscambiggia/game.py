"""Biscambiggia chiamata (Liguria, 5 players): the rule set, its options and its tables.

Rules: ``rules/biscambiggia.md`` (BB-x numbered rules, B4-x rulings, B5.1 options);
project rulings where that file is silent are PR-C1 ... in ``docs/biscambiggia.md``.
"""

from __future__ import annotations

from pathlib import Path

from stich.cards import MaskLists
from stich.engine import Game, OptionSpec, ordered
from stich.rulesets.biscambiggia.rules import DECK, NUM_PLAYERS, card_points, rank_values, strength
from stich.rulesets.biscambiggia.state import BiscambiggiaState

_BOOL = (False, True)


class BiscambiggiaGame(Game):
    """Biscambiggia chiamata: auction for points, call a card, its suit is trump, its holder is the
    secret partner (the *traditore*); 5 players, 8 tricks, marche settled per hand."""

    name = "biscambiggia"
    title = "Biscambiggia chiamata"
    variants = ("standard",)          # B5.1: `standard` = every option at its default
    default_variant = "standard"
    deck = DECK
    num_players = NUM_PLAYERS         # BB-1.1
    state_class = BiscambiggiaState

    # What the layers above ask (engine.Game documents each field).
    cards_per_hand = 8
    default_language = "it"
    max_decisions = 300
    card_verb = "play"
    search_verbs = ("play",)
    rollout_avoid = frozenset({"bid"})
    calm_verbs = frozenset({"pass"})
    #: the game's words, in its own package (locale/<lang>/LC_MESSAGES/biscambiggia.po): read when the class is
    #: loaded, as an outside game's are
    catalogues = str(Path(__file__).parent / "locale")
    companions = {"heuristic": "stich.rulesets.biscambiggia.heuristic",
                  "encoder": "stich.rulesets.biscambiggia.encoding",
                  "narration": "stich.rulesets.biscambiggia.text",
                  "help": "stich.rulesets.biscambiggia.help", "page": "stich.rulesets.biscambiggia.page",
                  "bets": "stich.rulesets.biscambiggia.bets",
                  "kernel": "stich.rulesets.biscambiggia.kernel", "stats": "stich.rulesets.biscambiggia.stats"}

    def reward_scale(self) -> float:
        return 8.0 if self.options["cappotto_double"] else 4.0   # 4 marche (8 with cappotto_double)

    # B5.1, every option with its exact name, values and default.
    option_specs = (
        OptionSpec("ranking", ("biscambiggia", "briscola"), "biscambiggia", rule="BB-0.2, B3",
                   help="card order and points: biscambiggia A 7 K Q J 6 5 4 3 2, or briscola A 3 K Q J 7 ..."),
        OptionSpec("follow_suit", _BOOL, False, rule="B4-1",
                   help="true: a player holding a card of the suit led must play one"),
        OptionSpec("opening_bid_compulsory", _BOOL, True, rule="B4-6, BB-3.4, BB-3.8",
                   help="the player at the dealer's right must open with a bid; false: he may pass, "
                        "and if all five pass the deal is thrown in"),
        OptionSpec("min_opening_bid", int, 61, rule="BB-3.3", minimum=1, maximum=120, samples=(70,),
                   help="lowest first bid"),
        OptionSpec("max_bid", int, 120, rule="BB-3.3", minimum=61, maximum=120, samples=(80,), help="highest bid"),
        OptionSpec("allow_call_own_card", _BOOL, True, rule="B4-7, BB-4.4",
                   help="the caller may call a card he holds and play alone"),
        OptionSpec("cappotto_double", _BOOL, False, rule="B4-12",
                   help="every marca is doubled when one side takes all 120 card points"),
        OptionSpec("hands_per_match", int, 10, rule="BB-1.3, B4-13", minimum=1, samples=(3,),
                   help="match length in hands"),
        OptionSpec("tie_break", ("shared", "extra_rounds"), "shared", rule="B4-13",
                   help="extra_rounds: while the top total is tied, play further rounds of 5 hands"),
        OptionSpec("piles_inspectable", _BOOL, False, rule="B4-10, BB-5.7",
                   help="true: every view also lists each player's captured pile"),
    )
    #: the constraints between options (the rulebook lists them under the options table)
    option_rules = (ordered("min_opening_bid", "max_bid", "BB-3.3", strict=False),)

    def _setup(self) -> None:
        o = self.options
        # BB-0.2 tables for the chosen ranking.
        self.values = rank_values(o.ranking)
        self.points = card_points(o.ranking)
        self.code_points = {DECK.code(c): p for c, p in enumerate(self.points)}
        self.suit_masks = tuple(DECK.suit_mask(s) for s in range(4))
        # BB-5.4 trick strength of every card, per (trump suit, suit led).
        self.strengths = tuple(tuple(tuple(strength(c, t, led, self.values) for c in range(len(DECK)))
                                     for led in range(4)) for t in range(4))
        # Interned actions (BB-7.2 verbs), named as docs/engine.md says (a_<verb>, indexed by
        # the value): bid <n>, pass, call <card>, play <card>.
        # Bids are interned well beyond the legal range so that "bid 121" is a well-formed but
        # illegal action with a reason (AB4), not a malformed one.
        self.a_bid = {n: self.action("bid", str(n), n) for n in range(0, max(o.max_bid, 240) + 1)}
        self.a_pass = self.action("pass")
        self.a_call = tuple(self.action("call", DECK.code(c), c) for c in range(len(DECK)))
        self.a_play = tuple(self.action("play", DECK.code(c), c) for c in range(len(DECK)))
        # Legal plays of a mask of cards: 10-bit chunks, one per suit, all filled at once (4096 lists).
        self.play_lists = MaskLists(self.a_play, width=10, eager=True)
        # BB-3.7: the legal auction actions for each lowest allowed bid, bids first, pass last.
        self.auction_menus = {lo: [self.a_bid[n] for n in range(lo, o.max_bid + 1)] + [self.a_pass]
                              for lo in range(o.min_opening_bid, o.max_bid + 2)}
        self.opening_menu = [self.a_bid[n] for n in range(o.min_opening_bid, o.max_bid + 1)]

    def _parse_arg(self, verb: str, arg: str) -> str:
        if verb == "bid":
            try:
                return str(int(arg))
            except ValueError:
                return arg
        return super()._parse_arg(verb, arg)

    # --- determinization hooks (stich.engine.worlds; code in worlds.py) -----------------------
    def world_spec(self, view: dict):
        from stich.rulesets.biscambiggia.worlds import world_spec
        return world_spec(self, view)

    def world_fixup(self, state, view: dict, spec) -> None:
        from stich.rulesets.biscambiggia.worlds import world_fixup
        world_fixup(state, view, spec)
