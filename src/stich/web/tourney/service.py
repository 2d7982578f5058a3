"""Tournaments against the database: create one, draw a round, settle a finished table, enter a result.

Nothing of a tournament lives only in memory.  A round's tables are made by the server's own
:meth:`~stich.web.server.Server.table_rows` (the path of ``POST /api/tables``: grace, bots, records and
crash recovery as at any table) and committed in one transaction with the round's rows and a guarded
``drawn = n`` (two draws asked at once: one commits, the other is refused).  When a table's match ends
(:meth:`Tournaments.settle`, called by the server's finish hook, again at start-up for any table that
ended while no process heard it, and by any read that finds one), its result is read from the table's
stored record and, in a round of several matches, the table's next match is made the same way (its key
lets one in), linked as the old table's rematch so the players' page offers it."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import time

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from stich.arena.runner import derive
from stich.web import store
from stich.web.logs import event
from stich.web.spec import BadRequest, SeatSpec, TableSpec, parse_settings
from stich.web.tokens import new_id, new_token, token_hash
from stich.web.tourney import draw, scoring
from stich.web.tourney.keys import check_token, player_token
from stich.web.tourney.rules import fill_field, parse_tournament
from stich.web.tourney.schema import tournament_corrections, tournament_players, tournament_tables, tournaments
from stich.web.tourney.stored import Loaded, read

log = logging.getLogger("stich.web")
TT = tournament_tables


class Tournaments:
    """The tournaments of one server process (``server.tournaments``)."""

    def __init__(self, server):
        self.server = server
        self.tasks: set[asyncio.Task] = set()
        server.finish_hooks.append(self.on_finished)

    @property
    def engine(self):
        return self.server.engine

    # --- create ---------------------------------------------------------------------------------
    async def create(self, body, club_id: str | None = None) -> dict:
        """A new tournament; ``club_id``: a club's (the caller checked that its admin asks: ``tourney.people``)."""
        cfg = parse_tournament(body)
        tid, director = new_id(), new_token()
        game = cfg.game
        rows = [(tournaments, dict(id=tid, game=game.name, variant=game.variant,
                                   options=store.dumps(dict(game.options)), format=store.dumps(cfg.format),
                                   seed=secrets.randbelow(2**63),
                                   director_hash=token_hash(director), drawn=0, created=time.time(),
                                   club_id=club_id, registration=cfg.registration))]
        out = []
        for i, p in enumerate(cfg.players):
            token = player_token(director, tid, i) if p.kind == "human" else None
            rows.append((tournament_players, dict(tournament_id=tid, number=i, name=p.name, kind=p.kind, bot=p.bot,
                                                  token_hash=token_hash(token) if token else None)))
            url = {"url": f"/tournaments/{tid}?token={token}"} if token else {}   # people only
            out.append({"name": p.name, "token": token, **url})
        await self.server.writer.write(*rows)
        event(log, "tournament created", tournament=tid, game=game.name, variant=game.variant, **cfg.format,
              players=len(cfg.players))
        return {"tournament": tid, "director_token": director, "players": out, "url": f"/tournaments/{tid}"}

    # --- read -----------------------------------------------------------------------------------
    async def load(self, tid: str, settle: bool = True) -> Loaded | None:
        t = await read(self.engine, tid)
        if t is not None and settle and any(r["table_finished"] and not r["finished"] for r in t.rows):
            # a match that ended while no process heard it (a crash, another process's table): settled now
            for r in t.rows:
                if r["table_finished"] and not r["finished"]:
                    await self.settle(r["table_id"])
            return await read(self.engine, tid)
        return t

    async def corrections(self, tid: str) -> list[dict]:
        C = tournament_corrections
        rows = await store.fetch_all(self.engine, select(C).where(C.c.tournament_id == tid).order_by(C.c.id))
        return [{"table": r["table_id"], "by": r["by"], "at": r["at"],
                 "old": json.loads(r["old"]) if r["old"] else None, "new": json.loads(r["new"])} for r in rows]

    async def withheld(self, table_id: str) -> bool:
        """Whether a table's record must wait: a duplicate round's other tables still play its deals."""
        if not isinstance(table_id, str) or len(table_id) > 32:
            return False
        row = await store.fetch_one(self.engine, select(TT.c.tournament_id, TT.c.round, tournaments.c.format).join(
            tournaments, tournaments.c.id == TT.c.tournament_id).where(TT.c.table_id == table_id))
        if row is None or json.loads(row["format"])["kind"] != "duplicate":
            return False
        playing = await store.fetch_one(self.engine, select(TT.c.table_id).join(
            store.tables, store.tables.c.id == TT.c.table_id).where(
            TT.c.tournament_id == row["tournament_id"], TT.c.round == row["round"],
            store.tables.c.finished.is_(False)).limit(1))
        return playing is not None

    # --- draw a round ---------------------------------------------------------------------------
    async def next_round(self, tid: str, body) -> tuple[int, dict]:
        if not isinstance(body, dict) or set(body) - {"token", "paper", "fill"} or "token" not in body:
            raise BadRequest('the request body is {"token": DIRECTOR_TOKEN} (and "paper": [table numbers], '
                             '"fill": "bot:NAME")')
        t = await self.load(tid)
        if t is None:
            return 404, {"error": f"there is no tournament {tid}"}
        if not check_token(t.row["director_hash"], body["token"]):
            return 403, {"error": "only the director may draw a round (the director_token)"}
        registered = len(t.players)
        if t.row["registration"] and t.row["drawn"] == 0:   # people registered by link: now the tables are counted
            refused = fill_field(t, body.get("fill"))
            if refused is not None:
                return 409, {"error": refused}
        elif "fill" in body:
            raise BadRequest("'fill' is for the first draw of a tournament open to registration")
        n_tables = len(t.players) // t.game.num_players
        paper = body.get("paper", [])
        if not isinstance(paper, list) or any(isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= n_tables
                                              for k in paper):
            raise BadRequest(f"'paper' lists table numbers from 1 to {n_tables}")
        if paper and t.fmt["kind"] == "duplicate":
            raise BadRequest("a duplicate round deals the same cards at every table: its tables are online")
        drawn = t.row["drawn"]
        if drawn >= t.fmt["rounds"]:
            return 409, {"error": f"all {t.fmt['rounds']} rounds are drawn"}
        if drawn and not t.complete(drawn):
            done = len({r["number"] for r in t.rows if r["round"] == drawn and r["finished"]})
            return 409, {"error": f"round {drawn} is still being played ({done} of {n_tables} tables finished)"}
        round_no = drawn + 1
        tables = self.seating(t, round_no)
        return await self._start(t, round_no, tables, set(paper), registered)

    def seating(self, t: Loaded, round_no: int) -> list[list[int]]:
        """Who sits where in round ``round_no`` (player numbers by seat, table by table)."""
        rng = random.Random(derive(t.row["seed"], "draw", round_no))
        hist, sides, n = t.history(), t.sides, t.game.num_players
        everyone = list(range(len(t.players)))
        if t.fmt["kind"] == "duplicate":
            return draw.draw_duplicate(everyone, n, hist, sides, rng)
        if t.fmt["kind"] == "swiss" and round_no > 1:
            level = {s["name"]: (-s["score"], *(-v for v in s["tiebreaks"].values())) for s in t.standings()}
            rng.shuffle(everyone)   # players level in the standing meet in an order drawn by lot (sort is stable)
            names = [p["name"] for p in t.players]
            return draw.draw_swiss(sorted(everyone, key=lambda p: level[names[p]]), n, hist, sides)
        return draw.draw_round(everyone, n, hist, sides, rng)

    def _table(self, t: Loaded, seats: list[int], seed: int | None):
        """The spec and rows of one online table of ``t`` with these players by seat."""
        specs = [SeatSpec("bot", t.players[p]["bot"]) if t.players[p]["kind"] == "bot" else SeatSpec("human")
                 for p in seats]
        spec = TableSpec(t.game, specs, parse_settings({}, t.game), public=False, seed=seed)
        humans = {i: t.players[p]["token_hash"] for i, p in enumerate(seats) if t.players[p]["kind"] == "human"}
        names = {i: t.players[p]["name"] for i, p in enumerate(seats)}
        table_id, _tokens, stmts = self.server.table_rows(spec, names, claimed=tuple(humans), hashes=humans)
        return spec, table_id, stmts

    async def _start(self, t: Loaded, round_no: int, tables: list[list[int]], paper: set[int],
                     registered: int) -> tuple[int, dict]:
        seed = derive(t.row["seed"], "deal", round_no) if t.fmt["kind"] == "duplicate" else None
        drawn = update(tournaments).where(tournaments.c.id == t.id, tournaments.c.drawn == round_no - 1)
        # the players as read, no more: checked after the first guard holds the tournament's row, which a
        # registration by link updates too (tourney.register), so none slips in between the read and the draw
        count = select(func.count()).select_from(tournament_players).where(
            tournament_players.c.tournament_id == t.id).scalar_subquery()
        same = update(tournaments).where(tournaments.c.id == t.id, count == registered).values(drawn=round_no)
        stmts: list = [store.Guard(drawn.values(drawn=round_no), "the round was drawn by another request", t.id),
                       store.Guard(same, "a player registered while the round was drawn", t.id + "/players")]
        stmts += [(tournament_players, p) for p in t.players[registered:]]   # the bots that fill the tables
        made, out = [], []
        for number, seats in enumerate(tables, 1):
            for match in range(t.matches if number in paper else 1):
                if number in paper:
                    table_id = "p" + new_id()
                else:
                    spec, table_id, rows = self._table(t, seats, seed)
                    stmts += rows
                    made.append((spec, table_id))
                stmts.append((TT, dict(tournament_id=t.id, round=round_no, number=number, match=match,
                                       table_id=table_id, paper=number in paper, seats=store.dumps(seats),
                                       result=None, finished=False)))
                if match == 0:
                    out.append({"table": table_id, "number": number, "paper": number in paper,
                                "players": [t.players[p]["name"] for p in seats]})
        try:
            async with self.engine.begin() as conn:
                await conn.run_sync(store.write_rows, stmts)
        except (store.LeaseLost, IntegrityError):
            return 409, {"error": f"round {round_no} was drawn by another request at the same moment, or a "
                                  "player registered meanwhile: read the tournament again"}
        for spec, table_id in made:
            await self.server.table(table_id)   # loaded now: its bots and timers run
            self.server.created(spec, table_id)
        event(log, "tournament round drawn", tournament=t.id, round=round_no, tables=len(tables), paper=len(paper))
        return 201, {"round": round_no, "tables": out}

    # --- a table's match ended ------------------------------------------------------------------
    def on_finished(self, table_id: str) -> None:
        task = asyncio.get_running_loop().create_task(self.settle(table_id))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def resume(self) -> None:
        """At start-up: settle every tournament table whose match ended while no process heard it."""
        ended = select(TT.c.table_id).join(store.tables, store.tables.c.id == TT.c.table_id)
        rows = await store.fetch_all(self.engine, ended.where(TT.c.finished.is_(False),
                                                              store.tables.c.finished.is_(True)))
        for r in rows:
            await self.settle(r["table_id"])

    async def settle(self, table_id: str) -> None:
        try:
            await self._settle(table_id)
        except Exception:  # noqa: BLE001 - a read settles it later; the table itself is safe
            log.exception("tournament table not settled", extra={"fields": {"table": table_id}})

    async def _settle(self, table_id: str) -> None:
        row = await store.fetch_one(self.engine, select(TT).where(TT.c.table_id == table_id))
        if row is None:
            return
        table = await store.fetch_one(self.engine, select(store.tables.c.finished, store.tables.c.record).where(
            store.tables.c.id == table_id))
        if table is None or not table["finished"]:
            return
        t = await self.load(row["tournament_id"], settle=False)
        result = scoring.match_result(json.loads(table["record"]), t.game.two_sided)
        A = store.actions
        took = await store.fetch_all(self.engine, select(A.c.seat).distinct().where(
            A.c.table_id == table_id, A.c.origin.in_(("takeover", "timer"))))
        result["bots_played"] = sorted(r["seat"] for r in took)   # a seat whose person was away (grace, timer)
        # the result, and the table's next match if one is due, in one transaction: a crash between them
        # would leave a settled table whose next match nobody makes
        # (a result the director typed before this keeps its place: coalesce)
        settled = update(TT).where(TT.c.table_id == table_id, TT.c.finished.is_(False)).values(
            result=func.coalesce(TT.c.result, store.dumps(result)), finished=True)
        if row["match"] + 1 < t.matches:
            await self._next_match(t, dict(row), settled)
        else:
            await self.server.writer.write(settled)

    async def _next_match(self, t: Loaded, row: dict, settled) -> None:
        """The next match of a table in a round of several (the same seats, a new deal), committed with
        ``settled``, the statement that stores the ended match's result."""
        seats = json.loads(row["seats"])
        for link in (True, False):
            spec, next_id, stmts = self._table(t, seats, None)
            stmts += [settled, (TT, dict(tournament_id=t.id, round=row["round"], number=row["number"],
                                         match=row["match"] + 1, table_id=next_id, paper=False, seats=row["seats"],
                                         result=None, finished=False))]
            if link:   # the old table's page offers the next match as its rematch
                stmts.insert(0, (store.rematches, dict(table_id=row["table_id"], next_id=next_id, at=time.time())))
            try:
                async with self.engine.begin() as conn:
                    await conn.run_sync(store.write_rows, stmts)
                break
            except IntegrityError:
                exists = await store.fetch_one(self.engine, select(TT.c.table_id).where(
                    TT.c.tournament_id == t.id, TT.c.round == row["round"], TT.c.number == row["number"],
                    TT.c.match == row["match"] + 1))
                if exists is not None:   # made by another process, or by another settling of this one
                    await self.server.writer.write(settled)
                    return
                # else a player's own rematch took the link: the next match is made without it
        else:
            raise RuntimeError(f"the next match of table {row['table_id']} could not be stored")
        await self.server.table(next_id)
        self.server.created(spec, next_id)
        old = self.server.tables.get(row["table_id"])
        if old is not None and link:
            old.submit(old.on_rematch, next_id)

    # --- the director types a result --------------------------------------------------------------
    async def enter(self, tid: str, table_id: str, body) -> tuple[int, dict]:
        if not isinstance(body, dict) or set(body) != {"token", "scores"}:
            raise BadRequest('the request body is {"token": DIRECTOR_TOKEN, "scores": [each seat\'s final '
                             'match points]}')
        t = await self.load(tid)
        if t is None:
            return 404, {"error": f"there is no tournament {tid}"}
        if not check_token(t.row["director_hash"], body["token"]):
            return 403, {"error": "only the director may enter or correct a result (the director_token)"}
        row = next((r for r in t.rows if r["table_id"] == table_id), None)
        if row is None:
            return 404, {"error": f"table {table_id} is not part of tournament {tid}"}
        if not row["paper"] and not row["table_finished"]:
            return 409, {"error": "this table's match is still being played: its result can be corrected once "
                                  "it is over"}
        result = scoring.paper_result(body["scores"], t.sides, t.game.two_sided)
        result["entered"] = "director"
        now = time.time()
        # a paper result ends its match; an online match is settled from its record (which keeps this result)
        await self.server.writer.write(
            update(TT).where(TT.c.table_id == table_id).values(result=store.dumps(result),
                                                               finished=bool(row["paper"] or row["finished"])),
            (tournament_corrections, dict(tournament_id=tid, table_id=table_id, by="director", at=now,
                                          old=store.dumps(row["result"]) if row["result"] else None,
                                          new=store.dumps(result))))
        event(log, "tournament result entered", tournament=tid, table=table_id, corrected=row["result"] is not None)
        return 200, {"table": table_id, "result": result, "corrected": row["result"] is not None}
