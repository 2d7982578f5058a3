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

    def card_label(self, code: str) -> str:
        """``EO (Eichel-Ober)``."""
        return f"{code} ({self.card(code)})"

    def seat(self, seat) -> str:
        """``Seat 3`` (1-based), or ``you (Seat 1)`` for the human seat."""
        if not isinstance(seat, int):
            return str(seat)
        if seat == self.human:
            return f"you (Seat {seat + 1})"
        return f"Seat {seat + 1}"

    def subject(self, seat, you: str, other: str, first: bool = True) -> str:
        """``You pass`` / ``Seat 3 passes``: a sentence's subject and its verb (``you`` when not
        ``first`` in the sentence)."""
        if seat == self.human:
            return f"{'You' if first else 'you'} {you}"
        return f"{self.seat(seat)} {other}"

    def signed(self, values) -> str:
        """``Seat 1 -14, you (Seat 2) 0, Seat 3 +6, ...``: a signed number per seat."""
        if not values:
            return "—"
        return ", ".join(f"{self.seat(p)} {v:+d}" if v else f"{self.seat(p)} 0" for p, v in enumerate(values))

    def action(self, text: str) -> str:
        """An action text with the long name of its card argument: ``play EO  Eichel-Ober``."""
        text = escape(str(text))
        parts = text.split(None, 1)
        if len(parts) == 2 and self.is_card(parts[1]):
            return f"{text}  [dim]{self.card(parts[1])}[/dim]"
        return text

    def value(self, value, key: str | None = None) -> str:
        """A compact human form of an info value; card codes get their long names."""
        if isinstance(value, bool) or value is None:
            return {True: "yes", False: "no", None: "—"}[value]
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
            return f"Side {value + 1}"
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


def scores_text(scores, names: Names, num_players: int) -> str:
    """Scores as per-seat or per-side text."""
    if scores is None:
        return "—"
    if isinstance(scores, dict):
        return ", ".join(f"{k}: {names.value(v)}" for k, v in scores.items())
    if isinstance(scores, (list, tuple)):
        if len(scores) == num_players:
            return ", ".join(f"{names.seat(i)}: {v}" for i, v in enumerate(scores))
        if num_players % max(len(scores), 1) == 0 and len(scores) > 1:
            step = len(scores)
            parts = []
            for i, v in enumerate(scores):
                seats = "+".join(str(s + 1) for s in range(i, num_players, step))
                mine = names.human is not None and names.human % step == i
                parts.append(f"Side {i + 1} (seats {seats}{', yours' if mine else ''}): {v}")
            return ", ".join(parts)
        return ", ".join(str(v) for v in scores)
    return str(scores)


def view_table(view: dict, names: Names, title: str | None = None) -> Table:
    """A two-column table of everything a view shows: hand, trick, tricks, scores, info, turn."""
    n = view.get("num_players") or names.game.num_players
    table = Table(title=title, show_header=False, expand=False, title_justify="left", title_style="bold")
    table.add_column("what", style="bold cyan", no_wrap=True)
    table.add_column("value")
    if view.get("hand_number") is not None:
        dealer = view.get("dealer")
        dealer_text = f", dealer {names.seat(dealer)}" if dealer is not None else ""
        table.add_row("Hand", f"{view['hand_number']}{dealer_text}")
    seat = view.get("seat")
    if seat is not None:
        hand = view.get("hand") or []
        table.add_row("Your hand", "\n".join(f"{c:<4} {names.card(c)}" for c in hand) if hand else "—")
    for s, cards in enumerate(view.get("known_hands") or []):
        if s != seat and cards:
            table.add_row(f"{names.seat(s)} holds", ", ".join(names.card_label(c) for c in cards))
    trick = view.get("trick") or []
    table.add_row("Trick", "\n".join(f"{names.seat(p['seat'])}: {names.card_label(p['card'])}" for p in trick)
                  if trick else "—")
    tricks = view.get("tricks") or []
    won = [0] * n
    for t in tricks:
        w = t.get("winner")
        if isinstance(w, int) and 0 <= w < n:
            won[w] += 1
    by_seat = ", ".join(f"{names.seat(i)}: {c}" for i, c in enumerate(won))
    table.add_row("Tricks (by seat)", by_seat if tricks else "none yet")
    if tricks:
        last = tricks[-1]
        cards = ", ".join(p["card"] for p in last.get("cards", []))
        table.add_row("Last trick", f"{cards} → {names.seat(last.get('winner'))}")
    table.add_row("Scores", scores_text(view.get("scores"), names, n))
    own = game_text(names.game)
    if own is not None:
        for label, value in own.rows(view, names):
            table.add_row(label, value)
    for key, value in view.items():
        if key not in STANDARD_KEYS and (own is None or key not in own.KEYS):
            table.add_row(escape(key.replace("_", " ").capitalize()), names.value(value, key))
    for key, value in (view.get("info") or {}).items():
        if own is None or key not in own.KEYS:   # (a game's KEYS cover its info fields too)
            table.add_row(escape(key.replace("_", " ").capitalize()), names.value(value, key))
    cp = view.get("current_player")
    if view.get("terminal"):
        table.add_row("Turn", "the match is over")
    elif cp is not None:
        table.add_row("Turn", Text.from_markup(f"[bold]{names.seat(cp)}[/bold]"))
    return table


def legal_list(legal: list[str], names: Names, one_per_line: int = 12):
    """The numbered legal actions: one a line, or in columns when there are many (cuts, bids)."""
    width = len(str(len(legal)))
    items = [f"[bold]{i:>{width}}[/bold]) {names.action(a)}" for i, a in enumerate(legal, 1)]
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
    """One line of narration for an event (None: nothing worth a line)."""
    line = game_line(ev, names)
    if line is not NotImplemented:
        return line
    t = ev.get("type")
    if t == "hand_start":
        dealer = ev.get("dealer")
        d = f" · dealer {names.seat(dealer)}" if dealer is not None else ""
        return f"[bold magenta]── Hand {ev.get('hand')}{d} ──[/bold magenta]"
    if t == "deal":
        cards = ev.get("cards") or []
        who = names.seat(ev.get("seat"))
        verb = "now holds" if ev.get("replace") else "receives"
        if ev.get("seat") == names.human:
            who, verb = "You", ("now hold" if ev.get("replace") else "receive")
        return f"{who} {verb}: " + ", ".join(names.card_label(c) for c in cards)
    if t == "play":
        return f"{names.seat(ev.get('seat'))} plays {names.card_label(ev.get('card'))}"
    if t == "trick":
        mine = ev.get("winner") == names.human
        return f"[green]{'You win' if mine else names.seat(ev.get('winner')) + ' wins'} the trick[/green]"
    if t == "scores":
        return f"[yellow]Scores: {scores_text(ev.get('scores'), names, names.game.num_players)}[/yellow]"
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
            who = "[bold]You[/bold]" if actor == names.human else names.seat(actor)
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
