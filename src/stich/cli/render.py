"""Rendering views, events and actions for the terminal (plain Rich printing, no full screen).

Everything here works from a seat's *view* (``state.view(seat)``) and the game's deck, so
the terminal never shows more than that seat may know.
"""

from __future__ import annotations

import os

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from stich.engine import OptionError, companion, game_class
from stich.engine.narration import plain_trick_reason
from stich.engine.turns import WAIT
from stich.i18n import translator

#: the view keys every game has; anything else is game-specific and shown as info
STANDARD_KEYS = frozenset({
    "game", "variant", "options", "seat", "num_players", "current_player", "terminal", "hand",
    "known_hands", "trick", "tricks", "info", "hand_number", "dealer", "scores", "legal_actions", "events",
    "actions",  # the hand's action log: for bots and samplers; the narration already shows it
})

LANGS = ("en", "de", "it", "fr")


def game_text(game):
    """The module that tells a game's own events and view fields in words, or None: its
    ``"narration"`` companion (``Game.companions``), with ``NARRATED_VERBS``, ``KEYS``,
    ``TELLERS``, ``echoes`` and ``rows``; a game without one gets the generic text."""
    return companion(game, "narration")


def help_module(game):
    """The module of a game's action texts, or None: its ``"help"`` companion (``Game.companions``),
    with ``HELP`` (verb -> text), ``WORDS`` (the game's own terms) and optionally ``VARIANT_HELP``
    (variant -> verb -> text, where a variant's rules differ)."""
    return companion(game, "help")


def action_help(game, verb: str, names: Names | None = None) -> str | None:
    """What the action ``verb`` means in ``game`` (its variant's own text first), or None; ``names``: the
    reader's language for the engine's own ``wait`` (a game's texts are its package's)."""
    if verb == WAIT:   # the engine's own, the same in every game (stich.engine.Turns)
        _ = names._ if names is not None else str
        # one msgid per sentence: the extractor reads a marked literal, not a concatenation
        return " ".join((
            _("wait: let a decision you may take out of turn pass for now."),
            _("Nothing is played or recorded; you may still take it later while the rules allow."),
            _("(docs/engine.md, 'Turns')")))
    own = help_module(game)
    if own is None:
        return None
    variant = getattr(own, "VARIANT_HELP", {}).get(getattr(game, "variant", None), {})
    return variant.get(verb) or own.HELP.get(verb)


def word_help(game, word: str) -> str | None:
    """What one of the game's own words means (``gestrichen``, ``Il Buono``): the help module's ``WORDS``."""
    own = help_module(game)
    return None if own is None else getattr(own, "WORDS", {}).get(word.lower())


def default_lang(game_name: str) -> str:
    """The default card-name language of a game (``Game.default_language``; ``en`` for a name
    that is no game)."""
    try:
        return game_class(game_name).default_language
    except OptionError:
        return "en"


class Names:
    """Card and seat names for one game, one language and (optionally) one human seat."""

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

    def card_label(self, code: str) -> str:
        """``EO (Eichel-Ober)``."""
        return f"{code} ({self.card(code)})"

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
                return f"{value} ({self._suit_name(value)})"
            if key in RANK_KEYS and value in self.deck.rank_codes:
                return f"{value} ({self._rank_name(value)})"
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
                return ", ".join(map(self.card_label, value)) if len(value) <= 3 else ", ".join(value)
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


def scores_text(scores, names: Names, num_players: int, short: bool = False) -> str:
    """Scores as per-seat or per-side text (``short``: ``you 3, Seat 2 1``)."""
    if scores is None:
        return "—"
    if isinstance(scores, dict):
        return ", ".join(f"{k}: {names.value(v)}" for k, v in scores.items())
    if isinstance(scores, (list, tuple)):
        if len(scores) == num_players:
            if short:
                return ", ".join(f"{names.seat(i, short=True)} {v}" for i, v in enumerate(scores))
            return ", ".join(f"{names.seat(i)}: {v}" for i, v in enumerate(scores))
        if num_players % max(len(scores), 1) == 0 and len(scores) > 1:
            step = len(scores)
            parts = []
            for i, v in enumerate(scores):
                seats = "+".join(str(s + 1) for s in range(i, num_players, step))
                mine = names.human is not None and names.human % step == i
                label = (names._("Side %(n)s (seats %(seats)s, yours): %(score)s") if mine
                         else names._("Side %(n)s (seats %(seats)s): %(score)s"))
                parts.append(label % {"n": i + 1, "seats": seats, "score": v})
            return ", ".join(parts)
        return ", ".join(str(v) for v in scores)
    return str(scores)


def hand_line(view: dict, names: Names, label: bool = True) -> str:
    """``hand 2, dealer you (Seat 1)``: the table's title line's end (empty before the first hand);
    ``label``: with the word "hand" (the table's row has it as its label)."""
    if view.get("hand_number") is None:
        return ""
    dealer = view.get("dealer")
    _ = names._
    n = view["hand_number"]
    if dealer is None:
        return _("hand %(n)s") % {"n": n} if label else str(n)
    if label:
        return _("hand %(n)s, dealer %(seat)s") % {"n": n, "seat": names.seat(dealer)}
    return _("%(n)s, dealer %(seat)s") % {"n": n, "seat": names.seat(dealer)}


def view_table(view: dict, names: Names, title: str | None = None, hand_row: bool = True, drop: int = 0) -> Table:
    """A borderless two-column table of everything a view shows, compact enough that the table and the
    legal actions fit an 80x24 terminal: the hand one line per suit, the trick and the tricks one line
    each, the turn only when it is not the viewer's (``hand_row``: the hand number, dealer, as a row).
    ``drop``: leave out that many of the last rows that are not the core ones (hand, trick, tricks,
    scores, turn), for a small terminal."""
    rows = view_rows(view, names, hand_row)
    extra = [i for i, (_label, _value, core) in enumerate(rows) if not core]
    gone = set(extra[len(extra) - drop:]) if drop > 0 else set()
    table = Table(title=title, show_header=False, expand=False, title_justify="left", title_style="bold",
                  box=None, padding=(0, 1), pad_edge=False)
    table.add_column("what", style="bold cyan", no_wrap=True)
    table.add_column("value")
    for i, (label, value, _core) in enumerate(rows):
        if i not in gone:
            table.add_row(label, value)
    return table


def optional_rows(view: dict, names: Names) -> int:
    """How many rows ``view_table(drop=...)`` may leave out."""
    return sum(not core for _label, _value, core in view_rows(view, names, False))


def view_rows(view: dict, names: Names, hand_row: bool = True) -> list[tuple[str, object, bool]]:
    """The rows of :func:`view_table`: ``(label, value, core)``."""
    n = view.get("num_players") or names.game.num_players
    rows = []

    def add(label, value, core=True):   # the game's own rows are the optional ones (core=False)
        rows.append((label, value, core))

    _ = names._
    if hand_row and hand_line(view, names):
        add(_("Hand"), hand_line(view, names, label=False))
    seat = view.get("seat")
    if seat is not None:
        add(_("Your hand"), hand_text(view, names))
    for s, cards in enumerate(view.get("known_hands") or []):
        if s != seat and cards:   # a partner's open hand: strongest first, special cards named, as one's own
            strength, marks, _trump = hand_order({**view, "hand": list(cards)}, names)
            ordered = sorted(cards, key=lambda c: -strength.get(c, 0))
            add(_("%(seat)s holds") % {"seat": names.seat(s)}, " · ".join(
                names.styled(c) + (f" [bold]{escape(marks[c])}[/bold]" if c in marks else "") for c in ordered))
    trick = view.get("trick") or []
    add(_("Trick"), " · ".join(f"{names.seat(p['seat'])} {names.styled(p['card'])}" for p in trick) if trick else "—")
    tricks = view.get("tricks") or []
    if tricks:
        won = [0] * n
        for t in tricks:
            w = t.get("winner")
            if isinstance(w, int) and 0 <= w < n:
                won[w] += 1
        last = tricks[-1]
        cards = " ".join(names.styled(p["card"]) for p in last.get("cards", []))
        add(_("Tricks"), ", ".join(f"{names.seat(i, short=True)} {c}" for i, c in enumerate(won))
            + "; " + _("last %(cards)s → %(winner)s") % {"cards": cards,
                                                        "winner": names.seat(last.get("winner"), short=True)})
    add(_("Scores"), scores_text(view.get("scores"), names, n, short=True))
    own = game_text(names.game)
    if own is not None:
        for label, value in own.rows(view, names):
            add(label, value, core=False)
    for key, value in view.items():
        if key not in STANDARD_KEYS and (own is None or key not in own.KEYS):
            add(escape(key.replace("_", " ").capitalize()), names.value(value, key), core=False)
    for key, value in (view.get("info") or {}).items():
        if own is None or key not in own.KEYS:   # (a game's KEYS cover its info fields too)
            add(escape(key.replace("_", " ").capitalize()), names.value(value, key), core=False)
    cp = view.get("current_player")
    if view.get("terminal"):
        add(_("Turn"), _("the match is over"))
    elif cp is not None and cp != names.human:
        add(_("Turn"), Text.from_markup(f"[bold]{names.seat(cp)}[/bold]"))
    return rows


#: suit colours per deck (terminal colours; NO_COLOR and output to a pipe print none); black suits stay plain
SUIT_STYLES = {
    "german32": {"H": "red", "S": "yellow", "E": "dark_orange3", "L": "green"},
    "german33": {"H": "red", "S": "yellow", "E": "dark_orange3", "L": "green"},
    "french52": {"H": "red", "D": "red"},
    "genoese40": {"H": "red", "D": "red"},
    "sappadine40": {"Po": "dark_orange3", "St": "cyan", "Ra": "yellow", "Sc": "bright_blue"},
}


def hand_order(view: dict, names: Names):
    """``(strength, marks, trump)`` for the viewer's hand: a strength per card code (higher is stronger in
    the current trump or contract), the special cards' names (``{"S7": "Belli"}``) and the trump suit.

    From the game's text module's ``hand_order(view, names)`` where it has one; else the deck's rank order
    and the view's ``trump``."""
    own = game_text(names.game)
    if own is not None and hasattr(own, "hand_order"):
        return own.hand_order(view, names)
    deck = names.deck
    strength = {c: deck.rank(deck.parse(c)) for c in view.get("hand") or []}
    trump = view.get("trump")
    return strength, {}, trump if trump in deck.suit_codes else None


def hand_text(view: dict, names: Names) -> str:
    """The hand, one line per suit (trumps first), strongest card first, special cards named:
    ``Herz (trump): HK Guate · HO Rechte · HA · H9``."""
    hand = view.get("hand") or []
    if not hand:
        return "—"
    deck = names.deck
    strength, marks, trump = hand_order(view, names)
    suits = sorted({deck.suit_codes[deck.suit(deck.parse(c))] for c in hand},
                   key=lambda s: (s != trump, deck.suit_codes.index(s)))
    lines = []
    for suit in suits:
        cards = sorted((c for c in hand if deck.suit_codes[deck.suit(deck.parse(c))] == suit),
                       key=lambda c: -strength.get(c, 0))
        items = [names.styled(c) + (f" [bold]{escape(marks[c])}[/bold]" if c in marks else "") for c in cards]
        label = names.suit_label(suit) + (" " + names._("(trump)") if suit == trump else "")
        lines.append(f"{label}: " + " · ".join(items))
    return "\n".join(lines)


def legal_list(legal: list[str], names: Names, one_per_line: int = 6, short: bool = False):
    """The numbered legal actions: one a line, or in columns when there are many (cuts, bids);
    ``short``: without the cards' long names."""
    width = len(str(len(legal)))
    items = [f"[bold]{i:>{width}}[/bold]) " + (names.short_action(a) if short else names.action(a))
             for i, a in enumerate(legal, 1)]
    if len(items) <= one_per_line:
        return "\n".join("  " + item for item in items)
    return Padding(Columns(items, column_first=True, padding=(0, 3)), (0, 0, 0, 2))


def game_line(ev: dict, names: Names):
    """The game's own sentence for an event (its text module's ``TELLERS``), None for nothing worth
    a line, NotImplemented where the generic text tells it."""
    own = game_text(names.game)
    teller = None if own is None else own.TELLERS.get(ev.get("type"))
    return NotImplemented if teller is None else teller(ev, names)


def describe_event(ev: dict, names: Names) -> str | None:
    """One line of narration for an event (None: nothing worth a line); a trick with the winning card
    and the reason it won when the narrator added them (``card``, ``why``: :func:`trick_reason`)."""
    line = _describe_event(ev, names)
    if line and ev.get("type") == "trick" and ev.get("why") and ev.get("card"):
        line += " [green]" + names._("with %(card)s: %(why)s") % {
            "card": names.card_label(ev["card"]), "why": escape(ev["why"])} + "[/green]"
    return line


def trick_reason(view: dict, cards: list[dict], winner: int, names: Names) -> str | None:
    """Why ``winner`` took the trick ``cards`` (``[{"seat", "card"}]`` in play order), in the words of the
    table, from what ``view`` (the viewer's, taken before the last card) tells: the game's text module's
    ``trick_reason`` where it has one, else :func:`plain_trick_reason` with the view's ``trump``."""
    own = game_text(names.game)
    if own is not None and hasattr(own, "trick_reason"):
        return own.trick_reason(view, cards, winner, names)
    return plain_trick_reason(cards, winner, names, view.get("trump"))


def explain_tricks(events: list[dict], before: dict, seat: int, action: str, names: Names) -> None:
    """Add to a trick event among ``events`` (copies, for the narration), the winning card and why it won,
    from what the viewer knew before the trick's last card (``before``: their view) and that card (the
    action ``play X`` of ``seat``). Nothing for other actions."""
    verb, _, card = str(action).partition(" ")
    if verb != "play":
        return
    for ev in events:
        if ev.get("type") != "trick" or not isinstance(ev.get("winner"), int):
            continue
        cards = [*(before.get("trick") or []), {"seat": seat, "card": card}]
        won = next((p["card"] for p in cards if p["seat"] == ev["winner"]), None)
        if won is not None:
            ev["card"], ev["why"] = won, trick_reason(before, cards, ev["winner"], names)


def _describe_event(ev: dict, names: Names) -> str | None:
    line = game_line(ev, names)
    if line is not NotImplemented:
        return line
    t = ev.get("type")
    _ = names._
    if t == "hand_start":
        dealer = ev.get("dealer")
        text = _("Hand %(n)s · dealer %(seat)s") % {"n": ev.get("hand"), "seat": names.seat(dealer)} \
            if dealer is not None else _("Hand %(n)s") % {"n": ev.get("hand")}
        return f"[bold magenta]── {text} ──[/bold magenta]"
    if t == "deal":
        cards = ", ".join(names.card_label(c) for c in ev.get("cards") or [])
        if ev.get("seat") == names.human:
            text = _("You now hold: %(cards)s") if ev.get("replace") else _("You receive: %(cards)s")
        else:
            text = _("%(seat)s now holds: %(cards)s") if ev.get("replace") else _("%(seat)s receives: %(cards)s")
        return text % {"seat": names.seat(ev.get("seat")), "cards": cards}
    if t == "play":
        return _("%(seat)s plays %(card)s") % {"seat": names.seat(ev.get("seat")),
                                                "card": names.card_label(ev.get("card"))}
    if t == "trick":
        mine = ev.get("winner") == names.human
        text = _("You win the trick") if mine else _("%(seat)s wins the trick") % {"seat": names.seat(ev.get("winner"))}
        return f"[green]{text}[/green]"
    if t == "scores":
        scores = scores_text(ev.get("scores"), names, names.game.num_players)
        return "[yellow]" + _("Scores: %(scores)s") % {"scores": scores} + "[/yellow]"
    if t in QUIET_EVENTS:
        return None
    payload = {k: v for k, v in ev.items() if k != "type"}
    label = escape(str(t).replace("_", " "))
    return f"[blue]{label}[/blue]: {names.value(payload)}" if payload else f"[blue]{label}[/blue]"


def is_echo(ev: dict, actor: int, action: str) -> bool:
    """Whether an event only repeats an action line already shown: a ``play`` of that card by
    that seat, an event named after the action's verb carrying just its argument, or an event
    carrying just the action text (``call: schlok 4``)."""
    if ev.get("seat") != actor:
        return False
    action = str(action)
    verb, _, arg = action.partition(" ")
    extra = [v for k, v in ev.items() if k not in ("type", "seat")]
    if ev.get("type") == verb:
        if verb == "play":
            return ev.get("card") == arg
        return all(str(v) == arg for v in extra)
    return bool(extra) and all(str(v) == action for v in extra)


def action_is_visible(action: str, new_events: list[dict]) -> bool:
    """Whether a viewer may see an action's argument: it has none or it shows in their new events."""
    parts = str(action).split(None, 1)
    if len(parts) == 1:
        return True
    arg = parts[1]
    for ev in new_events:
        for k, v in ev.items():
            if k != "type" and (str(v) == arg or (isinstance(v, list) and arg in map(str, v))):
                return True
    return False


def action_lines(actor: int, action, new_events: list[dict], names: Names) -> list[str]:
    """What the viewer (``names.human``) reads when ``actor`` takes ``action``: the action line,
    unless the event that follows tells it in full, then a line per new visible event that is not
    a mere echo of the action."""
    text = str(action)
    verb = text.split(None, 1)[0]
    own = game_text(names.game)
    lines = []
    echo = None
    if own is None or verb not in own.NARRATED_VERBS:
        if actor == names.human or action_is_visible(text, new_events):
            who = f"[bold]{names._('You')}[/bold]" if actor == names.human else names.seat(actor)
            lines.append(f"{who}: {names.action(text)}")
            echo = (actor, text)
        else:
            lines.append(f"{names.seat(actor)}: {escape(verb)} …")
    for ev in new_events:
        if echo and (is_echo(ev, *echo) or (own is not None and own.echoes(ev, *echo))):
            continue
        line = describe_event(ev, names)
        if line:
            lines.append(line)
    return lines


#: event types that are snapshots of what the table already shows: not narrated line by line
QUIET_EVENTS = frozenset({"status"})


def match_result_text(view: dict, returns, names: Names) -> str:
    """The match result in words, winners first: ``You and Seat 3 win 18:16`` (two sides), ``Seat 1 wins
    14:7:4; you lose`` (three seats), ``You win with 124 (Seat 2 -91, ...)`` (more), ``A draw``."""
    _ = names._
    n = len(returns)
    if not n or max(returns) == min(returns):
        return _("A draw")
    winners = [s for s in range(n) if returns[s] == max(returns)]
    seats = sorted(winners, key=lambda s: (s != names.human, s))
    words = [_("You") if s == names.human else names.seat(s) for s in seats]
    subject = words[0] if len(words) == 1 else \
        _("%(some)s and %(last)s") % {"some": ", ".join(words[:-1]), "last": words[-1]}
    # four grammatical persons: "You win", "Seat 2 wins", "Seat 2 and Seat 4 win", "You and Seat 3 win" (a
    # second person plural in de, it, fr: "ihr", "voi", "vous")
    mine = names.human in winners
    person = ("you" if mine else "one") if len(words) == 1 else ("you_and" if mine else "many")
    others = words[1] if len(words) == 2 else \
        _("%(some)s and %(last)s") % {"some": ", ".join(words[1:-1]), "last": words[-1]}
    scores = view.get("scores")
    score = ""
    if isinstance(scores, (list, tuple)) and len(scores) == 2 and n in (2, 4):
        side = winners[0] % 2
        score = f"{scores[side]:g}:{scores[1 - side]:g}"
    elif isinstance(scores, (list, tuple)) and len(scores) == n == 3:
        score = ":".join(f"{scores[s]:g}" for s in [*winners, *(s for s in range(n) if s not in winners)])
    if score:
        form = {"you": _("You win %(score)s"), "one": _("%(who)s wins %(score)s"),
                "many": _("%(who)s win %(score)s"), "you_and": _("You and %(others)s win %(score)s")}[person]
        text = form % {"who": subject, "score": score, "others": others}
    elif isinstance(scores, (list, tuple)) and len(scores) == n:
        each = len(set(scores[s] for s in winners)) == 1 and len(winners) > 1
        form = {"you": _("You win with %(score)s"), "one": _("%(who)s wins with %(score)s"),
                "many": _("%(who)s win with %(score)s each") if each else _("%(who)s win with %(score)s"),
                "you_and": _("You and %(others)s win with %(score)s each") if each
                else _("You and %(others)s win with %(score)s")}[person]
        text = form % {"who": subject, "score": f"{scores[winners[0]]:g}", "others": others}
        rest = ", ".join(f"{names.seat(s, short=True)} {scores[s]:g}" for s in range(n) if s not in winners)
        text += f" ({rest})" if rest else ""
    else:
        text = {"you": _("You win"), "one": _("%(who)s wins"), "many": _("%(who)s win"),
                "you_and": _("You and %(others)s win")}[person] % {"who": subject, "others": others}
    if names.human is not None and names.human not in winners:
        text += _("; you lose")
    return text


def hand_result(summary: dict, hand: int, shown: list[dict] = ()) -> dict | None:
    """The result of finished hand ``hand`` from ``state.hand_summary()`` taken just after it:
    its ``last_result`` when that is the hand; else, when the summary is still that hand's (the
    match is over), its ``result`` or the summary itself; None when there is none or an event in
    ``shown`` already said exactly that."""
    if not isinstance(summary, dict):
        return None
    last = summary.get("last_result")
    if isinstance(last, dict) and last.get("hand", hand) == hand:
        result = last
    elif summary.get("hand") == hand:
        result = summary["result"] if isinstance(summary.get("result"), dict) else summary
    else:
        return None
    for ev in shown:
        if {k: v for k, v in ev.items() if k != "type"} == result:
            return None
    return result


def make_console(**kw) -> Console:
    """The console the CLI prints to (highlighting off: card codes are not numbers).

    Output to a pipe or file is 120 columns wide unless ``COLUMNS`` says otherwise.
    """
    console = Console(highlight=False, **kw)
    if "width" not in kw and not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(highlight=False, width=120, **kw)
    return console
