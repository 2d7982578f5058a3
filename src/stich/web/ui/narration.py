"""The one door from the pages to the games' narration (``stich.narration`` and each game package's
``"narration"`` and ``"page"`` companions, ``Game.companions``).

The browser tells events in the same words as the terminal: a game's own events by its text companion's
``TELLERS``, in the reader's language (the game's catalogue), seats named as the page names them.
Everything the pages need from that code goes through this module, so when the narration moves only the
imports below change.  Nothing here knows a game by name.
"""

from __future__ import annotations

import logging

from rich.markup import escape
from rich.text import Text

from stich.bots import fallbacks
from stich.engine import companion, member
from stich.narration import Names, describe_event, game_line, game_text, trick_reason

log = logging.getLogger("stich.web.narration")


def plain(markup: str) -> str:
    """A Rich-markup line as plain text (``[bold]You[/bold]`` -> ``You``)."""
    try:
        return Text.from_markup(markup).plain
    except Exception:   # a line that is not valid markup is shown as it is
        return markup


class PageNames(Names):
    """Names whose seats are the page's labels (``Anna (Seat 2)``, ``You (Seat 1)``), escaped for markup,
    so that a game's sentences name seats as the rest of the page does; cards, suits, ranks and a game's
    own terms by their words alone (``types_codes``)."""

    types_codes = False

    def __init__(self, game, lang: str, human: int | None, seat_label):
        super().__init__(game, lang, human)
        self._seat_label = seat_label

    def seat(self, seat, short: bool = False) -> str:
        if not isinstance(seat, int) or isinstance(seat, bool):
            return escape(str(seat))
        return escape(self._seat_label(seat))

    def named(self, code: str, name: str) -> str:
        """The name alone (``Eichel-Ober``, ``Laub``): a page's reader clicks, he never types a code, and a
        code such as ``L`` or ``EO`` means nothing to a person (issue #34)."""
        return escape(str(name))

    def cards_label(self, codes) -> str:
        return ", ".join(escape(self.card(c)) for c in codes)

    short_cards = cards_label


def names_for(game, lang: str, seat: int | None, seat_label=None) -> Names:
    """Card and seat names of a game in a language, ``seat`` being the reader (None: a spectator);
    with ``seat_label`` (seat -> the page's name for it) the game's sentences use the page's names."""
    return Names(game, lang, seat) if seat_label is None else PageNames(game, lang, seat, seat_label)


def page_of(game):
    """The game's ``"page"`` companion (its button words, arguments, layout ...), or None."""
    return companion(game, "page")


#: generic events told here in the reader's language (the terminal's generic text for them is its own);
#: a game's own sentences (its ``TELLERS``) are the terminal's, in the reader's language too
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
            if ev["dealer"] == me and me is not None:
                return _("Hand %(n)s, you deal.") % {"n": ev.get("hand")}
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


def told_raw(what: str, error: Exception) -> None:
    """A game's narration raised: raised again under tests and in development (``STICH_BOTS_STRICT``,
    the one switch for every safety net around game code, ``stich.bots.fallbacks``), else logged with
    its traceback while the page shows the plain fallback - a bug that never reaches a log is never
    fixed."""
    if fallbacks.STRICT:
        raise error
    log.warning("narration fell back (%s): %s: %s", what, type(error).__name__, error, exc_info=error)


def event_lines(events: list[dict], names: Names, _=None, seat_label=None) -> list[str]:
    """One plain sentence per event worth telling, in order (events with nothing to say are left out).

    With ``_`` (gettext) and ``seat_label``, LOCAL's events are told by the page's own words; the game's
    own events by its text companion, in ``names``' language."""
    out = []
    for ev in events:
        line = None
        try:   # a game's teller may leave an event to the generic text (NotImplemented): then it is LOCAL's
            if _ is not None and ev.get("type") in LOCAL and game_line(ev, names) is NotImplemented:
                line = local_line(ev, names, _, seat_label)
            if line is None:
                line = describe_event(ev, names)
        except Exception as exc:   # a narration bug must not take the table down: show the event raw
            told_raw("event", exc)
            line = str(ev.get("type", "event"))
        if line:
            out.append(plain(line))
    return out


def game_rows(view: dict, names: Names, _=None) -> list[tuple[str, str]]:
    """The game's own state rows (Schlag, trump, stake, auction, contract ...) as plain text pairs, labels
    and values in ``names``' language (the game's text companion translates them)."""
    own = game_text(names.game)
    if own is None:
        return []
    try:
        return [(plain(label), plain(value)) for label, value in own.rows(view, names)]
    except Exception as exc:   # as above: the page shows no rows rather than no table
        told_raw("rows", exc)
        return []


def why_won(view: dict, trick: dict, names: Names) -> str | None:
    """Why a trick's winning card won, in the players' words (the game's ``trick_reason``: the Rechte,
    the Barba, trump, the highest of the suit led ...); None where the game's page does not explain
    tricks or the view does not tell."""
    cards, winner = trick.get("cards") or [], trick.get("winner")
    if not member(names.game, "page", "EXPLAINS_TRICKS") or not cards or not isinstance(winner, int):
        return None
    try:
        reason = trick_reason(view, cards, winner, names)
    except Exception as exc:   # as above: the trick stays, without its reason
        told_raw("trick reason", exc)
        return None
    return plain(reason) if reason else None
