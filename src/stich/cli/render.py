"""Rendering views, events and actions for the terminal (plain Rich printing, no full screen).

Everything here works from a seat's *view* (``state.view(seat)``) and the game's deck, so
the terminal never shows more than that seat may know.  The words themselves (names, a line per event)
are :mod:`stich.narration`'s, which the browser tells a match in too.
"""

from __future__ import annotations

import os

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from stich.engine import OptionError, check_words, companion, game_class, member
from stich.engine.turns import WAIT
from stich.narration import Names, describe_event, game_text, scores_text, trick_reason

#: the view keys every game has; anything else is game-specific and shown as info
STANDARD_KEYS = frozenset({
    "game", "variant", "options", "seat", "num_players", "current_player", "terminal", "hand",
    "known_hands", "trick", "tricks", "info", "hand_number", "dealer", "scores", "legal_actions", "events",
    "actions",  # the hand's action log: for bots and samplers; the narration already shows it
})

LANGS = ("en", "de", "it", "fr")


def help_module(game):
    """The module of a game's action texts, or None: its ``"help"`` companion (``Game.companions``),
    with ``HELP`` (verb -> text), ``WORDS`` (the game's own terms) and optionally ``variant_help(game)``
    (verb -> text where the variant's rules differ, derived from them) or ``VARIANT_HELP`` (the same per
    variant name, read for the variant or its base: ``Game.variant_lineage``)."""
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
    derived = member(game, "help", "variant_help")
    variant = derived(game) if derived is not None else game.by_variant(member(game, "help", "VARIANT_HELP"), {})
    return variant.get(verb) or own.HELP.get(verb)


def variant_title(game, _=str) -> str:
    """The variant as the terminal and the pages name it: its title in the game's page ``VARIANTS``, in
    the reader's language (``_``); a game of one variant declares none and is named by its variant.  A
    variant without a title is the game's error (``check_words`` names it), not shown by its identifier."""
    titles = member(game, "page", "VARIANTS")
    if titles is None:
        return game.variant
    if game.variant not in titles:
        check_words(type(game))
    return _(titles[game.variant])


def word_help(game, word: str) -> str | None:
    """What one of the game's own words means (``gestrichen``, ``Il Buono``): the help module's ``WORDS``."""
    return member(game, "help", "WORDS").get(word.lower())


def default_lang(game_name: str) -> str:
    """The default card-name language of a game (``Game.default_language``; ``en`` for a name
    that is no game)."""
    try:
        return game_class(game_name).default_language
    except OptionError:
        return "en"


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


def hand_order(view: dict, names: Names):
    """``(strength, marks, trump)`` for the viewer's hand: a strength per card code (higher is stronger in
    the current trump or contract), the special cards' names (``{"S7": "Belli"}``) and the trump suit.

    From the game's text module's ``hand_order(view, names)`` where it has one; else the deck's rank order
    and the view's ``trump``."""
    own_order = member(names.game, "narration", "hand_order")
    if own_order is not None:
        return own_order(view, names)
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


def make_console(**kw) -> Console:
    """The console the CLI prints to (highlighting off: card codes are not numbers).

    Output to a pipe or file is 120 columns wide unless ``COLUMNS`` says otherwise.
    """
    console = Console(highlight=False, **kw)
    if "width" not in kw and not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(highlight=False, width=120, **kw)
    return console
