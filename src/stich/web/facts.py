"""A seat's figures of a finished match: what its game's ``"stats"`` companion counts (``stich.roles.stats``:
hands, hands won, points, and the game's own: Watten's raises and Ansager, Battn's calls, Biscambiggia's
roles, Barbu's contracts), read from the match's public events.

:func:`of_record` reads a record (the JSON of ``GET /api/tables/{ID}/record``) by replaying it;
:func:`stored` is what :func:`stich.web.ratings.finish_match` writes into ``player_matches.facts``
once, in the transaction of the match's last action; :func:`totals` adds up a player's matches per
game.  Pure: nothing here reads or writes the database."""

from __future__ import annotations

import json
import logging

import stich
from stich.engine import companion
from stich.roles.stats import add

log = logging.getLogger("stich.web")


def of_events(game: str, events, seat: int) -> dict[str, int] | None:
    """The counts of ``seat`` in a finished match of ``game`` from its events (the record's dicts or
    the state's payloads); None for a game without a ``"stats"`` companion."""
    module = companion(game, "stats")
    return None if module is None else module.facts(events, seat)


def of_state(state, seat: int) -> dict[str, int] | None:
    return of_events(state.game.name, [payload for _audience, payload in state.events], seat)


def of_record(record: dict, seat: int) -> dict[str, int] | None:
    """The counts of ``seat`` in the finished match ``record`` replays to (a ``RecordError`` where it
    does not replay exactly; a ``ValueError`` for a match not over or a seat it does not have)."""
    state = stich.replay(record)
    if not state.is_terminal():
        raise ValueError("the record's match is not over: its figures are counted only once it is")
    if not 0 <= seat < state.game.num_players:
        raise ValueError(f"seat {seat} is no seat of this {state.game.num_players}-player match")
    return of_state(state, seat)


def stored(table_id: str, game, state, seat: int) -> str | None:
    """``player_matches.facts`` of one seat: its counts as JSON (None: the game counts none).

    A fault in a game's counting must not cost the match its history or its ratings (they are written
    in the same transaction), so it is logged with the table and the seat, and the row keeps no
    figures, as the rows from before figures were kept."""
    try:
        found = of_state(state, seat)
    except Exception:   # noqa: BLE001 - logged, not hidden: the row is written without figures
        log.exception("the figures of a finished match could not be counted",
                      extra={"fields": {"table": table_id, "seat": seat, "game": game.name}})
        return None
    return None if found is None else json.dumps(found, sort_keys=True)


def totals(rows) -> list[dict]:
    """``[(game, facts JSON or None)]``, one per finished match -> per game ``{"game", "matches",
    "counted", "totals"}``: the matches, those with figures (rows from before figures were kept have
    none) and their counts added up; the most played game first."""
    out: dict[str, dict] = {}
    for game, text in rows:
        item = out.setdefault(game, {"game": game, "matches": 0, "counted": 0, "totals": {}})
        item["matches"] += 1
        if text:
            item["counted"] += 1
            add(item["totals"], json.loads(text))
    return sorted(out.values(), key=lambda i: (-i["matches"], i["game"]))
