"""What each Battn action means, in words, for ``help ACTION`` at the table (docs/rules/battn.md)."""

# ruff: noqa: E501  (each text is one literal, the msgid python -m stich.i18n.extract reads)

from stich.engine.narration import N_

HELP = {
    "cut": N_("cut N: the player on the dealer's left lifts N cards; 'cut' alone cuts at random. A Critico turned up at the cut goes to the cutter, the next to the dealer (rules A3.6, BT-5)."),
    "cut_done": N_("cut_done: no second cut; the deal follows (rules A3.6, BT-5.2)."),
    "orbi": N_("orbi: call Orbi before the deal: this turn's base becomes 3. The other team accepts or refuses once the cards are seen (option orbi_enabled, rules A3.16, BT-16)."),
    "orbi_pass": N_("orbi_pass: do not call Orbi (rules A3.16)."),
    "orbi_accept": N_("orbi_accept: play the Orbi turn at 3 (rules BT-16.3)."),
    "orbi_refuse": N_("orbi_refuse: refuse the Orbi: the calling team scores 2 and the turn ends (rules BT-16.3)."),
    "scheanara": N_("scheanara: ask “Scheanara?” (nicer ones?): if the other chooser agrees, the dealer and his right both take five new cards from the stock; at most twice a turn (rules A3.9, BT-8)."),
    "scheanara_pass": N_("scheanara_pass: you do not ask for new cards (rules BT-8.2)."),
    "scheanara_yes": N_("scheanara_yes: agree: both choosers take five new cards (rules BT-8.3)."),
    "scheanara_no": N_("scheanara_no: refuse: the hands stay and the choice follows (rules BT-8.2)."),
    "schlok": N_("schlok R: name the Schlòk, a rank: its card of the Trumpf suit is Il Buono, its other cards are the Uno Buono, above every trump but below the Critici (rules A3.10, A3.11)."),
    "trumpf": N_("trumpf S: name the Trumpf suit (Po, St, Ra, Sc) (rules A3.10)."),
    "play": N_("play CARD: play a card to the trick. If a plain trump or Il Buono is led you must play a plain trump if you have one; Critici and Buoni are never forced (rules A3.13, BT-12.4). Three tricks win the turn."),
    "raise": N_("raise: offer the other team one more point (“Tre?”, “Quattro?” …); they accept (“Non vado!”), raise again, or fold and give you the stake before your raise (rules A3.14)."),
    "pass": N_("pass: you do not raise now; play goes on (rules BT-14.4)."),
    "accept": N_("accept: “Non vado!”: play on at the raised stake; your team may raise next (rules BT-14.5)."),
    "fold": N_("fold: give the turn up: the raising team scores the stake before its raise (rules BT-14.5)."),
    "x_play": N_("x_play: your team has the X (19 points): you play this turn at base 3 (rules A3.15)."),
    "x_decline": N_("x_decline: your team has the X and will not play this turn: the others score 2, not 3 (rules BT-15.4)."),
    "misraise": N_("misraise: (manual mode) the mistaken raise “to three” in an Orbi turn: if your team then wins at 3 it scores only 2 (rules BT-16.5)."),
    "svista": N_("svista TEAM: (manual mode) a team picked up the other team's trick: at the end of the turn the mistaken team loses it (rules A3.17)."),
}

#: the game's own words, as the table and the narration use them (rules A2)
WORDS = {
    "critici": N_("Critici (Krittn): the three fixed top cards, Barba (PoK) > Belli (St4) > Spitz (Ra7) (rules A1.2)."),
    "barba": N_("Barba: PoK, the highest Critico (rules A1.2)."),
    "belli": N_("Belli: St4, the second Critico (rules A1.2)."),
    "spitz": N_("Spitz: Ra7, the third Critico (rules A1.2)."),
    "il buono": N_("Il Buono: the Schlòk card of the Trumpf suit, just below the Critici (rules A2, A3.11)."),
    "uno buono": N_("Uno Buono: a Schlòk card of another suit, below Il Buono; the first played wins (rules A2)."),
    "x": N_("X: the mark of the first team to reach 19; from the next turn every turn has base 3 (rules A3.15)."),
    "stake": N_("stake: what the turn is worth, the base (2, or 3 after the X or an Orbi) plus one for each accepted raise (rules A3.14)."),
    "roles": N_("roles: D the dealer, R his right (chooses the Schlòk, plays first), P the dealer's partner, L his left (cuts) (rules A3.1)."),
    "schlòk": N_("Schlòk: the rank named for the turn by the dealer's right; its cards are Il Buono and the Uno Buono (rules A2, A3.10)."),
    "orbi": N_("Orbi: a blind raise to 3 called before the deal; the other team accepts or refuses it once the cards are seen (rules A3.16)."),
    "scheanara": N_("Scheanara (“nicer ones?”): the dealer and his right swap both their hands for new cards from the stock, if both want it (rules A2, A3.9)."),
}
