"""The options of Watten: exactly the table of the rules file §2.W (names, values, defaults)."""

from __future__ import annotations

from stich.engine import OptionSpec

VARIANTS = ("euregio", "bavarian_4", "bavarian_3", "bavarian_2", "tyrolean", "guate", "blind")
BAVARIAN = ("bavarian_4", "bavarian_3", "bavarian_2")
DECK33 = ("euregio", "tyrolean", "guate", "blind")
OPEN = ("bavarian_4", "bavarian_3", "bavarian_2", "tyrolean", "guate")
TYROLEAN_FAMILY = ("tyrolean", "guate", "blind", "euregio")

TARGET = {"bavarian_4": 11, "bavarian_3": 11, "bavarian_2": 11,
          "tyrolean": 15, "guate": 15, "blind": 15, "euregio": 18}

OPTION_SPECS = (
    OptionSpec("direction", ("clockwise", "anticlockwise"), "clockwise", "§0.3, R1",
               "direction of play; seats are numbered clockwise either way"),
    OptionSpec("target", int, dict(TARGET), "§2.9, §2.11", "points that win the game", minimum=1),
    OptionSpec("lock_at", int, {v: t - 2 for v, t in TARGET.items()}, "§2.9, R12",
               "a side with at least this score may not offer raises (default target - 2)", minimum=0),
    OptionSpec("deal_packets", ("3+2", "2+3"), "3+2", "§2.1", "packets of the deal"),
    OptionSpec("maschine", ("off", "on"), "off", "B1.7, R20", "all three Kritische end the hand, 2 points",
               variants=BAVARIAN),
    OptionSpec("three_player_trump_chooser", ("forehand", "dealer"), "forehand", "B3, R18",
               "who names the trump suit with three players", variants=("bavarian_3",)),
    OptionSpec("open_schlag_must_be_held", ("false", "true"), "false", "§2.5, R23",
               "the open Schlag/trump must be held by its chooser", variants=OPEN),
    OptionSpec("schlagtausch", ("off", "on"), "on", "E.6, R33", "the Ansager may swap roles",
               variants=("euregio",)),
    OptionSpec("lead_follows_schlag_role", ("false", "true"), "false", "E.6, R7",
               "after a Schlagtausch the Schlag chooser (the dealer) leads", variants=("euregio",)),
    OptionSpec("ansage_order", ("simultaneous", "schlag_first", "trump_first"),
               {"euregio": "simultaneous", "blind": "schlag_first"}, "E.4, R2", "order of the blind Ansage",
               variants=("euregio", "blind")),
    OptionSpec("rechte_exempt", ("true", "false"), "true", "T1.6, E.8, R3(d)", "the Rechte is never forced",
               variants=TYROLEAN_FAMILY),
    OptionSpec("linke_may_follow_trump", ("true", "false"), "true", "T1.6, E.8, R3(c)",
               "a Linke may be played to a trump lead instead of a trump", variants=TYROLEAN_FAMILY),
    OptionSpec("guate_lead_is_trump_lead", ("true", "false"), "true", "T2, E.8, R3(b)",
               "a led Guate obliges like a trump", variants=("guate", "blind", "euregio")),
    OptionSpec("zugeben_scope", ("every_trick", "first_trick"), "every_trick", "E.8, R3(a), R25",
               "tricks to which the trump-lead rule applies", variants=("euregio",)),
    OptionSpec("guate_when_weli_schlag", ("none", "trump7"), "none", "T2, E.7, R5(b)",
               "Guate when the Weli is the Schlag", variants=("guate", "blind", "euregio")),
    OptionSpec("last_trick_rule", ("all", "ansager", "off"),
               {"tyrolean": "all", "guate": "all", "blind": "ansager", "euregio": "off"}, "T1.8, R14",
               "who is restricted when raising in trick 5 at stake 2", variants=DECK33),
    OptionSpec("last_trick_bluff", ("off", "on"), "off", "T1.8",
               "restricted raises may be bluffed and challenged ('Farbe!')", variants=DECK33),
    OptionSpec("raise_cap", ("none", "points_needed"), "none", "§2.8, R11",
               "points_needed: raise only while own score + stake < target"),
    OptionSpec("tyrolean_gestrichen", ("off", "on"), "off", "T1.9, R26",
               "a struck side plays for 3 or concedes 2", variants=("tyrolean", "guate", "blind")),
    OptionSpec("four_points_rule", ("on", "off"), "on", "E.11", "'Es gehen die 4 Punkte'",
               variants=("euregio",)),
    OptionSpec("four_points_decision", ("literal", "before_lead"), "literal", "E.11, R13(c)",
               "when the struck side decides", variants=("euregio",)),
    OptionSpec("four_points_refusal_value", (2, 3), 2, "E.11, R13(d)", "points for refusing the 4",
               variants=("euregio",)),
    OptionSpec("four_points_raising", ("none", "trailing_may_raise"), "none", "E.11, R13(b)",
               "whether the trailing side may raise a 4-point hand", variants=("euregio",)),
    OptionSpec("first_trick_display", ("whole_hand", "until_trick_2"), "whole_hand", "T3, R21",
               "how long the first trick stays face up", variants=("blind",)),
)
