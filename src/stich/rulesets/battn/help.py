"""What each Battn action means, in words, for ``help ACTION`` at the table (docs/rules/battn.md)."""

HELP = {
    "cut": "cut N: the player on the dealer's left lifts N cards; 'cut' alone cuts at random. A Critico "
           "turned up at the cut goes to the cutter, the next to the dealer (rules A3.6, BT-5).",
    "cut_done": "cut_done: no second cut; the deal follows (rules A3.6, BT-5.2).",
    "orbi": "orbi: call Orbi before the deal: this turn's base becomes 3. The other team accepts or refuses "
            "once the cards are seen (option orbi_enabled, rules A3.16, BT-16).",
    "orbi_pass": "orbi_pass: do not call Orbi (rules A3.16).",
    "orbi_accept": "orbi_accept: play the Orbi turn at 3 (rules BT-16.3).",
    "orbi_refuse": "orbi_refuse: refuse the Orbi: the calling team scores 2 and the turn ends (rules BT-16.3).",
    "scheanara": "scheanara: ask “Scheanara?” (nicer ones?): if the other chooser agrees, the dealer and his "
                 "right both take five new cards from the stock; at most twice a turn (rules A3.9, BT-8).",
    "scheanara_pass": "scheanara_pass: you do not ask for new cards (rules BT-8.2).",
    "scheanara_yes": "scheanara_yes: agree: both choosers take five new cards (rules BT-8.3).",
    "scheanara_no": "scheanara_no: refuse: the hands stay and the choice follows (rules BT-8.2).",
    "schlok": "schlok R: name the Schlòk, a rank: its card of the Trumpf suit is Il Buono, its other cards are "
              "the Uno Buono, above every trump but below the Critici (rules A3.10, A3.11).",
    "trumpf": "trumpf S: name the Trumpf suit (Po, St, Ra, Sc) (rules A3.10).",
    "play": "play CARD: play a card to the trick. If a plain trump or Il Buono is led you must play a plain "
            "trump if you have one; Critici and Buoni are never forced (rules A3.13, BT-12.4). Three tricks "
            "win the turn.",
    "raise": "raise: offer the other team one more point (“Tre?”, “Quattro?” …); they accept (“Non vado!”), "
             "raise again, or fold and give you the stake before your raise (rules A3.14).",
    "pass": "pass: you do not raise now; play goes on (rules BT-14.4).",
    "accept": "accept: “Non vado!”: play on at the raised stake; your team may raise next (rules BT-14.5).",
    "fold": "fold: give the turn up: the raising team scores the stake before its raise (rules BT-14.5).",
    "x_play": "x_play: your team has the X (19 points): you play this turn at base 3 (rules A3.15).",
    "x_decline": "x_decline: your team has the X and will not play this turn: the others score 2, not 3 "
                 "(rules BT-15.4).",
    "misraise": "misraise: (manual mode) the mistaken raise “to three” in an Orbi turn: if your team then wins "
                "at 3 it scores only 2 (rules BT-16.5).",
    "svista": "svista TEAM: (manual mode) a team picked up the other team's trick: at the end of the turn the "
              "mistaken team loses it (rules A3.17).",
}

#: the game's own words, as the table and the narration use them (rules A2)
WORDS = {
    "critici": "Critici (Krittn): the three fixed top cards, Barba (PoK) > Belli (St4) > Spitz (Ra7) "
               "(rules A1.2).",
    "barba": "Barba: PoK, the highest Critico (rules A1.2).",
    "belli": "Belli: St4, the second Critico (rules A1.2).",
    "spitz": "Spitz: Ra7, the third Critico (rules A1.2).",
    "il buono": "Il Buono: the Schlòk card of the Trumpf suit, just below the Critici (rules A2, A3.11).",
    "uno buono": "Uno Buono: a Schlòk card of another suit, below Il Buono; the first played wins (rules A2).",
    "x": "X: the mark of the first team to reach 19; from the next turn every turn has base 3 (rules A3.15).",
    "stake": "stake: what the turn is worth, the base (2, or 3 after the X or an Orbi) plus one for each "
             "accepted raise (rules A3.14).",
    "roles": "roles: D the dealer, R his right (chooses the Schlòk, plays first), P the dealer's partner, "
             "L his left (cuts) (rules A3.1).",
    "schlòk": "Schlòk: the rank named for the turn by the dealer's right; its cards are Il Buono and the Uno "
              "Buono (rules A2, A3.10).",
    "orbi": "Orbi: a blind raise to 3 called before the deal; the other team accepts or refuses it once the "
            "cards are seen (rules A3.16).",
    "scheanara": "Scheanara (“nicer ones?”): the dealer and his right swap both their hands for new cards "
                 "from the stock, if both want it (rules A2, A3.9).",
}
