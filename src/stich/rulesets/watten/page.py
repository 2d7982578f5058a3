"""What the browser's table needs to know about Watten (the ``"page"`` companion, ``Game.companions``):
the words on its action buttons, the regional call said next to a verb, what its arguments mean.

Declarations only; ``stich.web.ui.table`` reads them (see its docstring for the names it looks for) and
translates the msgids in the reader's language (this game's catalogue, ``locale/<lang>/LC_MESSAGES/watten.po``).
"""

# ruff: noqa: E501  (each text is one literal: the msgid python -m stich.i18n.extract reads)

from __future__ import annotations

from stich.engine.narration import N_

#: the words on the action buttons (English msgids)
VERBS = {
    "raise": N_("raise"), "accept": N_("accept"), "fold": N_("fold"), "cut": N_("cut"), "schlag": N_("Schlag"),
    "trump": N_("trump"), "show": N_("show"), "challenge": N_("challenge (Farbe!)"), "hold": N_("hold"),
    "concede": N_("concede"), "ask_exchange": N_("ask for the Schönere"), "agree_exchange": N_("agree to the Schönere"),
    "refuse_exchange": N_("refuse the Schönere"), "ask_swap": N_("ask for the Schlagtausch"),
    "agree_swap": N_("agree to the Schlagtausch"), "refuse_swap": N_("refuse the Schlagtausch"),
}

#: the regional calls said next to the verb, per variant ("*": every other), untranslated: they are the
#: table's own words (docs/rules/watten.md §2.8: "gehen" raises in Bavaria and Tyrol but gives up in South
#: Tyrol, where one raises by "bieten")
CALLS = {
    "euregio": {"raise": "bieten", "fold": "gehen", "hold": "heben", "concede": "gehen"},
    "*": {"raise": "gehen", "accept": "schauen"},
}

#: verbs whose argument is a suit / a rank of the deck
SUIT_VERBS = frozenset({"trump"})
RANK_VERBS = frozenset({"schlag"})
#: arguments with a name of their own: the Schlag 6 is the Weli's (§1.4)
ARG_WORDS = {("schlag", "6"): "Weli"}

#: cards dealt to each seat per hand (the rest of the pack stays undealt)
HAND_SIZE = 5
#: the page says why a trick was won (``text.trick_reason``: Kritische, Guate, Rechte, Linke, trump ...)
EXPLAINS_TRICKS = True
#: the variants as the pages name them (the engine's names are identifiers: ``bavarian_4``)
VARIANTS = {
    "euregio": N_("Euregio"), "bavarian_4": N_("Bavarian, 4 players"), "bavarian_3": N_("Bavarian, 3 players"),
    "bavarian_2": N_("Bavarian, 2 players"), "tyrolean": N_("Tyrolean"), "guate": N_("Tyrolean with the Guate"),
    "blind": N_("Blind Watten"),
}

#: seats are numbered clockwise (the next seat sits on the left: docs/rules/watten.md §0.3)
SEATING = "clockwise"
#: the state rows shown on the felt (the text companion's labels, English msgids)
FELT_ROWS = (N_("Schlag, trump"), N_("Schlag"), N_("Trump"), N_("Stake"), N_("Decision"))
#: the board: each side's points as strokes, a side's column struck through at the lock (E.10)
SHEET = "strokes"


def struck(game, total: int) -> bool:
    """A side at the lock (target - 2) is gestrichen: its column is struck through (E.10)."""
    return total >= game.lock_at

#: what a decision means, said on its button (``title``) for a player who does not know the word yet
HELP = {
    "ask_exchange": N_("Schönere: both Ansager put their hands away and take five new cards, if the other agrees."),
    "agree_exchange": N_("Schönere: both Ansager put their hands away and take five new cards."),
    "refuse_exchange": N_("Keep these cards: the Ansage goes on with the hands as dealt."),
    "ask_swap": N_("Schlagtausch: you and the dealer swap who names the Schlag and who names the trump, if he agrees."),
    "agree_swap": N_("Schlagtausch: the two Ansager swap who names the Schlag and who names the trump."),
    "refuse_swap": N_("The Ansager keep their roles: forehand names the Schlag, the dealer the trump."),
    "raise": N_("Offer to play the hand for one point more; the other side accepts or gives up the hand."),
    "accept": N_("Play on for the higher stake."),
    "fold": N_("Give up the hand: the other side scores the stake before the raise."),
    "hold": N_("Play the hand on for the stake (the side that is struck may raise no more)."),
    "concede": N_("Give up the hand: the other side scores the points now."),
    "challenge": N_("Farbe!: you say the raiser may not raise here; if the cards show you are right, the raise costs them."),
    "show": N_("Ansage: the card you show names the Schlag (its rank) or the trump (its suit), by your role."),
    "schlag": N_("The Schlag: the rank whose cards (the Rechte and the Linke) beat every trump; only the Kritische and the Guate beat them."),
    "trump": N_("The trump suit: its cards beat the other suits; its Schlag card is the Rechte."),
    "cut": N_("Lift this many cards off the pack; the bottom card of the lifted packet is shown."),
}
#: the drop-down lists' labels, where the verb alone says too little
CHOICE_LABELS = {"cut": N_("Cut: cards to lift")}


def action_words(action: str, view: dict, names) -> str | None:
    """The Ansage by what it names, the card shown after: ``Schlag: Neun (gezeigt mit der Herz-Neun)``, ``Trumpf:
    Herz (...)``, by the reader's role in this hand (``schlag_seat``, ``trump_seat``); a cut by its cards."""
    from stich.rulesets.watten.text import rank_text, suit_text
    verb, _sep, arg = action.partition(" ")
    _ = names._
    if verb == "show" and names.is_card(arg):
        seat, deck = view.get("seat"), names.deck
        card = deck.parse(arg)
        values = {"card": names.card(arg)}
        if seat is not None and seat == view.get("schlag_seat"):
            return _("Schlag: %(rank)s (shown with %(card)s)") % {
                **values, "rank": rank_text(deck.rank_codes[deck.rank(card)], names)}
        if seat is not None and seat == view.get("trump_seat"):
            return _("Trump: %(suit)s (shown with %(card)s)") % {
                **values, "suit": suit_text(deck.suit_codes[deck.suit(card)], names)}
        return _("show %(card)s") % values
    if verb == "cut" and arg.isdigit():
        return names.ngettext(N_("cut: %(n)s card"), N_("cut: %(n)s cards"), int(arg)) % {"n": arg}
    return None


#: the reader's own hand while it lies dealt but unseen: the cutter and the Ansager's partner look at their
#: cards after the Ansage (rules §2.4, R30)
HIDDEN_HAND = N_("Your five cards lie face down: you look at them when the Ansage is over (rules §2.4).")

#: the options (``options.option_specs``) as the create form and the table name them: option -> (label, what
#: it changes, {value: its word}); on/off and true/false are the pages' shared words (``stich.web.ui.env``)
OPTION_WORDS = {
    "direction": (N_("Direction of play"), N_("The direction of deal and play; seats are numbered clockwise either way."),
                  {"clockwise": N_("clockwise"), "anticlockwise": N_("anticlockwise")}),
    "target": (N_("Points to win"), N_("The points that win the game."), {}),
    "lock_at": (N_("Gestrichen from"), N_("From this score a side may not offer raises (usually the target minus 2)."), {}),
    "deal_packets": (N_("Deal packets"), N_("How the five cards of each hand are dealt."),
                     {"3+2": N_("3 cards, then 2"), "2+3": N_("2 cards, then 3")}),
    "maschine": (N_("Maschine"), N_("All three Kritische in one hand end it at once, for 2 points."), {}),
    "three_player_trump_chooser": (N_("Who names the trump (three players)"),
                                   N_("Who names the trump suit when three play."),
                                   {"forehand": N_("forehand"), "dealer": N_("the dealer")}),
    "open_schlag_must_be_held": (N_("Hold what you name"), N_("Who names the Schlag or the trump openly must hold a card of it."), {}),
    "schlagtausch": (N_("Schlagtausch"), N_("The Ansager may swap who names the Schlag and who names the trump."), {}),
    "lead_follows_schlag_role": (N_("Lead after a Schlagtausch"), N_("After a Schlagtausch the one who named the Schlag (the dealer) leads."), {}),
    "ansage_order": (N_("Order of the blind Ansage"), N_("Who shows the card first in the hidden Ansage."),
                     {"simultaneous": N_("both at once"), "schlag_first": N_("the Schlag first"),
                      "trump_first": N_("the trump first")}),
    "rechte_exempt": (N_("The Rechte is never forced"), N_("Nobody must play the Rechte to a trump lead."), {}),
    "linke_may_follow_trump": (N_("A Linke answers a trump lead"),
                               N_("A Linke may be played to a trump lead instead of a trump."), {}),
    "guate_lead_is_trump_lead": (N_("A led Guate is a trump lead"),
                                 N_("A led Guate obliges the others like a trump."), {}),
    "zugeben_scope": (N_("Trump-lead rule"), N_("The tricks in which a trump lead obliges the others."),
                      {"every_trick": N_("every trick"), "first_trick": N_("the first trick only")}),
    "guate_when_weli_schlag": (N_("Guate when the Weli is the Schlag"),
                               N_("With the Weli as the Schlag, whether the trump Seven is the Guate."),
                               {"none": N_("no Guate"), "trump7": N_("the trump Seven")}),
    "last_trick_rule": (N_("Raising in the last trick"),
                        N_("At 2 tricks each, who may raise after trick 5 is led only with a card that follows, a trump or a Schlag card."),
                        {"all": N_("everybody"), "ansager": N_("the Ansager"), "off": N_("nobody (no rule)")}),
    "last_trick_bluff": (N_("Bluff in the last trick"), N_("Such a raise may be bluffed and challenged (“Farbe!”)."), {}),
    "raise_cap": (N_("Raising limit"), N_("Whether a side may raise beyond the points it still needs."),
                  {"none": N_("no limit"), "points_needed": N_("only while score plus stake is below the target")}),
    "tyrolean_gestrichen": (N_("A struck side plays for 3"), N_("A struck side plays for 3 or gives up 2."), {}),
    "four_points_rule": (N_("The 4 points"), N_("“Es gehen die 4 Punkte”: a struck side 4 or more ahead plays for a fixed 4 or gives up 2."), {}),
    "four_points_decision": (N_("When the 4 points are decided"), N_("When the struck side says whether it plays."),
                             {"literal": N_("as the rules say it"), "before_lead": N_("before the first card")}),
    "four_points_refusal_value": (N_("Points for giving up the 4"),
                                  N_("What the trailing side scores when the struck side gives up."), {}),
    "four_points_raising": (N_("Raising a 4-point hand"), N_("Whether the trailing side may raise a 4-point hand."),
                            {"none": N_("nobody raises"), "trailing_may_raise": N_("the trailing side may")}),
    "first_trick_display": (N_("First trick face up"), N_("How long the first trick stays face up."),
                            {"whole_hand": N_("the whole hand"), "until_trick_2": N_("until trick 2")}),
}
