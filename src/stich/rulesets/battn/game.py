"""The Battn rule set: options (rules §A5.1), actions (notation BT-19.2) and precomputed tables."""

from __future__ import annotations

from pathlib import Path

from stich.cards import MaskLists
from stich.engine import Game, OptionSpec, only_with, ordered
from stich.rulesets.battn.cards import DECK, RANK_CODES_HIGH_FIRST, RANKS, SUITS
from stich.rulesets.battn.ranking import Table
from stich.rulesets.battn.state import BattnState

_BOOL = (False, True)


class BattnGame(Game):
    """Battn (Plodar Battn, Sappada): 4 players, 2 fixed teams, a match to 21."""

    name = "battn"
    title = "Battn (Plodar Battn, Sappada)"
    variants = ("standard",)
    default_variant = "standard"
    deck = DECK
    num_players = 4
    state_class = BattnState
    # Events that lawfully show cards beyond one's own deal and the public plays:
    # the cut reveals (BT-5.3), the face-up stock card (BT-6.3), the partner's hand (BT-7.5).
    # (The first-dealer draw is public too, from a separate draw deck.)
    reveal_events = frozenset({"cut", "stock_bottom", "partner_hand", "first_dealer"})

    # What the layers above ask (engine.Game documents each field).
    cards_per_hand = 5
    default_language = "it"
    max_decisions = 300
    card_verb = "play"
    search_verbs = ("play",)
    rollout_avoid = frozenset({"raise", "fold", "misraise", "orbi", "orbi_refuse", "scheanara", "svista",
                               "x_decline"})
    calm_verbs = frozenset({"accept", "orbi_accept", "pass", "x_play"})
    two_sided = True    # two pairs of partners, seat parity
    scores_by = "side"  # each pair scores together (rules: the match is the pairs')
    #: the game's words, in its own package (locale/<lang>/LC_MESSAGES/battn.po): read when the class is
    #: loaded, as an outside game's are
    catalogues = str(Path(__file__).parent / "locale")
    companions = {"heuristic": "stich.rulesets.battn.heuristic", "encoder": "stich.rulesets.battn.encoding",
                  "narration": "stich.rulesets.battn.text",
                  "help": "stich.rulesets.battn.help", "page": "stich.rulesets.battn.page",
                  "bets": "stich.rulesets.battn.bets",
                  "kernel": "stich.rulesets.battn.kernel", "stats": "stich.rulesets.battn.stats"}

    def reward_scale(self) -> float:
        return float(self.options["target"])

    def pack_setup(self, codes: list[str]) -> dict:
        return {"deck": codes}   # the whole pack top first; L cuts

    option_specs = (
        OptionSpec("ace_rank", ("high", "low"), "high", rule="A1.4, A4-2",
                   help="low: the Ace ranks below the 2"),
        OptionSpec("plain_any_suit_wins", _BOOL, False, rule="A4-3",
                   help="true: among plain cards the highest rank of any suit wins (first played on ties)"),
        OptionSpec("critici_equal", _BOOL, False, rule="A4-1",
                   help="true: the critici are equal, the first played wins"),
        OptionSpec("uno_buono_tie", ("first_played", "last_played"), "first_played", rule="A4-5",
                   help="which of several Uno Buono in a trick wins"),
        OptionSpec("trump_lead_triggers", ("plain_and_buono", "plain_only", "any_trumpf_suit_card"),
                   "plain_and_buono", rule="A4-7, BT-12.4", help="which leads oblige the others to play a trump"),
        OptionSpec("follow_rule_first_trick_only", _BOOL, False, rule="A4-8",
                   help="true: the follow rule applies in trick 1 only"),
        OptionSpec("critico_releases_obligation", _BOOL, False, rule="A4-9",
                   help="true: once a critico is in the trick, the later players are free"),
        OptionSpec("max_cuts", (1, 2), 2, rule="BT-5.2", help="1: the cutter may cut only once"),
        OptionSpec("cut_next_card_from", ("lifted_packet", "remaining_packet"), "lifted_packet",
                   rule="BT-5.3, A4-10", help="where the card 'under' a revealed critico comes from"),
        OptionSpec("min_packet_size", int, 1, rule="A4-10", minimum=1, maximum=(len(DECK) - 3) // 2,
                   samples=(18,), help="each packet of a cut must hold at least this many cards "
                                       "(at most 18, so that every cut is possible)"),
        OptionSpec("deal_pattern", ("single_cards", "3_then_2"), "single_cards", rule="BT-6.2, A4-11",
                   help="3_then_2: first 3 cards each (less cut critici), then the rest"),
        OptionSpec("scheanara_first_speaker", ("R", "D"), "R", rule="BT-8.2, A4-12",
                   help="who speaks first in the Scheanara"),
        OptionSpec("scheanara_max", (0, 1, 2), 2, rule="BT-8.4", help="maximum exchanges per turn"),
        OptionSpec("schlok_requires_holding", _BOOL, False, rule="A4-13",
                   help="true: R must hold a card of the rank he names"),
        OptionSpec("raise_alternation", _BOOL, True, rule="BT-14.3, A4-14",
                   help="false: whenever no raise is pending, either team may raise"),
        OptionSpec("target", int, 21, rule="BT-2.1", minimum=2, samples=(11,), help="match target"),
        OptionSpec("stake_cap", ("none", "target"), "none", rule="BT-14.6, PR-B8",
                   help="target: raises may not take the stake above the match target"),
        OptionSpec("x_threshold", int, 19, rule="BT-15.1, PR-B13", minimum=1, samples=(9,), follows=("target", -2),
                   help="total that gives the X (default target - 2)"),
        OptionSpec("x_fold_at_base_costs_2", _BOOL, True, rule="BT-15.5, A4-15 v",
                   help="false: an X-team fold at stake 3 gives the opponents 3"),
        OptionSpec("x_team_may_raise", _BOOL, True, rule="BT-15.6, A4-15 vi",
                   help="false: the X team may neither raise nor counter-raise"),
        OptionSpec("orbi_enabled", _BOOL, True, rule="BT-16", help="false: no Orbi window"),
        OptionSpec("orbi_before_cut", _BOOL, False, rule="A4-16 i",
                   help="true: the Orbi window lies before the shuffle and cut"),
        OptionSpec("orbi_counts_as_raise", _BOOL, True, rule="BT-16.4, A4-16 iv",
                   help="false: after an accepted Orbi both teams hold the raise right"),
        OptionSpec("kritish", _BOOL, False, rule="BT-18",
                   help="true: only D and R look at their cards before the choice"),
        OptionSpec("partners_see_hands", _BOOL, True, rule="BT-7.5, A4-20",
                   help="false: nobody sees the partner's hand"),
        OptionSpec("manual_mode", _BOOL, False, rule="BT-16.5, BT-17.2, A4-17, A4-18",
                   help="true: the bookkeeping actions misraise and svista are offered"),
        OptionSpec("first_dealer", ("draw", "random"), "draw", rule="BT-3.1, A4-24",
                   help="random: the first dealer is chosen at random instead of by a draw"),
    )
    #: the constraints between options (the rulebook lists them under the options table)
    option_rules = (
        ordered("x_threshold", "target", "BT-15.1, BT-2.1"),
        only_with("orbi_before_cut", (True,), "orbi_enabled", (True,), "BT-16, A4-16 i"),
        only_with("orbi_counts_as_raise", (False,), "orbi_enabled", (True,), "BT-16.4, A4-16 iv"),
        only_with("scheanara_first_speaker", ("D",), "scheanara_max", (1, 2), "BT-8.2, BT-8.4"),
    )

    def _setup(self) -> None:
        o = self.options
        self.num_players = 4
        # BT-14.6: no upper limit on the stake; PR-B8's cap at the target is an option.
        self.stake_limit = o["target"] if o["stake_cap"] == "target" else 1 << 62
        n = len(DECK)
        # Interned actions (BT-19.2 verbs), named as docs/engine.md says (a_<verb>, indexed by the value).
        self.a_play = tuple(self.action("play", DECK.code(c), c) for c in range(n))
        self.play_lists = MaskLists(self.a_play, width=10)   # one 10-bit chunk per suit
        self.a_cut = (None,) + tuple(self.action("cut", str(p), p) for p in range(1, n))
        self.a_cut_done = self.action("cut_done")
        self._cut_menus: dict[int, list] = {}
        self.a_orbi = self.action("orbi")
        self.a_orbi_pass = self.action("orbi_pass")
        self.a_scheanara = self.action("scheanara")
        self.a_scheanara_pass = self.action("scheanara_pass")
        self.a_scheanara_yes = self.action("scheanara_yes")
        self.a_scheanara_no = self.action("scheanara_no")
        # Schlòk actions listed highest rank first, values are deck rank indices.
        self.a_schlok = [None] * len(RANKS)
        for code in RANK_CODES_HIGH_FIRST:
            r = RANKS.index(code)
            self.a_schlok[r] = self.action("schlok", code, r)
        self.schlok_order = tuple(RANKS.index(code) for code in RANK_CODES_HIGH_FIRST)
        self.a_trumpf = tuple(self.action("trumpf", s, i) for i, s in enumerate(SUITS))
        self.a_orbi_accept = self.action("orbi_accept")
        self.a_orbi_refuse = self.action("orbi_refuse")
        self.a_x_play = self.action("x_play")
        self.a_x_decline = self.action("x_decline")
        self.a_raise = self.action("raise")
        self.a_pass = self.action("pass")
        self.a_accept = self.action("accept")
        self.a_fold = self.action("fold")
        self.a_misraise = self.action("misraise")
        self.a_svista = {"DP": self.action("svista", "DP", "DP"), "RL": self.action("svista", "RL", "RL")}
        # One ranking table per (Schlòk, Trumpf) for these options (BT-10).
        self.tables = {(r, s): Table(r, s, o) for r in range(len(RANKS)) for s in range(len(SUITS))}
        self.rank_masks = tuple(DECK.rank_mask(r) for r in range(len(RANKS)))

    def cut_menu(self, pack_size: int) -> list:
        """The legal cuts of a pack of ``pack_size`` cards (A4-10: ``min_packet_size`` or more on each
        side), in order: one shared list per size (never mutated)."""
        menu = self._cut_menus.get(pack_size)
        if menu is None:
            m = self.options["min_packet_size"]
            menu = self._cut_menus[pack_size] = [self.a_cut[p] for p in range(m, pack_size - m + 1)]
        return menu

    def _parse_arg(self, verb: str, arg: str) -> str:
        if verb == "schlok":
            return arg.upper()
        if verb == "trumpf":
            for s in SUITS:
                if s.lower() == arg.lower():
                    return s
            return arg
        if verb == "svista":
            return arg.upper()
        return super()._parse_arg(verb, arg)

    def rules_summary(self) -> str:
        o = self.options
        bits = [f"Battn to {o['target']}"]
        changed = [f"{s.name}={o[s.name]}" for s in self.option_specs
                   if s.name != "target" and o[s.name] != s.default_for(self.variant)]
        return ", ".join(bits + changed)

    # --- determinization hooks (stich.engine.worlds; code in worlds.py) -----------------------
    def world_spec(self, view: dict):
        from stich.rulesets.battn.worlds import world_spec
        return world_spec(self, view)

    def world_fixup(self, state, view: dict, spec) -> None:
        from stich.rulesets.battn.worlds import world_fixup
        world_fixup(state, view, spec)
