"""The registry of games: ``stich.games()``, ``stich.game(name, ...)`` and ``stich.replay(record)``."""

from __future__ import annotations

import importlib
import importlib.util

from stich.engine.core import RECORD_FORMAT, Game, State
from stich.engine.errors import OptionError, RecordError, StichError
from stich.engine.recordfile import quote

# name -> "module:Class"; modules are imported only when the game is first used.
_GAMES: dict[str, str] = {
    "watten": "stich.rulesets.watten:WattenGame",
    "battn": "stich.rulesets.battn:BattnGame",
    "biscambiggia": "stich.rulesets.biscambiggia:BiscambiggiaGame",
    "barbu": "stich.rulesets.barbu:BarbuGame",
}


def register(name: str, target: str) -> None:
    """Register a game class given as ``"package.module:ClassName"``."""
    _GAMES[name] = target


def _available(target: str) -> bool:
    module = target.split(":")[0]
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


def games() -> list[str]:
    """The names of the games this installation provides."""
    return [name for name, target in _GAMES.items() if _available(target)]


def game_class(name: str) -> type[Game]:
    """The Game class of a game name."""
    key = str(name).strip().lower()
    target = _GAMES.get(key)
    if target is None or not _available(target):
        raise OptionError(f"unknown game {name!r}; games are: {', '.join(games())}")
    module, cls = target.split(":")
    return getattr(importlib.import_module(module), cls)


def game(name: str, variant: str | None = None, **options) -> Game:
    """A game with validated, frozen options, e.g. ``game("watten", variant="bavarian_3", maschine="on")``."""
    return game_class(name)(variant, **options)


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
