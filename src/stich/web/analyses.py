"""Analysis of a finished match over the API (issue #38): ``POST /api/tables/{ID}/analysis`` with
``{"seat": K}`` starts it, ``GET /api/tables/{ID}/analysis?seat=K`` says how far it is and, once
done, gives the decisions with their marks (docs/web-protocol.md, "Analysis").

The work is :mod:`stich.bots.analysis`'s, the engine of ``stich analyse``: the server asks the bot
workers (``BotPool.run``) for the list of the seat's decisions, then for one decision at a time, so
that the event loop never thinks, a table where a person waits for a bot always goes first, and the
progress is the share of the decisions done.  The result is stored (table ``analyses``): a second
request, on any process, costs a database read.  A match's analysis exists only once its record is
public (the match is over); uploaded records (``/api/records``) are analysed the same way.

Each process runs at most ``STICH_ANALYSES_RUNNING`` analyses at once (the others wait as
``queued``); the requests count against ``STICH_ANALYSES_PER_ADDRESS`` (stich.web.guard)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass, field

from sqlalchemy import Column, Float, Integer, String, Table, Text, select
from starlette.responses import JSONResponse
from starlette.routing import Route

import stich
from stich.bots import analysis as engine
from stich.web import records, store
from stich.web.logs import event
from stich.web.settings import env_int
from stich.web.spec import BadRequest

log = logging.getLogger("stich.web")

#: finished analyses: the whole result of ``stich.bots.analysis.result`` as JSON (migration 0008)
analyses = Table(
    "analyses", store.metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("worlds", Integer, nullable=False),
    Column("result", Text, nullable=False),
    Column("at", Float, nullable=False),
)


@dataclass
class Job:
    """An analysis this process runs: ``queued`` until it has a place, then ``running``."""

    status: str = "queued"
    done: int = 0
    total: int = 0
    rows: list = field(default_factory=list)
    error: str | None = None
    task: asyncio.Task | None = None

    @property
    def progress(self) -> float:
        return round(self.done / self.total, 3) if self.total else 0.0


class Analyses:
    """The analyses of one server process: those running here, and the stored ones."""

    def __init__(self, server, worlds: int | None = None, running: int | None = None):
        self.server = server
        self.worlds = worlds if worlds is not None else env_int("STICH_ANALYSIS_WORLDS", 24, 1, 1000)
        running = running if running is not None else env_int("STICH_ANALYSES_RUNNING", 2, 1, 1000)
        self.jobs: dict[tuple[str, int], Job] = {}
        self.places = asyncio.Semaphore(running)

    async def stored(self, table_id: str, seat: int) -> dict | None:
        """The stored full result of seat ``seat``'s analysis, or None."""
        row = await store.fetch_one(self.server.engine, select(analyses.c.result).where(
            analyses.c.table_id == table_id, analyses.c.seat == seat))
        return None if row is None else json.loads(row["result"])

    async def _finished_record(self, table_id: str) -> dict:
        """The record of a match that is over; ``BadRequest`` 404 or 409 otherwise."""
        if not isinstance(table_id, str) or len(table_id) > 32:
            raise BadRequest(f"there is no table {table_id}", status=404)
        # a duplicate tournament table's deals are still being played at its round's other tables
        if await self.server.tournaments.withheld(table_id):
            raise BadRequest("the match can be analysed once every table of its tournament round has "
                             "finished: its cards are still being played there", status=409)
        record = await records.record(self.server.engine, table_id)
        if record is None:
            if await self.server.table(table_id) is not None:
                raise BadRequest("the match is not over: it can be analysed once it has ended", status=409)
            raise BadRequest(f"there is no table or record {table_id}", status=404)
        return record

    @staticmethod
    def _seat(record: dict, raw, query: bool = False) -> int:
        """The seat asked for, checked against the record's game (``BadRequest`` 400).  The record is
        one the server made or checked (a finished table's, an upload replayed when it came), so its
        game and seats are read without replaying it here, on the event loop."""
        players = stich.game(record["game"], variant=record["variant"]).num_players
        if query and raw.strip().lstrip("-").isdigit():   # ?seat=K: a number written in the query
            raw = int(raw)
        if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw < players:
            raise BadRequest(f"seat is a whole number from 0 to {players - 1} (the seats of this match), "
                             f"not {raw!r}")
        return raw

    async def ask(self, table_id: str, body) -> dict:
        """``POST``: start the analysis of ``body["seat"]`` unless it is stored or under way; its status."""
        if not isinstance(body, dict) or set(body) != {"seat"}:
            raise BadRequest('the request body is {"seat": K}, K the seat to analyse (0-based)')
        record = await self._finished_record(table_id)
        seat = self._seat(record, body["seat"])
        key = (table_id, seat)
        job = self.jobs.get(key)
        if job is not None and job.error is None:
            return {"status": job.status, "progress": job.progress}
        if await self.stored(table_id, seat) is not None:
            return {"status": "done", "progress": 1.0}
        if not record.get("terminal"):   # an uploaded record of a match cut short
            raise BadRequest("the match is not over: it can be analysed once it has ended", status=409)
        job = self.jobs[key] = Job()
        job.task = asyncio.get_running_loop().create_task(self._run(key, job, record))
        event(log, "analysis asked", table=table_id, seat=seat)
        return {"status": job.status, "progress": job.progress}

    async def answer(self, table_id: str, raw_seat) -> dict:
        """``GET``: the contract's JSON of the analysis of ``raw_seat``: done, or how far it is."""
        record = await self._finished_record(table_id)
        seat = self._seat(record, raw_seat, query=True)
        job = self.jobs.get((table_id, seat))
        if job is not None:
            if job.error is not None:
                raise BadRequest(f"the analysis failed: {job.error}; ask for it again", status=500)
            if job.status != "done":
                return engine.contract({"seat": seat, "decisions": job.rows}, job.status, job.progress)
        res = await self.stored(table_id, seat)
        if res is None:
            raise BadRequest(f"seat {seat} of {table_id} has not been analysed: POST /api/tables/{table_id}/analysis "
                             f'with {{"seat": {seat}}} first', status=404)
        return engine.contract(res)

    async def _run(self, key: tuple[str, int], job: Job, record: dict) -> None:
        table_id, seat = key
        pool = self.server.pool
        lane = ("analysis", table_id, seat)   # its own queue in the workers' fair share
        try:
            async with self.places:
                job.status = "running"
                started = time.perf_counter()
                items = await pool.run(lane, engine.decisions_of, record, seat)
                job.total = len(items)
                for item in items:
                    job.rows.append(await pool.run(lane, engine.analyse_decision, record["game"], item, self.worlds))
                    job.done += 1
                res = engine.result(record["game"], record["variant"], seat, self.worlds, job.rows)
                await self.server.writer.write(_keep(table_id, seat, self.worlds, store.dumps(res)))
                job.status = "done"
                event(log, "analysis done", table=table_id, seat=seat, decisions=len(items),
                      seconds=round(time.perf_counter() - started, 2))
            del self.jobs[key]   # stored: the database answers from now on
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - a failed analysis is reported, and may be asked again
            job.error = f"{type(exc).__name__}: {exc}"
            event(log, "analysis failed", logging.ERROR, table=table_id, seat=seat, error=job.error)

    def close(self) -> None:
        for job in self.jobs.values():
            if job.task is not None:
                job.task.cancel()


def _keep(table_id: str, seat: int, worlds: int, result: str):
    """A write that stores the result unless another process stored one first (then it stays)."""

    def put(conn) -> None:
        have = conn.execute(select(analyses.c.seat).where(analyses.c.table_id == table_id,
                                                          analyses.c.seat == seat)).first()
        if have is None:
            conn.execute(analyses.insert().values(table_id=table_id, seat=seat, worlds=worlds, result=result,
                                                  at=time.time()))
    return put


def routes(read_json, error) -> list:
    """``POST`` and ``GET /api/tables/{ID}/analysis``; ``read_json`` and ``error`` are the app's."""

    async def post(request):
        try:
            body = await read_json(request)
            status = await request.app.state.analyses.ask(request.path_params["table_id"], body)
        except BadRequest as exc:
            return error(exc.status, str(exc))
        return JSONResponse(status, status_code=202)

    async def get(request):
        try:
            seat = request.query_params.get("seat")
            if seat is None:
                raise BadRequest("say which seat: ?seat=K (0-based)")
            answer = await request.app.state.analyses.answer(request.path_params["table_id"], seat)
        except BadRequest as exc:
            return error(exc.status, str(exc))
        return JSONResponse(answer)

    return [Route("/api/tables/{table_id}/analysis", post, methods=["POST"]),
            Route("/api/tables/{table_id}/analysis", get, methods=["GET"])]
