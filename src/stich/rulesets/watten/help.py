"""What each Watten action means, in words, for ``help ACTION`` at the table (docs/rules/watten.md).

``HELP``: one text per verb; ``RULE_HELP``: the texts a rule of the variant table changes (the Bavarian
follow rule, the Ansager-only trump lead, the Euregio Schönere, the 4-point hand), which ``variant_help``
gives a variant whose row has the rule.
"""

# ruff: noqa: E501  (each text is one literal, the msgid python -m stich.i18n.extract reads)

from stich.engine.narration import N_

HELP = {
    "cut": N_("cut N: the cutter (the dealer's right) lifts N cards off the pack; 'cut' alone cuts at random. Bavarian Watten: a Kritische (Max, Belli, Spitz) at the bottom of the lifted packet is shown and dealt to the cutter, the next to the dealer (rules §2.4, B1)."),
    "schlag": N_("schlag R: name the Schlag, the rank that beats everything but the Kritische and Guate: the Schlag of the trump suit is the Rechte (Bavarian: Hauptschlag), the other three are the Linke (Blinde), and the first Linke played beats a later one (rules §2.3, §2.5)."),
    "trump": N_("trump S: name the trump suit (H Herz, S Schellen, E Eichel, L Laub); its cards beat every plain card, the Schlag cards beat them (rules §2.3, §2.5)."),
    "show": N_("show CARD: in the blind Ansage you choose by showing one of your cards to the other Ansager only: its rank is the Schlag (the Weli means Schlag 6) or its suit is the trump (the Weli means Schellen). The two others are never told (rules §2.5, T3, E.4)."),
    "play": N_("play CARD: play a card to the trick ('eo' alone also plays it). When a trump is led, a player who holds a trump must play a trump or a Linke (never forced: the Rechte); nobody has to beat; any other lead leaves everyone free (rules §2.6, T1.6)."),
    "raise": N_("raise: offer the other side one more point for this hand ('bieten'). They accept, raise again, or fold and give you the hand at the stake before your raise. A side at the lock score (gestrichen) may not raise (rules §2.8, §2.9)."),
    "accept": N_("accept: play on at the raised stake; your side may raise next (rules §2.8)."),
    "fold": N_("fold: give the hand up; the raising side scores the stake as it stood before this raise (rules §2.8)."),
    "challenge": N_("challenge: answer a raise made on the last trick with “Farbe!”: the raiser must show he could beat; if he could not, your side scores (option last_trick_bluff, rules T1.8)."),
    "hold": N_("hold: your side is struck (gestrichen) and the hand is played for a fixed value: you play it (rules E.11, T1.9)."),
    "concede": N_("concede: your side is struck and gives the fixed-value hand up without playing: the other side scores (rules E.11, T1.9)."),
    "ask_exchange": N_("ask_exchange: as forehand, before the Schlag, ask the dealer for the Schönere: if he agrees, you both put your hands away and take five new cards each from the stock; once a deal (rules §2.10, T1.5)."),
    "agree_exchange": N_("agree_exchange: accept the Schönere: both Ansager take five new cards (rules §2.10)."),
    "refuse_exchange": N_("refuse_exchange: keep the hands; no more Schönere in this deal (rules §2.10)."),
    "ask_swap": N_("ask_swap: propose the Schlagtausch: if the other Ansager agrees, the trump chooser names the Schlag and the Schlag chooser the trump. Only before either card is shown (rules E.6)."),
    "agree_swap": N_("agree_swap: accept the Schlagtausch: the two Ansager swap Schlag and trump (rules E.6)."),
    "refuse_swap": N_("refuse_swap: keep the roles as they are (rules E.6)."),
}

#: a rule of the variant table's rows (field, value) -> the verbs whose text it changes; a variant's own
#: texts are those of the rules its row has, so a new row is explained without naming it
RULE_HELP = {
    ("follow", "hauptschlag_first_trick"): {
        "play": N_("play CARD: play any card ('eo' alone also plays it). Only in trick 1, when the Hauptschlag is led, whoever holds a trump must play one, until somebody has played a Kritische (rules §2.6, B1.5)."),
    },
    ("follow", "trump_lead_ansager"): {
        "play": N_("play CARD: play a card to the trick ('eo' alone also plays it). When a trump is led only the two Ansager must play a trump; the two others may play any card (rules T3, E.8)."),
    },
    ("exchange", "euregio"): {
        "ask_exchange": N_("ask_exchange: ask the other Ansager for the Schönere (“more beautiful” cards): if he agrees, you both put your hands away and take five new cards each from the pack; the Ansage, if done, starts again. Possible until the first card, a raise or a refusal; a third agreed request redeals the whole hand (rules E.5)."),
    },
    ("end_game", "four_points"): {
        "hold": N_("hold: your side is struck at 16 and the other side is not: the hand is worth 4 points (“es gehen die 4 Punkte”) and you decide to play it (rules E.11)."),
        "concede": N_("concede: your side is struck and gives the 4-point hand up: the other side scores 2 (rules E.11)."),
    },
}


def variant_help(game) -> dict:
    """The texts of ``game``'s variant where its rules differ from ``HELP``: those of its row's rules."""
    out: dict = {}
    for (field, value), texts in RULE_HELP.items():
        if getattr(game.row, field) == value:
            out.update(texts)
    return out


#: the game's own words, as the table and the narration use them (rules §0.4)
WORDS = {
    "schlag": N_("Schlag: the rank chosen for this hand; its cards beat every plain trump (rules §0.4, §2.3)."),
    "trump": N_("trump (Trumpf, Farbe): the suit chosen for this hand (rules §0.4)."),
    "rechte": N_("Rechte (Rechter; Bavarian: Hauptschlag): the card with both the Schlag rank and the trump suit, the highest card but the Kritische and the Guate (rules §0.4, §2.3)."),
    "hauptschlag": N_("Hauptschlag: the Bavarian name of the Rechte, the Schlag card of the trump suit (rules §0.4)."),
    "guate": N_("Guate (il Buono): in the South-Tyrolean games the trump one rank above the Rechte, the highest card of all (rules §0.4, E.7)."),
    "linke": N_("Linke (Bavarian: Blinde): the Schlag cards of the other suits; equal, the first played wins (rules §0.4, §2.3)."),
    "blinde": N_("Blinde: the Bavarian name of the Linke, the Schlag cards of the other suits (rules §0.4)."),
    "kritische": N_("Kritische: the Bavarian permanent top trumps, Max (HK) > Belli (S7) > Spitz (E7) (rules §0.4, B1.1)."),
    "max": N_("Max: HK, the highest Kritische (rules B1.1)."),
    "belli": N_("Belli: S7, the second Kritische (rules B1.1)."),
    "spitz": N_("Spitz: E7, the third Kritische (rules B1.1)."),
    "weli": N_("Weli: the Schellen six, the 33rd card; a Schlag of its own (6) where it is played (rules §0.4, §1.4)."),
    "ansager": N_("Ansager: the two players who fix Schlag and trump, forehand and the dealer (rules §0.4, §2.5)."),
    "forehand": N_("forehand (Vorhand): the player after the dealer; he chooses the Schlag and leads (rules §0.3)."),
    "gestrichen": N_("gestrichen: a side that has reached the lock score (two below the target) may no longer offer a raise; it may still accept or fold one (rules §0.4, §2.9)."),
    "stake": N_("stake: what the hand is worth, 2 points at first, one more for each accepted raise (rules §2.7, §2.8)."),
    "schönere": N_("Schönere: the two Ansager lay their hands aside and take five new cards each (rules §2.10)."),
    "schlagtausch": N_("Schlagtausch: the two Ansager swap their jobs, Schlag and trump (rules E.6)."),
    "zugeben": N_("Zugeben: the duty to play a trump when a trump is led (rules §0.4, §2.6)."),
    "maschine": N_("Maschine: holding all three Kritische; with the option on, that side scores 2 at once (rules §0.4, R20)."),
}
