"""The variants and options of Watten: the rules file's variant table §2.V, one row per variant, and
its options table §2.W (names, values, defaults; which variants each applies to follows from the rows)."""

from __future__ import annotations

from dataclasses import dataclass

from stich.engine import OptionSpec, only_with, ordered


@dataclass(frozen=True)
class Variant:
    """One column of the rules file's variant table (§2.V): what makes a variant what it is."""

    name: str
    players: int                 # 4 (two sides), 3 (forehand against two) or 2
    deck: int                    # 32 (no Weli) or 33 (with the Weli)
    kritische: bool              # Bavarian Kritische (B1.1; the Kritische reveal at the cut, the Maschine)
    guate: bool                  # the Guate, one above the Schlag in trumps (T2)
    weli_mode: str | None        # "schellen6" | "always_lowest_trump" (Tyrolean) | None (no Weli)
    ansage: str                  # "open" | "blind_simultaneous" | "blind_schlag_first"
    follow: str                  # "hauptschlag_first_trick" | "trump_lead_all" | "trump_lead_ansager"
    exchange: str                # "none" | "forehand_once" (Schönere) | "euregio" (both may ask)
    schlagtausch: bool           # Euregio: the Ansager may swap roles, the peeks, the 4 Punkte (§2.E)
    target: int                  # the default target; lock_at = target - 2
    end_game: str                # "four_points" | "maschine" | "gestrichen"
    last_trick_rule: str | None  # default of option last_trick_rule (None: does not apply)
    face_up_first_trick: bool    # Blind Watten: the first trick stays face up (T3)
    #: the row this one is made from (None: a variant of the rules file's own): a variant's words and
    #: tuning that are kept per variant (a regional call, the search's worlds) are its base's until it
    #: has its own (``Game.variant_lineage``); everything else follows from the fields above
    base: str | None = None

    @property
    def family(self) -> str:
        """The ranking family (``build_ranking``): bavarian (Kritische), tyrolean (the Weli the
        lowest trump) or guate (a Guate; the Weli a Schellen card)."""
        if self.kritische:
            return "bavarian"
        return "tyrolean" if self.weli_mode == "always_lowest_trump" else "guate"


#: the rules file's variant table (§2.V), one row per variant, in the order of §2.V's columns
VARIANT_TABLE = {row.name: row for row in (
    #       name          pl deck krit   guate  weli_mode              ansage                follow
    Variant("euregio",    4, 33, False, True,  "schellen6",           "blind_simultaneous", "trump_lead_ansager",
            "euregio", True, 18, "four_points", "off", False),
    Variant("bavarian_4", 4, 32, True,  False, None,                  "open", "hauptschlag_first_trick",
            "none", False, 11, "maschine", None, False),
    Variant("bavarian_3", 3, 32, True,  False, None,                  "open", "hauptschlag_first_trick",
            "none", False, 11, "maschine", None, False),
    Variant("bavarian_2", 2, 32, True,  False, None,                  "open", "hauptschlag_first_trick",
            "none", False, 11, "maschine", None, False),
    Variant("tyrolean",   4, 33, False, False, "always_lowest_trump", "open", "trump_lead_all",
            "forehand_once", False, 15, "gestrichen", "all", False),
    Variant("guate",      4, 33, False, True,  "schellen6",           "open", "trump_lead_all",
            "forehand_once", False, 15, "gestrichen", "all", False),
    Variant("blind",      4, 33, False, True,  "schellen6",           "blind_schlag_first", "trump_lead_ansager",
            "forehand_once", False, 15, "gestrichen", "ansager", True),
)}

VARIANTS = tuple(VARIANT_TABLE)
#: the variants in the order of the rules file's sections (Bavarian §B, Tyrolean §T, Blind, Euregio §E)
SECTION_ORDER = ("bavarian_4", "bavarian_3", "bavarian_2", "tyrolean", "guate", "blind", "euregio")


def where(test, table=None, order=None) -> tuple[str, ...]:
    """The names of the variants whose row passes ``test``, in ``order`` (default: the table's)."""
    table = VARIANT_TABLE if table is None else table
    names = [n for n in (order or table) if n in table and test(table[n])]
    return tuple(names + [n for n in table if n not in names and test(table[n])])


BAVARIAN = where(lambda r: r.kritische)
DECK33 = where(lambda r: r.deck == 33)
OPEN = where(lambda r: r.ansage == "open")
TYROLEAN_FAMILY = where(lambda r: not r.kritische, order=SECTION_ORDER)
TARGET = {name: row.target for name, row in VARIANT_TABLE.items()}


def option_specs(table=None) -> tuple[OptionSpec, ...]:
    """The options table §2.W for the variants of ``table`` (applicability and per-variant
    defaults follow from the rows)."""
    t = VARIANT_TABLE if table is None else table

    def w(test, order=None):
        return where(test, t, order)

    target = {name: row.target for name, row in t.items()}
    return (

    OptionSpec("direction", ("clockwise", "anticlockwise"), "clockwise", "§0.3, R1",
               "direction of play; seats are numbered clockwise either way"),
    OptionSpec("target", int, dict(target), "§2.9, §2.11", "points that win the game", minimum=1,
               samples=(7,)),
    OptionSpec("lock_at", int, {v: x - 2 for v, x in target.items()}, "§2.9, R12",
               "a side with at least this score may not offer raises (default target - 2)", minimum=0,
               samples=(5,), follows=("target", -2)),
    OptionSpec("deal_packets", ("3+2", "2+3"), "3+2", "§2.1", "packets of the deal"),
    OptionSpec("maschine", ("off", "on"), "off", "B1.7, R20", "all three Kritische end the hand, 2 points",
               variants=w(lambda r: r.kritische)),
    OptionSpec("three_player_trump_chooser", ("forehand", "dealer"), "forehand", "B3, R18",
               "who names the trump suit with three players", variants=w(lambda r: r.players == 3)),
    OptionSpec("open_schlag_must_be_held", ("false", "true"), "false", "§2.5, R23",
               "the open Schlag/trump must be held by its chooser", variants=w(lambda r: r.ansage == "open")),
    OptionSpec("schlagtausch", ("off", "on"), "on", "E.6, R33", "the Ansager may swap roles",
               variants=w(lambda r: r.schlagtausch)),
    OptionSpec("lead_follows_schlag_role", ("false", "true"), "false", "E.6, R7",
               "after a Schlagtausch the Schlag chooser (the dealer) leads",
               variants=w(lambda r: r.schlagtausch)),
    OptionSpec("ansage_order", ("simultaneous", "schlag_first", "trump_first"),
               {n: r.ansage.removeprefix("blind_") for n, r in t.items() if r.ansage != "open"}, "E.4, R2",
               "order of the blind Ansage", variants=w(lambda r: r.ansage != "open")),
    OptionSpec("rechte_exempt", ("true", "false"), "true", "T1.6, E.8, R3(d)", "the Rechte is never forced",
               variants=w(lambda r: not r.kritische, SECTION_ORDER)),
    OptionSpec("linke_may_follow_trump", ("true", "false"), "true", "T1.6, E.8, R3(c)",
               "a Linke may be played to a trump lead instead of a trump",
               variants=w(lambda r: not r.kritische, SECTION_ORDER)),
    OptionSpec("guate_lead_is_trump_lead", ("true", "false"), "true", "T2, E.8, R3(b)",
               "a led Guate obliges like a trump",
               variants=w(lambda r: r.guate, SECTION_ORDER)),
    OptionSpec("zugeben_scope", ("every_trick", "first_trick"), "every_trick", "E.8, R3(a), R25",
               "tricks to which the trump-lead rule applies",
               variants=w(lambda r: r.schlagtausch)),
    OptionSpec("guate_when_weli_schlag", ("none", "trump7"), "none", "T2, E.7, R5(b)",
               "Guate when the Weli is the Schlag",
               variants=w(lambda r: r.guate and r.deck == 33, SECTION_ORDER)),
    OptionSpec("last_trick_rule", ("all", "ansager", "off"),
               {n: r.last_trick_rule for n, r in t.items() if r.last_trick_rule}, "T1.8, R14",
               "who is restricted when raising in trick 5 at stake 2", variants=w(lambda r: r.deck == 33)),
    OptionSpec("last_trick_bluff", ("off", "on"), "off", "T1.8",
               "restricted raises may be bluffed and challenged ('Farbe!')",
               variants=w(lambda r: r.deck == 33)),
    OptionSpec("raise_cap", ("none", "points_needed"), "none", "§2.8, R11",
               "points_needed: raise only while own score + stake < target"),
    OptionSpec("tyrolean_gestrichen", ("off", "on"), "off", "T1.9, R26",
               "a struck side plays for 3 or concedes 2",
               variants=w(lambda r: r.end_game == "gestrichen", SECTION_ORDER)),
    OptionSpec("four_points_rule", ("on", "off"), "on", "E.11", "'Es gehen die 4 Punkte'",
               variants=w(lambda r: r.end_game == "four_points")),
    OptionSpec("four_points_decision", ("literal", "before_lead"), "literal", "E.11, R13(c)",
               "when the struck side decides",
               variants=w(lambda r: r.end_game == "four_points")),
    OptionSpec("four_points_refusal_value", (2, 3), 2, "E.11, R13(d)", "points for refusing the 4",
               variants=w(lambda r: r.end_game == "four_points")),
    OptionSpec("four_points_raising", ("none", "trailing_may_raise"), "none", "E.11, R13(b)",
               "whether the trailing side may raise a 4-point hand",
               variants=w(lambda r: r.end_game == "four_points")),
    OptionSpec("first_trick_display", ("whole_hand", "until_trick_2"), "whole_hand", "T3, R21",
               "how long the first trick stays face up",
               variants=w(lambda r: r.face_up_first_trick)),
)


OPTION_SPECS = option_specs()

#: §2.W's constraints between options (the rulebook lists them under the options table): a table
#: with options that contradict each other would play a game no rules describe.
OPTION_RULES = (
    ordered("lock_at", "target", "§2.9, R12"),
    only_with("last_trick_bluff", ("on",), "last_trick_rule", ("all", "ansager"), "T1.8"),
    only_with("lead_follows_schlag_role", ("true",), "schlagtausch", ("on",), "E.6, R7"),
    only_with("four_points_decision", ("before_lead",), "four_points_rule", ("on",), "E.11, R13(c)"),
    only_with("four_points_refusal_value", (3,), "four_points_rule", ("on",), "E.11, R13(d)"),
    only_with("four_points_raising", ("trailing_may_raise",), "four_points_rule", ("on",), "E.11, R13(b)"),
)
