"""The registry of games: ``stich.games()``, ``stich.game(name, ...)`` and ``stich.replay(record)``."""

from __future__ import annotations

import importlib
import importlib.util
import os

from stich.engine.core import RECORD_FORMAT, Game, State
from stich.engine.errors import OptionError, RecordError, StichError
from stich.engine.recordfile import quote
from stich.engine.roles import CompanionError, check_declaration, check_module, role

#: the entry-point group through which a package adds games: ``name = "package.module:GameClass"``
ENTRY_POINT_GROUP = "stich.games"

# name -> "module:Class", filled on first use (_games); modules are imported only when the game
# is first used.
_GAMES: dict[str, str] = {}
_READ = 0   # 1: stich's own checkout read; 2: every installed package's entry points read too


def _checkout_entry_points() -> dict[str, str]:
    """The games stich's own pyproject.toml declares, when stich runs from a source checkout (an
    editable install whose metadata predates an added game still finds it).

    Read line by line (``name = "module:Class"`` under the group's table header), not with
    tomllib: importing that costs more than every game module."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "pyproject.toml")
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return {}
    if 'name = "stich"' not in lines:
        return {}
    found, inside = {}, False
    for line in lines:
        text = line.split("#", 1)[0].strip()
        if text.startswith("["):
            inside = text == f'[project.entry-points."{ENTRY_POINT_GROUP}"]'
        elif inside and "=" in text:
            key, value = (x.strip() for x in text.split("=", 1))
            found[key] = value.strip('"')
    return found


def _games(name: str | None = None, *, installed: bool = True) -> dict[str, str]:
    """Every game: stich's own first (from its checkout or its installed metadata), then the
    entry points of other installed packages, then those added by :func:`register`.

    The installed packages' entry points are read once, when a list of every game is asked for or
    a ``name`` is not among stich's own (importing ``importlib.metadata`` alone takes tens of
    milliseconds, which ``stich.game("watten")`` from a checkout need not pay)."""
    global _READ
    if _READ == 0:
        _READ = 1
        for key, target in _checkout_entry_points().items():
            _GAMES.setdefault(key, target)
    if _READ == 1 and installed and (name is None or name not in _GAMES):
        _READ = 2
        import importlib.metadata

        for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            _GAMES.setdefault(ep.name, ep.value)
    return _GAMES


def register(name: str, target: str) -> None:
    """Register a game class given as ``"package.module:ClassName"`` (an installed package uses
    the ``stich.games`` entry-point group instead)."""
    _games(installed=False)[name] = target


def _available(target: str) -> bool:
    module = target.split(":")[0]
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def games() -> list[str]:
    """The names of the games this installation provides."""
    return [name for name, target in _games().items() if _available(target)]


def game_class(name: str) -> type[Game]:
    """The Game class of a game name."""
    key = str(name).strip().lower()
    target = _games(key).get(key)
    if target is None or not _available(target):
        raise OptionError(f"unknown game {name!r}; games are: {', '.join(games())}")
    module, cls = target.split(":")
    found = getattr(importlib.import_module(module), cls)
    if found not in _CHECKED:
        # a game is registered by a string; its declaration can be read once its class is loaded
        check_declaration(found)
        # its words and its bases' (a variant from another package subclasses a built-in game and
        # brings only the words it adds: the base's words are the base's catalogues, read with it)
        directories = [vars(c)["catalogues"] for c in reversed(found.__mro__)
                       if vars(c).get("catalogues") is not None]
        if directories:
            from stich.i18n import add_catalogues
            for directory in directories:
                add_catalogues(directory)
        _CHECKED.add(found)
    return found


def word_problems(cls) -> list[str]:
    """What words the variants of game class ``cls`` lack: a game whose page companion declares
    ``VARIANTS`` (the titles the terminal and the pages show) names every variant there - the identifier
    is no word - and each title is translated into every language of the pages (English is the msgid).
    A game that declares no titles (None: a toy, a game of one ``standard`` variant) is named by its
    variants' identifiers, as it says."""
    from stich.i18n import DEFAULT, LANGS, translator

    titles = role("page").read(load_companion(cls, "page"), "VARIANTS")
    if titles is None:
        return []
    out = []
    for variant in cls.variants:
        title = titles.get(variant)
        if not title:
            out.append(f"variant {variant!r} has no title: its 'page' companion's VARIANTS has no entry for it")
            continue
        missing = [lang for lang in LANGS if lang != DEFAULT and title not in translator(lang).messages]
        if missing:
            out.append(f"variant {variant!r}: its title {title!r} is not translated into {', '.join(missing)} "
                       f"(a catalogue of the game's, Game.catalogues)")
    return out


def check_words(cls) -> None:
    """Raise :class:`CompanionError` naming the game, the variant and the missing word when a variant of
    ``cls`` lacks its words (:func:`word_problems`)."""
    problems = word_problems(cls)
    if problems:
        raise CompanionError(f"game {cls.name!r}: words are missing: " + "; ".join(problems))


#: the game classes whose companion declaration has been checked
_CHECKED: set[type] = set()


_COMPANIONS: dict[tuple[str, str], object] = {}


def companion(game_or_name, role_name: str):
    """The module a game declares for ``role_name`` in ``Game.companions`` (``"heuristic"``,
    ``"encoder"``, ``"narration"``...: :data:`stich.engine.roles.ROLES`), imported and checked
    against its role once; None when the game declares None for it (or the name is no game).
    This is the one way the layers above find what a game adds to them.

    Raises :class:`~stich.engine.roles.CompanionError` (naming the game and the role) when the
    module does not import or does not fill its role, and ``KeyError`` for a role that does not
    exist: neither falls back to "no companion"."""
    name = game_or_name if isinstance(game_or_name, str) else getattr(game_or_name, "name", None)
    key = (name, role_name)
    if key not in _COMPANIONS:
        role(role_name)   # an unknown role is the caller's error
        if isinstance(game_or_name, Game):
            cls = type(game_or_name)
            check_declaration(cls)
        else:
            try:
                cls = game_class(name)
            except OptionError:
                return None
        _COMPANIONS[key] = load_companion(cls, role_name)
    return _COMPANIONS[key]


def load_companion(cls, role_name: str):
    """The module game class ``cls`` declares for ``role_name``, imported and checked (None: declared none)."""
    path = cls.companions[role_name]
    if path is None:
        return None
    try:
        module = importlib.import_module(path)
    except ImportError as exc:
        raise CompanionError(f"game {cls.name!r}: its {role_name!r} companion {path} does not import: {exc}") from exc
    check_module(cls, role_name, module)
    return module


def member(game_or_name, role_name: str, name: str):
    """The member ``name`` of a game's ``role_name`` companion, or the role's declared default
    where the module (or the game) has none: what callers read instead of ``getattr(module, NAME,
    default)``.  A ``name`` the role does not declare is a ``KeyError``."""
    return role(role_name).read(companion(game_or_name, role_name), name)


_MADE: dict[tuple, Game] = {}
_MADE_LIMIT = 256


def game(name: str, variant: str | None = None, **options) -> Game:
    """A game with validated, frozen options, e.g. ``game("watten", variant="bavarian_3", maschine="on")``.

    The same request gives the same object: a Game is frozen once made and its lookup tables (the
    interned actions, the mask-to-actions tables) are shared by all its states, so a server with 200
    tables of one variant holds those tables once, not 200 times (each copy is ~1,000 small lists
    that every full garbage collection walks: 200 copies made a collection pause of 300 ms), and a
    bot that rebuilds a game from a view for each decision does not rebuild its tables."""
    cls = game_class(name)
    try:
        key = (cls, variant, tuple(sorted(options.items())))
        made = _MADE.get(key)
    except TypeError:   # an unhashable option value: the game's own check words the error
        return cls(variant, **options)
    if made is None:
        made = cls(variant, **options)
        if len(_MADE) >= _MADE_LIMIT:   # bounded: odd requests cannot grow it without end
            _MADE.pop(next(iter(_MADE)))
        _MADE[key] = made
    return made


def replay(record: dict) -> State:
    """Rebuild the state a full record describes; a clear RecordError if it does not replay exactly."""
    if not isinstance(record, dict):
        raise RecordError(f"a record is a JSON object, not {type(record).__name__}")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a stich record (format must be {RECORD_FORMAT!r}, got {quote(record.get('format'))})")
    for key in ("game", "variant", "options", "seed", "actions"):
        if key not in record:
            if key == "seed" and "seat" in record:
                raise RecordError("this record is filtered to one seat and cannot be replayed")
            raise RecordError(f"record has no {key!r} field")
    options, setup = record["options"], record.get("setup") or {}
    if not isinstance(options, dict):
        raise RecordError(f"record 'options' must be an object of option names and values, not {quote(options)}")
    if not isinstance(setup, dict):
        raise RecordError(f"record 'setup' must be an object, not {quote(setup)}")
    try:
        g = game(record["game"], record["variant"], **options)
        state = g.new_state(record["seed"], **setup)
    except (StichError, TypeError, RecursionError) as exc:
        raise RecordError(f"record set-up is invalid: {quote(str(exc), 300)}") from None
    actions = record["actions"]
    if not isinstance(actions, list):
        raise RecordError("record 'actions' must be a list of [seat, action] pairs")
    for i, item in enumerate(actions):
        if not (isinstance(item, (list, tuple)) and len(item) == 2 and type(item[0]) is int):
            raise RecordError(f"action #{i} must be a [seat, action] pair, not {quote(item)}")
        seat, text = item
        if not 0 <= seat < state.game.num_players:
            raise RecordError(f"action #{i} {quote(text)}: there is no seat {seat}")
        if seat not in state.seats_to_act():
            raise RecordError(f"action #{i} {quote(text)}: seat {seat} is not to act (seat {state.current_player} is)")
        if not isinstance(text, str):
            raise RecordError(f"action #{i} must be action text, not {quote(text)}")
        try:
            state.apply(text, seat=seat)
        except StichError as exc:
            raise RecordError(f"action #{i} {quote(text)} does not replay: {quote(str(exc), 300)}") from None
    try:
        same = "events" not in record or record["events"] == state.record()["events"]
    except RecursionError:
        same = False  # nested deeper than any event
    if not same:
        raise RecordError("replaying the actions does not reproduce the recorded events")
    return state
