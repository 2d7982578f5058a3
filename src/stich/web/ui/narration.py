"""The one door from the pages to the terminal's narration (``stich.cli.render`` and the games'
``stich.cli.<game>_text`` modules).

The browser tells events in the same words as the terminal.  Everything the pages need from that
code goes through this module, so when the narration moves (e.g. into the game packages) only the
imports below change.
"""

from __future__ import annotations

from rich.text import Text

from stich.cli.render import Names, describe_event, game_text, hand_result  # noqa: F401  (re-exported)


def plain(markup: str) -> str:
    """A Rich-markup line as plain text (``[bold]You[/bold]`` -> ``You``)."""
    try:
        return Text.from_markup(markup).plain
    except Exception:   # a line that is not valid markup is shown as it is
        return markup


def names_for(game, lang: str, seat: int | None) -> Names:
    """Card and seat names of a game in a language, ``seat`` being the reader (None: a spectator)."""
    return Names(game, lang, seat)


#: generic events told here in the reader's language (the terminal's text for them is English);
#: a game's own sentences (its ``TELLERS``) are the terminal's, word for word
LOCAL = frozenset({"play", "trick", "hand_start", "deal", "scores"})


def local_line(ev: dict, names: Names, _, seat_label) -> str | None:
    """A generic event in the reader's language; None when it is not one of LOCAL's."""
    t, me = ev.get("type"), names.human
    seat = ev.get("seat")
    if t == "play" and names.is_card(ev.get("card")):
        card = names.card(ev["card"])
        return _("You play %(card)s.") % {"card": card} if seat == me and me is not None \
            else _("%(seat)s plays %(card)s.") % {"seat": seat_label(seat), "card": card}
    if t == "trick" and isinstance(ev.get("winner"), int):
        w = ev["winner"]
        return _("You win the trick.") if w == me and me is not None \
            else _("%(seat)s wins the trick.") % {"seat": seat_label(w)}
    if t == "hand_start":
        if isinstance(ev.get("dealer"), int):
            return _("Hand %(n)s, dealer %(seat)s.") % {"n": ev.get("hand"), "seat": seat_label(ev["dealer"])}
        return _("Hand %(n)s.") % {"n": ev.get("hand")}
    if t == "deal" and isinstance(ev.get("cards"), list):
        cards = ", ".join(names.card(c) for c in ev["cards"])
        if seat == me and me is not None:
            return (_("You now hold: %(cards)s.") if ev.get("replace") else _("You receive: %(cards)s.")) \
                % {"cards": cards}
        return _("%(seat)s receives: %(cards)s.") % {"seat": seat_label(seat), "cards": cards}
    if t == "scores" and isinstance(ev.get("scores"), list):
        return _("Scores: %(scores)s.") % {"scores": scores_line(ev["scores"], names, _, seat_label)}
    return None


def scores_line(scores: list, names: Names, _, seat_label) -> str:
    n = names.game.num_players
    if len(scores) == n:
        return ", ".join(f"{seat_label(i)} {v}" for i, v in enumerate(scores))
    if len(scores) > 1 and n % len(scores) == 0:
        step = len(scores)
        return ", ".join(_("Side %(n)s") % {"n": i + 1} + f" ({'+'.join(str(s + 1) for s in range(i, n, step))}) {v}"
                         for i, v in enumerate(scores))
    return ", ".join(map(str, scores))


def event_lines(events: list[dict], names: Names, _=None, seat_label=None) -> list[str]:
    """One plain sentence per event worth telling, in order (events with nothing to say are left out).

    With ``_`` (gettext) and ``seat_label``, LOCAL's events are told in the reader's language; the
    rest in the terminal's words."""
    own = game_text(names.game)
    out = []
    for ev in events:
        line = None
        try:
            if _ is not None and ev.get("type") in LOCAL and (own is None or ev.get("type") not in own.TELLERS):
                line = local_line(ev, names, _, seat_label)
            if line is None:
                line = describe_event(ev, names)
        except Exception:   # a narration bug must not take the table down: show the event raw
            line = str(ev.get("type", "event"))
        if line:
            out.append(plain(line))
    return out


def N_(msgid: str) -> str:
    """Marks a word for the catalogues."""
    return msgid


#: the labels of the games' state rows (the terminal's), translated where the page shows them
ROW_LABELS = frozenset({
    N_("Ansager"),
    N_("Auction"),
    N_("Businesses"),
    N_("Called card"),
    N_("Caller"),
    N_("Caller's partner"),
    N_("Card points"),
    N_("Contract"),
    N_("Contracts left"),
    N_("Cut card"),
    N_("Cut"),
    N_("Cutter"),
    N_("Deal points"),
    N_("Decision"),
    N_("Doubles of the caller"),
    N_("First trick (face up)"),
    N_("First-dealer draw"),
    N_("Forehand"),
    N_("Highest cards"),
    N_("Last hand"),
    N_("Last turn"),
    N_("Layout"),
    N_("Match result"),
    N_("Match"),
    N_("Next raise by"),
    N_("Orbi"),
    N_("Out"),
    N_("Piles"),
    N_("Roles"),
    N_("Schlag"),
    N_("Schlag, trump"),
    N_("Schlòk · Trumpf"),
    N_("Shown"),
    N_("Sides"),
    N_("Stake"),
    N_("Stock"),
    N_("Taken"),
    N_("Target"),
    N_("Tricks (by side)"),
    N_("Tricks (by team)"),
    N_("Trump"),
    N_("Winners"),
    N_("X"),
    N_("Your peek"),
})


def game_rows(view: dict, names: Names, _=None) -> list[tuple[str, str]]:
    """The game's own state rows (Schlag, trump, stake, auction, contract ...) as plain text pairs;
    with ``_`` the labels are in the reader's language (the values are the terminal's words)."""
    own = game_text(names.game)
    if own is None:
        return []
    tr = _ if _ is not None else (lambda text: text)
    try:
        return [(tr(plain(label)) if plain(label) in ROW_LABELS else plain(label), plain(value))
                for label, value in own.rows(view, names)]
    except Exception:
        return []


def special_cards(view: dict, names: Names) -> list[tuple[str, list[str]]]:
    """A game's named top cards for the view's Schlag and trump (Watten: Kritische, Guate, Rechte,
    Linke), highest first; empty where the game has none or the seat does not know them."""
    own = game_text(names.game)
    schlag, trump = view.get("schlag"), view.get("trump")
    if own is None or not hasattr(own, "special_cards") or not schlag or not trump:
        return []
    try:
        return own.special_cards(schlag, trump, names)
    except Exception:
        return []
