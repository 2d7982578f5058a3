"""A tournament as stored: its row, game and format, its players in registration order and every match
row of every round (results decoded), read in one go (:func:`read`) and asked what follows from them
(:class:`Loaded`: complete rounds, the standings, who met whom)."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

from sqlalchemy import select

import stich
from stich.web import store
from stich.web.tourney import draw, scoring
from stich.web.tourney.schema import tournament_players, tournament_tables, tournaments

TT = tournament_tables


def sides_of(game) -> list[int]:
    """The side of each seat: partners share one where the game scores by sides, else each seat its own."""
    if game.scores_by != "side":
        return list(range(game.num_players))
    state = game.new_state(seed=0)
    return [state.side_of(s) for s in range(game.num_players)]


@dataclass
class Loaded:
    """One tournament as stored: its row, game, players and every match row (results decoded)."""

    row: dict
    game: object
    fmt: dict
    players: list[dict]
    rows: list[dict]

    @property
    def id(self) -> str:
        return self.row["id"]

    @functools.cached_property
    def sides(self) -> list[int]:
        return sides_of(self.game)

    @property
    def matches(self) -> int:
        """Matches a table plays in a round: ``games_per_round``, but one (of that many deals) in duplicate."""
        return 1 if self.fmt["kind"] == "duplicate" else self.fmt["games_per_round"]

    def complete(self, round_no: int) -> bool:
        n = len(self.players) // self.game.num_players
        done = [r for r in self.rows if r["round"] == round_no and r["finished"]]
        return len(done) == n * self.matches

    @property
    def finished(self) -> bool:
        return self.row["drawn"] == self.fmt["rounds"] and self.complete(self.row["drawn"])

    def played(self) -> list[scoring.Played]:
        return [scoring.Played(r["round"], r["number"], r["seats"], r["result"])
                for r in self.rows if r["finished"] and r["result"] is not None]

    def standings(self) -> list[dict]:
        return scoring.standings([p["name"] for p in self.players], [p["kind"] == "bot" for p in self.players],
                                 self.played(), self.fmt["kind"], self.game.two_sided, self.sides)

    def history(self) -> draw.History:
        hist = draw.History()
        for r in self.rows:
            if r["match"] == 0:
                hist.add(r["seats"], self.sides)
        return hist


async def read(engine, tid: str) -> Loaded | None:
    """A tournament as stored (a finished match not yet settled reads as not finished: ``Tournaments.load``
    settles it), or None."""
    if not isinstance(tid, str) or len(tid) > 32:
        return None
    row = await store.fetch_one(engine, select(tournaments).where(tournaments.c.id == tid))
    if row is None:
        return None
    players = await store.fetch_all(engine, select(tournament_players).where(
        tournament_players.c.tournament_id == tid).order_by(tournament_players.c.number))
    rows = await store.fetch_all(engine, select(TT, store.tables.c.finished.label("table_finished")).outerjoin(
        store.tables, store.tables.c.id == TT.c.table_id).where(TT.c.tournament_id == tid).order_by(
        TT.c.round, TT.c.number, TT.c.match))
    decoded = [dict(r, seats=json.loads(r["seats"]), result=json.loads(r["result"]) if r["result"] else None)
               for r in rows]
    game = stich.game(row["game"], row["variant"], **json.loads(row["options"]))
    return Loaded(dict(row), game, json.loads(row["format"]), [dict(p) for p in players], decoded)
