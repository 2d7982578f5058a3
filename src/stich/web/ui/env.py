"""The pages' Jinja2 environment: templates in ``templates/``, autoescaping on, ``_`` for gettext."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2

from stich.i18n import LANG_NAMES, LANGS, translator

HERE = Path(__file__).parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"


def N_(msgid: str) -> str:
    """Marks a word for the catalogues; it is translated where it is shown."""
    return msgid


#: the bot levels offered in quick play and in the seats of a new table (``stich.bots.levels``), weakest
#: first, each with its name and one line for a person choosing an opponent (the seat value is ``bot:NAME``)
LEVEL_WORDS = {
    "beginner": (N_("beginner"),
                 N_("Plays like someone learning the game: sound bids, now and then a card at random. Instant.")),
    "club": (N_("club"),
             N_("A steady club player: rule-of-thumb card play, raises when the hand is worth it. Instant.")),
    "strong": (N_("strong"), N_("Looks ahead on sampled deals of the unseen cards. Usually well under 0.1 s a move.")),
    "max": (N_("max"), N_("The strongest: up to 1 s of thought a move, for analysis and for experts.")),
}
#: the option values every game shares, in words (a game's own values are its page's ``OPTION_WORDS``)
VALUE_WORDS = {"on": N_("on"), "off": N_("off"), "true": N_("yes"), "false": N_("no"), "True": N_("yes"),
               "False": N_("no")}


def option_words(game_name: str) -> dict[str, dict]:
    """Option -> ``{"label", "help", "values": {value: msgid}}`` in msgids, from the game's page companion's
    ``OPTION_WORDS``; an option or a value without words is refused here, naming the game, the option and
    the value - a person would otherwise read the identifier (``only_hearts_left``, issue #34)."""
    import stich
    from stich.engine import member
    declared = member(game_name, "page", "OPTION_WORDS") or {}
    out = {}
    for spec in stich.game(game_name).option_specs:
        if spec.name not in declared:
            raise KeyError(f"{game_name}: option {spec.name!r} has no words in its page's OPTION_WORDS")
        label, help_, own = declared[spec.name]
        values = {}
        for v in () if spec.values is int else spec.values:
            word = own.get(str(v)) or VALUE_WORDS.get(str(v))
            if word is None and isinstance(v, int):
                word = str(v)   # a number is its own word (Battn's scheanara_max 0, 1, 2)
            if word is None:
                raise KeyError(f"{game_name}: value {v!r} of option {spec.name!r} has no words in OPTION_WORDS")
            values[str(v)] = word
        out[spec.name] = {"label": label, "help": help_, "values": values}
    return out


def options_in_words(game, _) -> list[tuple[str, str]]:
    """The rules this table plays that differ from its variant's (its options away from their defaults), as
    (label, value) in the reader's words: the table's details say them as the create form did."""
    words = option_words(game.name)
    out = []
    for spec in game.option_specs:
        if spec.name not in game.options or not spec.applies_to(game.variant):
            continue
        value = game.options[spec.name]
        if value == spec.default_for(game.variant):
            continue
        word = words[spec.name]["values"].get(str(value), str(value))
        out.append((_(words[spec.name]["label"]), _(word)))
    return out


@lru_cache(maxsize=1)
def _declared(name: str) -> tuple:
    """Every game's page declaration ``name`` (``stich.rulesets.<game>.page``), in the order of ``stich.games()``."""
    import stich
    from stich.engine import member
    return tuple(member(g, "page", name) for g in stich.games())


def variant_words() -> dict[str, str]:
    """Variant -> the msgid the pages name it by (the engine's names are identifiers: ``bavarian_4``);
    each game declares its own as ``VARIANTS`` in its page companion, and a variant missing there is
    refused here, naming the game and the variant (``check_words``), not shown by its identifier."""
    import stich
    from stich.engine import check_words, game_class
    for name in stich.games():
        check_words(game_class(name))
    return {"standard": N_("standard"), **{k: v for d in _declared("VARIANTS") if d for k, v in d.items()}}


def seat_set_verbs() -> tuple[str, ...]:
    """Verbs whose argument is a set of seats, combined in one action (declared as ``SEAT_SET_VERBS``:
    Barbu's ``double 2,4 redouble 3``)."""
    return tuple(dict.fromkeys(v for d in _declared("SEAT_SET_VERBS") if d for v in d))
#: with more combinations than this, the seats are check boxes and one OK instead of a button each
MAX_SET_BUTTONS = 3


def seat_sets(groups: list[dict]) -> dict | None:
    """Barbu's doubles and redoubles as check boxes: the seats each verb may name, and every legal
    combination (the page sends only one of these); None when there are few enough for buttons."""
    set_verbs = seat_set_verbs()
    actions = [g["action"] for g in groups if g.get("kind") == "button"
               and g["action"].split()[0] in set_verbs]
    if len(actions) <= MAX_SET_BUTTONS:
        return None
    seats: dict[str, set[str]] = {v: set() for v in set_verbs}
    named = []   # per action: verb -> the seats it names
    for action in actions:
        words = action.split()
        parts = {verb: set(arg.split(",")) for verb, arg in zip(words[::2], words[1::2], strict=True)}
        named.append(parts)
        for verb, group in parts.items():
            seats[verb] |= group
    # a seat every legal action names is required (Barbu's obligation to double the caller): ticked, fixed
    required = {v: set.intersection(*(p.get(v, set()) for p in named)) for v in set_verbs}
    return {"actions": actions, "verbs": [(v, [(n, n in required[v]) for n in sorted(seats[v], key=int)])
                                          for v in set_verbs if seats[v]]}


class Environment(jinja2.Environment):
    def translator_for(self, lang: str):
        return translator(lang)

    def i18n_globals(self, lang: str) -> dict:
        tr = translator(lang)
        return {"_": tr.gettext, "ngettext": tr.ngettext, "lang": tr.lang, "langs": LANGS, "lang_names": LANG_NAMES}


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                      trim_blocks=True, lstrip_blocks=True)
    env.globals["static_version"] = static_version()
    env.globals["seat_sets"] = seat_sets
    env.globals["variant_words"] = variant_words()
    env.globals["level_words"] = {name: word for name, (word, _help) in LEVEL_WORDS.items()}
    return env


def static_version() -> str:
    """A short fingerprint of the static files, appended to their URLs so browsers fetch new ones."""
    import hashlib
    h = hashlib.sha256()
    for p in sorted(STATIC.rglob("*")):
        if p.is_file():
            h.update(p.name.encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:10]
