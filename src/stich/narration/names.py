"""The reader's names for what a game's views and events carry: cards, suits, seats, sides, values, in the
reader's language, as Rich markup (card codes in their suit's colour).

The terminal prints the markup, the browser reads it as plain text (``stich.web.ui.narration.plain``);
both name things through :class:`Names`, so it lives here, below both apps."""

from __future__ import annotations

from rich.markup import escape

from stich.i18n import translator


class Names:
    """Card and seat names for one game, one language and (optionally) one human seat."""

    #: the reader types actions by their codes (the terminal): names show the code next to the word; the
    #: browser's names (``stich.web.ui.narration.PageNames``) say words alone
    types_codes = True

    def __init__(self, game, lang: str = "en", human: int | None = None):
        self.game = game
        self.deck = game.deck
        self.lang = lang
        self.human = human
        self._codes = set(self.deck.codes)
        # the reader's words: labels and narration are marked with ``names._`` and found by
        # ``python -m stich.i18n.extract`` (domains "cli" and the games' own)
        tr = translator(lang)
        self._ = tr.gettext
        self.ngettext = tr.ngettext

    def card(self, code: str) -> str:
        """The long name of a card code, e.g. ``EO`` -> ``Eichel-Ober``."""
        try:
            return self.deck.long_name(self.deck.parse(code), self.lang)
        except ValueError:
            return str(code)

    def is_card(self, value) -> bool:
        return isinstance(value, str) and value in self._codes

    def _suit_name(self, code: str) -> str:
        names = self.deck.suit_names.get(self.lang) or self.deck.suit_names["en"]
        return names[self.deck.suit_codes.index(code)]

    def _rank_name(self, code: str) -> str:
        names = self.deck.rank_names.get(self.lang) or self.deck.rank_names["en"]
        return names[self.deck.rank_codes.index(code)]

    def suit_style(self, suit: str) -> str | None:
        return SUIT_STYLES.get(self.deck.name, {}).get(suit)

    def styled(self, code: str) -> str:
        """A card code in its suit's colour (markup)."""
        code = escape(str(code))
        if not self.is_card(code):
            return code
        style = self.suit_style(self.deck.suit_codes[self.deck.suit(self.deck.parse(code))])
        return f"[{style}]{code}[/{style}]" if style else code

    def suit_label(self, suit: str) -> str:
        """A suit's name in the card language, in its colour."""
        name, style = escape(self._suit_name(suit)), self.suit_style(suit)
        return f"[{style}]{name}[/{style}]" if style else name

    def named(self, code: str, name: str) -> str:
        """A code with its name, ``EO (Eichel-Ober)``: the terminal shows the code one types; the browser's
        names (``stich.web.ui.narration.PageNames``) show the name alone - nobody types there."""
        return f"{code} ({name})"

    def card_label(self, code: str) -> str:
        """``EO (Eichel-Ober)``."""
        return self.named(code, self.card(code))

    def cards_label(self, codes) -> str:
        """Several cards: each with its name up to three, codes alone beyond (the terminal's line stays short)."""
        codes = list(codes)
        return ", ".join(map(self.card_label, codes)) if len(codes) <= 3 else self.short_cards(codes)

    def short_cards(self, codes) -> str:
        """Cards by their codes alone, ``SO, EO, LO`` (the browser's names give their names)."""
        return ", ".join(map(str, codes))

    def seat(self, seat, short: bool = False) -> str:
        """``Seat 3`` (1-based), or ``you (Seat 1)`` for the human seat (``short``: ``you``), in the
        reader's language."""
        if not isinstance(seat, int):
            return str(seat)
        _ = self._
        if seat == self.human:
            return _("you") if short else _("you (Seat %(n)s)") % {"n": seat + 1}
        return _("Seat %(n)s") % {"n": seat + 1}

    def subject(self, seat, you: str, other: str, first: bool = True) -> str:
        """``You pass`` / ``Seat 3 passes``: a sentence's subject and its verb (``you`` when not
        ``first`` in the sentence); the verbs come translated from the caller."""
        if seat == self.human:
            return f"{self._('You') if first else self._('you')} {you}"
        return f"{self.seat(seat)} {other}"

    def signed(self, values) -> str:
        """``Seat 1 -14, you (Seat 2) 0, Seat 3 +6, ...``: a signed number per seat."""
        if not values:
            return "—"
        return ", ".join(f"{self.seat(p)} {v:+d}" if v else f"{self.seat(p)} 0" for p, v in enumerate(values))

    def side(self, side: int) -> str:
        """``Side 2`` (1-based) in the reader's language."""
        return self._("Side %(n)s") % {"n": side + 1}

    def action(self, text: str) -> str:
        """An action text with the long name of its card argument: ``play EO  Eichel-Ober``."""
        text = escape(str(text))
        parts = text.split(None, 1)
        if len(parts) == 2 and self.is_card(parts[1]):
            return f"{text}  [dim]{self.card(parts[1])}[/dim]"
        return text

    def short_action(self, text: str) -> str:
        """An action text alone: ``play EO``."""
        return escape(str(text))

    def value(self, value, key: str | None = None) -> str:
        """A compact human form of an info value; card codes get their long names."""
        if isinstance(value, bool) or value is None:
            return {True: self._("yes"), False: self._("no"), None: "—"}[value]
        if isinstance(value, str):
            value = escape(value)
            if self.is_card(value):
                return self.card_label(value)
            if key in SUIT_KEYS and value in self.deck.suit_codes:
                return self.named(value, self._suit_name(value))
            if key in RANK_KEYS and value in self.deck.rank_codes:
                return self.named(value, self._rank_name(value))
            return value
        if isinstance(value, int) and key is not None and _is_seat_key(key):
            return self.seat(value)
        if isinstance(value, int) and key in SIDE_KEYS:
            return self.side(value)
        if isinstance(value, (list, tuple)):
            if not value:
                return "—"
            if key is not None and (key in SEAT_LIST_KEYS or _is_seat_key(key)) \
                    and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                return ", ".join(self.seat(v) for v in value)
            if all(self.is_card(v) for v in value):
                return self.cards_label(value)
            if any(isinstance(v, (dict, list, tuple)) for v in value):
                return "; ".join(self.value(v) for v in value)
            return ", ".join(self.value(v) for v in value)
        if isinstance(value, dict):
            return ", ".join(f"{escape(str(k))}: {self.value(v, k)}" for k, v in value.items())
        return escape(str(value))


SEAT_KEYS = frozenset({
    "seat", "winner", "player", "leader", "dealer", "caller", "by", "declarer", "loser", "forehand", "cutter",
    "bidder", "partner", "called", "taker", "to", "from", "first", "starter", "next", "traitor", "helper",
    "D", "R", "P", "L",  # role letters some games name seats by: dealer, his right, partner, left
})
SEAT_LIST_KEYS = frozenset({"seats", "winners", "losers", "players", "team", "partners", "passed",
                            "doubles", "redoubles", "doubled", "redoubled", "businesses"})
SIDE_KEYS = frozenset({"side", "winning_side", "winner_side", "losing_side"})
SUIT_KEYS = frozenset({"trump", "trumps", "suit", "trump_suit", "led", "led_suit", "colour", "color"})
RANK_KEYS = frozenset({"schlag", "rank", "trump_rank"})


def _is_seat_key(key: str) -> bool:
    return key in SEAT_KEYS or key.rsplit("_", 1)[-1] in SEAT_KEYS or key.endswith("_player")


#: suit colours per deck, in the markup (the terminal shows them, except with NO_COLOR or to a pipe; the browser
#: reads the markup as plain text); black suits stay plain
SUIT_STYLES = {
    "german32": {"H": "red", "S": "yellow", "E": "dark_orange3", "L": "green"},
    "german33": {"H": "red", "S": "yellow", "E": "dark_orange3", "L": "green"},
    "french52": {"H": "red", "D": "red"},
    "genoese40": {"H": "red", "D": "red"},
    "sappadine40": {"Po": "dark_orange3", "St": "cyan", "Ra": "yellow", "Sc": "bright_blue"},
}
