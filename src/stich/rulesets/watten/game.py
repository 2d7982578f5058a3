"""The Watten game object: variants, options and the tables precomputed once per game."""

from __future__ import annotations

from pathlib import Path

from stich.cards import MaskLists, deck
from stich.engine import Game
from stich.rulesets.watten.options import OPTION_RULES, OPTION_SPECS, VARIANT_TABLE, VARIANTS
from stich.rulesets.watten.ranking import RANK_CODES, SUIT_CODES, WELI_RANK, build_ranking, kritische_cards

#: In a mask for ``WattenGame.play_lists``: "raise is legal too" (the bit above the three 11-bit
#: chunks of a 32- or 33-card deck, ``MaskLists.extra_bit``).
RAISE_BIT = 1 << 33


class WattenGame(Game):
    """Watten in seven variants (rules file §2.V)."""

    name = "watten"
    title = "Watten"
    variants = VARIANTS
    default_variant = "euregio"
    option_specs = OPTION_SPECS
    option_rules = OPTION_RULES
    #: the rules file's variant table (§2.V): a variant is one row (options.Variant)
    variant_table = VARIANT_TABLE
    deck = deck("german33")
    # Events whose cards the audience lawfully sees (for the view-invariance property): deals
    # (own hand, public Kritische, the Tyrolean Schlag-6 partner view), shown Ansage cards, the
    # Bavarian cut, the Euregio peeks, a Maschine, a challenged card, the face-up first trick.
    reveal_events = frozenset({"deal", "show", "reveal", "cut_card", "cut_peek", "stock_peek", "maschine",
                               "challenge", "face_up"})

    # What the layers above ask (engine.Game documents each field).
    cards_per_hand = 5
    default_language = "de"
    max_decisions = 200
    card_verb = "play"
    search_verbs = ("play",)
    rollout_avoid = frozenset({"raise", "fold", "concede", "ask_exchange", "ask_swap", "challenge"})
    calm_verbs = frozenset({"accept", "hold"})
    two_sided = True    # 2 and 4 players: seat parity; 3 players: the forehand against the other two
    #: the game's words, in its own package (locale/<lang>/LC_MESSAGES/watten.po): read when the class is
    #: loaded, as an outside game's are
    catalogues = str(Path(__file__).parent / "locale")
    companions = {"heuristic": "stich.rulesets.watten.heuristic", "encoder": "stich.rulesets.watten.encoding",
                  "narration": "stich.rulesets.watten.text",
                  "help": "stich.rulesets.watten.help", "page": "stich.rulesets.watten.page",
                  "bets": "stich.rulesets.watten.bets",
                  "kernel": "stich.rulesets.watten.kernel", "stats": "stich.rulesets.watten.stats"}

    # Signals (Deuten, rules §2.S) at a live table: allowed in Bavarian and Tyrolean play, between
    # the partners of a four-player game (seats 0+2 and 1+3); stich's own play leaves them out (R28).
    signal_words = ("max", "belli", "spitz", "trump", "low", "nothing", "alone")
    signals_where = ("signals (Deuten) are a Watten custom between partners: only four-player Watten tables "
                     "can allow them")

    def signals_refused(self) -> str | None:
        if self.num_players != 4:
            return self.signals_where
        if self.blind:  # §2.S: forbidden in Blind and Euregio, the variants whose Ansage is blind
            return f"signals (Deuten) are forbidden in {self.variant} Watten (rules §2.S)"
        return None

    @property
    def variant_lineage(self) -> tuple[str, ...]:
        out = [self.variant]
        while (base := self.variant_table[out[-1]].base) is not None:
            if base in out or base not in self.variant_table:   # a loop or a typo is the table's error
                raise ValueError(f"{self.name} variant {out[-1]!r}: its base {base!r} is "
                                 + ("a loop" if base in out else "no row of the variant table"))
            out.append(base)
        return tuple(out)

    def partner(self, seat: int) -> int | None:
        return (seat + 2) % 4 if self.num_players == 4 else None

    def reward_scale(self) -> float:
        return float(self.options["target"])

    def pack_setup(self, codes: list[str]) -> dict:
        return {"pack": codes}   # the whole pack top first; the cutter cuts

    def _setup(self) -> None:
        o = self.options
        row = self.row = self.variant_table[self.variant]
        self.bavarian = row.kritische
        self.deck = deck("german33" if row.deck == 33 else "german32")
        self.num_players = row.players
        # four players: the two sides score (partners together); two or three: each seat its own
        self.scores_by = "side" if row.players == 4 else "seat"
        self.family = row.family
        self.blind = row.ansage != "open"               # Ansage by showing a card (T3, E.4)
        self.euregio = row.schlagtausch
        # Follow rule (§2.6): Bavarian first-trick Hauptschlag rule, else the trump-lead rule,
        # binding everybody (tyrolean, guate) or only the two Ansager (blind, euregio).
        self.bound_all = row.follow == "trump_lead_all"
        self.exchange_rule = row.exchange
        self.ansage_order = o.get("ansage_order", "schlag_first")
        self.schlag_ranks = tuple(range(0 if row.deck == 33 else 1, 9))  # §2.5: 6/Weli in 33-card games
        self.target = o.target
        self.lock_at = o.lock_at
        self.step = 1 if o.direction == "clockwise" else -1
        self.last_trick_rule = o.get("last_trick_rule", "off")
        self.bluff = o.get("last_trick_bluff", "off") == "on"
        self.rechte_exempt = o.get("rechte_exempt", "true") == "true"
        self.linke_follow = o.get("linke_may_follow_trump", "true") == "true"
        self.guate_lead = o.get("guate_lead_is_trump_lead", "true") == "true"
        self.first_trick_only = o.get("zugeben_scope", "every_trick") == "first_trick"
        self.guate_trump7 = o.get("guate_when_weli_schlag", "none") == "trump7"
        self.must_hold = o.get("open_schlag_must_be_held", "false") == "true"
        self.packets = (3, 2) if o.deal_packets == "3+2" else (2, 3)
        self.raise_cap = o.raise_cap == "points_needed"
        d = self.deck
        n = len(d)
        self.suit_of = tuple(d.suit(c) for c in range(n))
        self.rank_of = tuple(d.rank(c) for c in range(n))
        self.kritische = kritische_cards(d) if self.bavarian else ()
        self.kritische_mask = sum(1 << c for c in self.kritische)
        self.weli = d.find(1, WELI_RANK) if not self.bavarian else None
        self._rankings: dict = {}
        self.deal_orders: dict = {}
        # Interned actions (§0.5), named as docs/engine.md says: a_<verb>, indexed by the value.
        # cut k: R17, 4 <= k <= n - 4 (cut_menu: the legal list of the cut, in order).
        a = self.action
        self.cut_menu = [a("cut", str(k), k) for k in range(4, n - 3)]
        self.a_cut = {act.value: act for act in self.cut_menu}
        self.a_schlag = {r: a("schlag", RANK_CODES[r], r) for r in self.schlag_ranks}
        self.a_trump = [a("trump", SUIT_CODES[s], s) for s in range(4)]
        self.a_play = [a("play", d.code(c), c) for c in range(n)]
        self.a_show = [a("show", d.code(c), c) for c in range(n)]
        self.show_lists = MaskLists(self.a_show)
        self.codes_of = MaskLists(d.codes)  # the codes of a mask of cards
        for verb in ("raise", "accept", "fold", "challenge", "hold", "concede", "ask_exchange",
                     "agree_exchange", "refuse_exchange", "ask_swap", "agree_swap", "refuse_swap"):
            setattr(self, "a_" + verb, a(verb))
        #: the play actions of a mask of cards (+ ``raise`` with RAISE_BIT): the hot path of play
        self.play_lists = MaskLists(self.a_play, extra=self.a_raise)

    def _parse_arg(self, verb: str, arg: str) -> str:
        """Canonical argument text: ``schlag o`` -> ``schlag O``, ``schlag W`` -> ``schlag 6``."""
        if verb == "schlag":
            up = arg.strip().upper()
            return {"W": "6", "WELI": "6", "T": "10", "S6": "6"}.get(up, up)
        if verb == "trump":
            return arg.strip().upper()
        return super()._parse_arg(verb, arg)

    def ranking(self, schlag: int, trump: int):
        """The (cached) ranking of one (Schlag, trump) pair."""
        r = self._rankings.get((schlag, trump))
        if r is None:
            r = self._rankings[(schlag, trump)] = build_ranking(
                self.deck, self.family, schlag, trump, self.guate_trump7)
        return r

    # --- determinization hooks (stich.engine.worlds; code in worlds.py) -----------------------
    def world_spec(self, view: dict):
        from stich.rulesets.watten.worlds import world_spec
        return world_spec(self, view)

    def world_fixup(self, state, view: dict, spec) -> None:
        from stich.rulesets.watten.worlds import world_fixup
        world_fixup(state, view, spec)
