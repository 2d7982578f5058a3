"""What the browser's table needs to know about Battn (the ``"page"`` companion, ``Game.companions``):
the words on its action buttons and what their arguments mean.

Declarations only; ``stich.web.ui.table`` reads them (see its docstring for the names it looks for) and
translates the msgids in the reader's language (this game's catalogue, ``locale/<lang>/LC_MESSAGES/battn.po``).
"""

# ruff: noqa: E501  (each text is one literal: the msgid python -m stich.i18n.extract reads)

from __future__ import annotations

from stich.engine.narration import N_

#: the words on the action buttons (English msgids; the Sappada words stay as they are said)
VERBS = {
    "raise": N_("raise"), "accept": N_("accept"), "fold": N_("fold"), "cut": N_("cut"),
    "cut_done": N_("stop cutting"), "orbi": N_("Orbi"), "orbi_pass": N_("no Orbi"),
    "orbi_accept": N_("accept the Orbi"), "orbi_refuse": N_("refuse the Orbi"),
    "scheanara": N_("Scheanara"), "scheanara_pass": N_("no Scheanara"), "scheanara_yes": N_("yes"),
    "scheanara_no": N_("no"), "schlok": N_("Schlòk"), "trumpf": N_("Trumpf"), "x_play": N_("play the X"),
    "x_decline": N_("decline the X"), "misraise": N_("misraise"), "svista": N_("svista"),
}

#: verbs whose argument is a suit / a rank of the deck
SUIT_VERBS = frozenset({"trumpf"})
RANK_VERBS = frozenset({"schlok"})

#: cards dealt to each seat per turn
HAND_SIZE = 5
#: the page says why a trick was won (``text.trick_reason``: the critici, Il Buono, Uno Buono, trump ...)
EXPLAINS_TRICKS = True

#: seats are numbered counter-clockwise (seat k+1 sits at seat k's right: BT-1.4)
SEATING = "counterclockwise"
#: the state rows shown on the felt (the text companion's labels, English msgids)
FELT_ROWS = (N_("Schlòk · Trumpf"), N_("Stake"), N_("Orbi"), N_("X"))
#: the segnapunti: each team's new total under the old ones, the old ones crossed out
SHEET = "segnapunti"

#: what a decision means, said on its button (``title``) for a player who does not know the word yet
HELP = {
    "cut": N_("Lift this many cards off the pack; a Critico turned up goes to the cutter."),
    "cut_done": N_("No second cut: the deal follows."),
    "orbi": N_("Orbi: a blind raise before the deal: this turn starts at 3; the other team accepts or refuses once the cards are seen."),
    "orbi_pass": N_("Do not call Orbi: the turn starts at its usual stake."),
    "orbi_accept": N_("Play the Orbi turn at 3."),
    "orbi_refuse": N_("Refuse the Orbi: the calling team scores 2 and the turn ends."),
    "scheanara": N_("Scheanara (“nicer ones?”): if the other chooser agrees, both choosers take five new cards."),
    "scheanara_pass": N_("Keep your cards: no new ones."),
    "scheanara_yes": N_("Agree: both choosers take five new cards from the stock."),
    "scheanara_no": N_("Refuse: the hands stay as they are."),
    "schlok": N_("The Schlòk: this rank's card of the Trumpf suit is Il Buono, its other cards the Uno Buono."),
    "trumpf": N_("The Trumpf suit of this turn."),
    "raise": N_("Offer the other team one more point; they accept, raise again, or fold."),
    "pass": N_("No raise now: play goes on."),
    "accept": N_("“Non vado!”: play on at the raised stake."),
    "fold": N_("Give the turn up: the raising team scores the stake before its raise."),
    "x_play": N_("Your team has the X: play this turn at 3."),
    "x_decline": N_("Do not play this turn: the others score 2, not 3."),
    "misraise": N_("The mistaken raise “to three” in an Orbi turn: winning at 3 then scores only 2."),
    "svista": N_("A team picked up the other team's trick: it loses it at the end of the turn."),
}
#: the drop-down lists' labels, where the verb alone says too little
CHOICE_LABELS = {"cut": N_("Cut: cards to lift")}


def action_words(action: str, view: dict, names) -> str | None:
    """A cut by the cards it lifts (``cut: 9 cards``); the other actions in the table's generic words."""
    verb, _sep, arg = action.partition(" ")
    if verb == "cut" and arg.isdigit():
        return names.ngettext(N_("cut: %(n)s card"), N_("cut: %(n)s cards"), int(arg)) % {"n": arg}
    return None

#: the options (``game.option_specs``) as the create form and the table name them: option -> (label, what it
#: changes, {value: its word}); yes/no values are the pages' shared words (``stich.web.ui.env``)
OPTION_WORDS = {
    "ace_rank": (N_("The Ace"), N_("Where the Ace ranks among the plain cards."),
                 {"high": N_("high (above the Rollate)"), "low": N_("low (below the 2)")}),
    "plain_any_suit_wins": (N_("Highest plain card of any suit"),
                            N_("Among plain cards the highest rank of any suit wins (the first played on ties)."),
                            {}),
    "critici_equal": (N_("Critici equal"), N_("The three Critici are equal: the first played wins."), {}),
    "uno_buono_tie": (N_("Several Uno Buono"), N_("Which of several Uno Buono in a trick wins."),
                      {"first_played": N_("the first played"), "last_played": N_("the last played")}),
    "trump_lead_triggers": (N_("Leads that call for trump"), N_("Which leads oblige the others to play a trump."),
                            {"plain_and_buono": N_("a plain trump or Il Buono"),
                             "plain_only": N_("a plain trump only"),
                             "any_trumpf_suit_card": N_("any card of the Trumpf suit")}),
    "follow_rule_first_trick_only": (N_("Trump obligation in trick 1 only"),
                                     N_("The obligation to answer a trump lead holds in the first trick only."), {}),
    "critico_releases_obligation": (N_("A Critico frees the others"),
                                    N_("Once a Critico is in the trick, the later players may play any card."), {}),
    "max_cuts": (N_("Cuts"), N_("How many times the cutter may cut."), {"1": N_("once"), "2": N_("twice")}),
    "cut_next_card_from": (N_("Card after a Critico at the cut"),
                           N_("Where the card that replaces a Critico turned up at the cut comes from."),
                           {"lifted_packet": N_("the lifted packet"), "remaining_packet": N_("the other packet")}),
    "min_packet_size": (N_("Smallest packet at the cut"), N_("Each packet of a cut holds at least this many cards."), {}),
    "deal_pattern": (N_("The deal"), N_("How the five cards are dealt."),
                     {"single_cards": N_("one card at a time"), "3_then_2": N_("3 cards, then 2")}),
    "scheanara_first_speaker": (N_("First to speak in the Scheanara"), N_("Who speaks first in the Scheanara."),
                                {"R": N_("the dealer's right"), "D": N_("the dealer")}),
    "scheanara_max": (N_("Scheanara per turn"), N_("How many times the hands may be exchanged in a turn."), {}),
    "schlok_requires_holding": (N_("Hold the Schlòk"), N_("The dealer's right must hold a card of the rank he names."), {}),
    "raise_alternation": (N_("Teams raise in turn"), N_("After a raise only the other team may raise; off: whenever no raise is pending, either team may."), {}),
    "target": (N_("Points to win"), N_("The points that win the match."), {}),
    "stake_cap": (N_("Highest stake"), N_("Whether raises may take the stake above the match target."),
                  {"none": N_("no limit"), "target": N_("the match target")}),
    "x_threshold": (N_("The X from"), N_("The total that gives a team the X (usually the target minus 2)."), {}),
    "x_fold_at_base_costs_2": (N_("Fold of the X team costs 2"),
                               N_("When the X team folds at stake 3, the others score 2, not 3."), {}),
    "x_team_may_raise": (N_("The X team may raise"), N_("The team with the X may raise and raise again."), {}),
    "orbi_enabled": (N_("Orbi"), N_("A team may call Orbi, a blind raise to 3 before the deal."), {}),
    "orbi_before_cut": (N_("Orbi before the cut"), N_("The Orbi is called before the shuffle and the cut."), {}),
    "orbi_counts_as_raise": (N_("Orbi counts as a raise"), N_("An accepted Orbi counts as the calling team's raise; off: both teams may raise next."), {}),
    "kritish": (N_("Kritish"), N_("Only the dealer and his right look at their cards before the choice."), {}),
    "partners_see_hands": (N_("Partners see each other's hands"),
                           N_("Each player sees his partner's hand."), {}),
    "manual_mode": (N_("Bookkeeping actions"), N_("The table offers the mistaken raise and the svista, for playing as at a real table."), {}),
    "first_dealer": (N_("First dealer"), N_("How the first dealer is chosen."),
                     {"draw": N_("by a draw"), "random": N_("at random")}),
}
