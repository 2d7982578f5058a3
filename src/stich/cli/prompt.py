"""What a line typed at the ``stich play`` prompt means: actions (numbers, texts, cards and arguments alone,
regional words), ``help``, ``rules``, ``table``, ``hint``, ``autoplay``, ``auto``, ``quit`` (:func:`resolve_input`),
and the texts those commands print, in the reader's language."""

from __future__ import annotations

import random

from rich.markup import escape
from rich.table import Table

from stich.cli.render import action_help, word_help
from stich.cli.words import Choice, accepted_words, regional, regional_verbs, standing_choice
from stich.engine import IllegalActionError, StichError, member
from stich.engine.turns import WAIT


def N_(text: str) -> str:
    """Marks a msgid for the catalogue (``python -m stich.i18n.extract``); translated where it is shown."""
    return text


#: the reminder 'help' prints, a msgid per sentence (translators see short units; the extractor reads one
#: literal per mark)
HELP_LINES = (
    N_("Type the number of an action, or its text ('play EO'; any spelling such as 'play e-o')."),
    N_("A card alone such as 'eo' plays it when that is legal; 'cut' alone cuts at random."),
    N_("The game's own words work too: 'bieten' or 'rilancio' for raise, 'gehen' for fold, 'passen' for pass."),
    N_("'help ACTION' (or 'help 2') says what an action means, 'rules' shows this table's rules."),
    N_("'table' shows the table again, 'hint' the bot's suggestion."),
    N_("'autoplay off': be asked even when there is only one legal action."),
    N_("'auto raise': raise at your next chance, also out of turn (once)."),
    N_("'auto ask': be asked at every raise poll and decision out of turn; 'auto pass': pass them (the default)."),
    N_("'quit' saves the match and leaves."),
)
RULES_WORDS = ("rules",)

QUIT_WORDS = ("quit", "q", "exit")
HELP_WORDS = ("help", "?")
TABLE_WORDS = ("table", "t")
HINT_WORDS = ("hint",)
AUTOPLAY_WORD = "autoplay"
AUTO_WORD = "auto"
#: verbs that, typed alone, choose at random among their legal arguments (a real cutter does not count cards)
RANDOM_VERBS = ("cut",)


def forced_action(state) -> str | None:
    """The action the seat to act must take when it has no choice (its only legal action), else None.

    This covers every pointless prompt: a single legal card, a domino pass when no card fits, the Barbu
    caller's ``pass`` in the doubling round when nobody doubled him."""
    legal = state.legal_actions()
    return str(legal[0]) if len(legal) == 1 else None


def _identity(text: str) -> str:
    return text


def tr(names) -> object:
    """The reader's gettext (``names._``), English without ``names``."""
    return names._ if names is not None else _identity


def resolve_input(text: str, state, rng: random.Random | None = None, names=None, seat: int | None = None) -> Choice:
    """Interpret one line typed by the human to act in ``state`` (``rng``: for ``cut`` alone; ``names``: the
    reader's language; ``seat``: the human's seat when asked out of turn, default the seat on turn)."""
    _ = tr(names)
    on_turn = seat is None or seat == state.current_player
    if seat is None:
        seat = state.current_player
    legal = state.legal_actions(seat)
    raw = (text or "").strip()
    low = raw.lower()
    if not raw:
        return Choice("empty")
    if low.split()[0] in HELP_WORDS:
        return _help(low.split()[1:], state, names, seat)
    if low in RULES_WORDS:
        return Choice("rules")
    if low in QUIT_WORDS:
        return Choice("quit")
    if low in TABLE_WORDS:
        return Choice("table")
    if low in HINT_WORDS:
        return Choice("hint")
    if low.split()[0] == AUTOPLAY_WORD:
        arg = low.split()[1:]
        if arg in (["on"], ["off"]):
            return Choice("autoplay", message=arg[0])
        return Choice("error", message=_("type 'autoplay off' (ask for forced moves too) or 'autoplay on'"))
    if low.split()[0] == AUTO_WORD:
        return standing_choice(low.split()[1:], state, names)
    raw = regional(raw, state, legal, names)
    if isinstance(raw, Choice):
        return raw
    low = raw.lower()
    if low in RANDOM_VERBS:
        some = [a for a in legal if a.verb == low and a.arg is not None]
        if some:
            return Choice("action", str((rng or random.Random()).choice(some)))
    shown = legal if on_turn else [*legal, WAIT]   # out of turn the list ends with 'wait' (Turns' poll)
    if raw.isascii() and raw.isdigit():
        n = int(raw)
        if 1 <= n <= len(shown):
            return Choice("action", str(shown[n - 1]))
        return Choice("error", message=_("there is no action number %(n)s; choose 1 to %(last)s")
                      % {"n": n, "last": len(shown)})
    if not on_turn and low == WAIT:
        return Choice("action", WAIT)
    game = state.game
    try:
        _seat, act = game.parse_action(raw)
    except ValueError as exc:  # MalformedActionError, or a game's own argument parser
        short = _shortcut(raw, state, names, seat)
        if isinstance(short, Choice):
            return short
        head = low.split()[0].split(":")[-1]
        if head not in {a.verb for a in game.action_space}:   # no verb: say which words are understood now
            return Choice("error", message=_("%(word)s is no action of %(game)s.") % {
                "word": repr(head), "game": game.name} + " " + _("Accepted now: %(words)s.") % {
                "words": accepted_words((a.verb for a in legal), game, getattr(names, "lang", None))}
                + " " + _hint(shown, names))
        return Choice("error", message=f"{exc}. {_hint(shown, names)}")
    if _seat is not None and _seat - 1 != seat:
        return Choice("error", message=_("%(text)s: seat %(named)s is not you; you are seat %(seat)s")
                      % {"text": repr(raw), "named": _seat, "seat": seat + 1})
    try:
        state.clone().apply(raw, seat=seat)  # checks a seat prefix, if any
    except StichError as exc:
        if act.verb == "raise":   # not now: a standing order can take it when it comes
            return Choice("error", message=f"{exc}. " + _("'auto raise' raises at your next chance."))
        return Choice("error", message=str(exc))
    if act in legal:
        return Choice("action", str(act))
    return Choice("error", message=_("%(text)s is not legal now.") % {"text": repr(raw)} + " " + _hint(shown, names))


def _help(args: list[str], state, names=None, seat: int | None = None) -> Choice:
    """``help``: the input line and the verbs of this moment; ``help VERB`` or ``help N``: what it means."""
    _ = tr(names)
    legal = state.legal_actions(seat)
    verbs = list(dict.fromkeys(a.verb for a in legal))
    game = state.game
    if not args:
        now = ", ".join(f"'help {v}'" for v in verbs if action_help(game, v, names))
        words = list(member(game, "help", "WORDS"))[:6]
        text = " ".join(_(line) for line in HELP_LINES)
        if now:
            text += " " + _("What your actions mean: %(helps)s.") % {"helps": now}
        if words:
            text += " " + _("The game's words too: 'help %(word)s' (%(more)s, …).") % {
                "word": words[0], "more": ", ".join(words[1:])}
        return Choice("help", message=text)
    if word_help(game, " ".join(args)) and not action_help(game, args[0], names):
        return Choice("help", message=word_help(game, " ".join(args)))
    word = args[0]
    if word.isascii() and word.isdigit() and 1 <= int(word) <= len(legal):
        word = legal[int(word) - 1].verb
    if action_help(game, word, names) is None:   # a regional word (bieten): its verb
        found = regional_verbs(word, game)
        word = found[0] if len(found) == 1 else word
    if action_help(game, word, names) is None:   # an argument (NO_LAST_TWO, DOMINO): its action's verb
        word = next((a.verb for a in game.action_space if a.arg and word in a.arg.lower().split()), word)
    text = action_help(game, word, names) or word_help(game, word)
    if text is None:
        known = sorted({a.verb for a in game.action_space})
        return Choice("error", message=_("%(game)s has no action %(word)s; its actions: %(actions)s")
                      % {"game": game.name, "word": repr(word), "actions": ", ".join(known)})
    return Choice("help", message=text)


def rules_text(game, lang: str, names=None) -> str:
    """The table's rules in a line (game, variant, the options not at their default) and where the complete
    rules and the player's guide are in the stich repository."""
    _ = tr(names)
    where = {"game": game.name, "lang": lang}
    return " ".join((
        f"{game.rules_summary()}.",
        _("The complete rules as stich plays them: docs/rules/%(game)s.md in the stich repository;") % where,
        _("a one-page player's guide: docs/guides/%(game)s.%(lang)s.md.") % where,
        _("'help ACTION' explains an action, 'help WORD' a word of the game.")))


def options_table(game, names=None) -> Table:
    """Every option of the table: its value here and the rule it sets (section, and what it means)."""
    _ = tr(names)
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 1), pad_edge=False)
    for col in (_("option"), _("here"), _("rule")):
        table.add_column(col)
    specs = {spec.name: spec for spec in getattr(game, "option_specs", ())}
    for name, value in game.options.items():
        spec = specs.get(name)
        rule = " — ".join(x for x in (spec.rule, spec.help) if x) if spec else ""
        table.add_row(escape(str(name)), escape(str(value)), escape(rule))
    return table


def _shortcut(raw: str, state, names=None, seat: int | None = None) -> Choice | None:
    """A card alone (``eo``) or an argument alone (``O``) for the one legal action taking it."""
    _ = tr(names)
    legal = state.legal_actions(seat)
    deck = state.game.deck
    if deck.is_card(raw):
        code = deck.code(deck.parse(raw))
        matches = [a for a in legal if a.arg == code]
        if len(matches) == 1:
            return Choice("action", str(matches[0]))
        if not matches:
            verbs = sorted({a.verb for a in legal if a.arg is not None and deck.is_card(a.arg)}
                           | ({state.game.card_verb} if state.game.card_verb else set()))
            for verb in verbs:  # let the engine say why, e.g. "you must follow suit"
                try:
                    state.clone().apply(f"{verb} {code}", seat=seat)
                except IllegalActionError as exc:
                    return Choice("error", message=str(exc))
                except StichError:
                    continue
            return Choice("error", message=_("%(card)s cannot be used now.") % {"card": code} + " "
                          + _hint(legal, names))
        return Choice("error", message=_("%(card)s is ambiguous here: %(actions)s")
                      % {"card": code, "actions": ", ".join(map(str, matches))})
    low = raw.lower()
    matches = [a for a in legal if a.arg is not None and a.arg.lower() == low]
    if not matches:
        matches = [a for a in legal if a.verb == low]
    if len(matches) == 1:
        return Choice("action", str(matches[0]))
    return None


def _hint(legal, names=None) -> str:
    _ = tr(names)
    if not legal:
        return _("Type 'help'.")
    return _("Type 1 to %(n)s, an action such as %(example)s, or 'help'.") % {
        "n": len(legal), "example": repr(str(legal[0]))}
