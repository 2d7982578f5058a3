"""The table server's core: the database, the bot pool, and every table's actor.

:class:`Server` creates tables (tokens from ``secrets``, stored only as SHA-256 hashes; the deal
seed from ``secrets``), loads a table by replaying its log (at start-up every unfinished table is
loaded, so its bots and timers resume after a crash), and answers the queries of the HTTP API."""

from __future__ import annotations

import asyncio
import hashlib
import html
import json
import logging
import secrets
import time

from sqlalchemy import select, update

import stich
from stich.bots import bot_names, default_bot_name
from stich.engine import StichError
from stich.web import metrics, store
from stich.web.botpool import BotPool, bot_seed
from stich.web.logs import event
from stich.web.spec import BadRequest, SeatSpec, TableSpec, clean_name, make_game, parse_table
from stich.web.table import Seat, TableActor
from stich.web.table.actor import EVICT_AFTER

log = logging.getLogger("stich.web")

MAX_RECORD_BYTES = 4 * 1024 * 1024


def new_id() -> str:
    return secrets.token_urlsafe(9)  # 12 characters, 72 random bits


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def seat_url(table_id: str, token: str) -> str:
    return f"/t/{table_id}?token={token}"


class Server:
    def __init__(self, db: str | None = None, bot_workers: int | None = None, redis: str | None = None):
        self.url = store.database_url(db)
        self.bot_workers = bot_workers
        self.redis_url = redis
        self.cluster = None   # with --redis: this process's part in a cluster (stich.web.cluster)
        self.tables: dict[str, TableActor] = {}
        self.loading: dict[str, asyncio.Future] = {}
        self.ready = False
        self.pool_factory = BotPool   # stich.web.app puts a RemoteBotPool here for --bot-queue redis
        # limits (stich.web.quotas, set from the environment by stich.web.app)
        self.evict_after = EVICT_AFTER    # seconds a finished table nobody watches stays in memory
        self.refusals_kept = 100          # refused actions remembered per seat of a table
        self.finish_hooks: list = []      # called with a table's id when its match ends (table_finished)

    # --- life cycle ---------------------------------------------------------------------------
    async def start(self) -> None:
        self.engine = store.make_engine(self.url)
        await store.migrate(self.engine)
        self.secret = await store.server_secret(self.engine)
        self.writer = store.Writer(self.engine)
        self.writer.start()
        # Every bot module is imported here, on the event loop's thread, before any request: the
        # registry loads once, and a worker thread warming up must never see it half-loaded.
        bot_names()
        self.pool = self.pool_factory(self.bot_workers)
        self.pool.warm()
        if self.redis_url:
            from stich.web.cluster import Cluster

            self.cluster = Cluster(self, self.redis_url)
            await self.cluster.start()
            # tables whose owner is gone are taken by the sweep, a fair share per live process
            rows = []
            await self.cluster.sweep()
        else:
            rows = await store.fetch_all(self.engine, select(store.tables.c.id).where(
                store.tables.c.finished.is_(False)))
        for row in rows:
            try:
                await self.table(row["id"])
            except Exception:  # noqa: BLE001 - one broken table must not keep the others down
                log.exception("table could not be restored", extra={"fields": {"table": row["id"]}})
        event(log, "ready", tables=len(rows), db=self.url.split("://")[0])
        metrics.watch(self)
        self.ready = True

    async def stop(self) -> None:
        self.ready = False
        owned = [t.id for t in self.tables.values() if t.owner and not t.finished]
        for t in list(self.tables.values()):
            t.stop()
        if self.cluster is not None:
            await self.cluster.handover(owned)
            await self.cluster.stop()
        await self.writer.stop()
        self.pool.close()
        await self.engine.dispose()

    def evict(self, table_id: str) -> None:
        """Drop a finished table, or a replica of another process's table, that nobody here watches."""
        actor = self.tables.get(table_id)
        if actor is not None and (actor.finished or not actor.owner) and not actor.conns:
            actor.stop()
            del self.tables[table_id]
            if self.cluster is not None:
                from stich.web.cluster import o_channel, t_channel

                channel = o_channel(table_id) if actor.owner else t_channel(table_id)
                asyncio.get_running_loop().create_task(self.cluster.unsubscribe(channel))

    # --- bots ---------------------------------------------------------------------------------
    def bot_seed(self, table_id: str, seat: int, seq: int) -> int:
        return bot_seed(self.secret, table_id, seat, seq)

    def takeover_bot(self, game_name: str) -> str:
        return default_bot_name(game_name)

    # --- tables -------------------------------------------------------------------------------
    def table_rows(self, spec: TableSpec, names: dict[int, str] | None = None, claimed: tuple[int, ...] = (),
                   hashes: dict[int, str] | None = None, players: dict[int, int] | None = None
                   ) -> tuple[str, dict[int, str], list]:
        """A new table's id, the tokens of its human seats and the rows that make it, to be committed in
        one transaction (:meth:`create`; a tournament's round commits its tables with its own rows).
        ``hashes``: seats whose token exists already (stored hashed; a tournament player's token).
        ``players``: seats reserved for players (seat -> player id), theirs alone from the start."""
        game = spec.game
        table_id = new_id()
        seed = secrets.randbelow(2**63) if spec.seed is None else spec.seed
        hashes = hashes or {}
        tokens = {i: new_token() for i, s in enumerate(spec.seats) if s.kind == "human" and i not in hashes}
        names = names or {}
        stmts = [store.tables.insert().values(
            id=table_id, game=game.name, variant=game.variant, options=store.dumps(dict(game.options)),
            settings=store.dumps(spec.settings), seed=seed, setup=store.dumps(spec.setup) if spec.setup else None,
            public=spec.public, finished=False, rated=spec.rated,
            created=time.time(), record=None)]
        for i, s in enumerate(spec.seats):
            digest = hashes.get(i) or (token_hash(tokens[i]) if i in tokens else None)
            stmts.append((store.seats, dict(
                table_id=table_id, seat=i, kind=s.kind, bot=s.bot, token_hash=digest, name=names.get(i) or s.name,
                claimed=i in claimed, player_id=(players or {}).get(i))))
        if self.cluster is not None:
            stmts.append(self.cluster.lease_row(table_id))   # the creating process owns the table first
        return table_id, tokens, stmts

    async def create(self, spec: TableSpec, names: dict[int, str] | None = None,
                     claimed: tuple[int, ...] = (), players: dict[int, int] | None = None
                     ) -> tuple[TableActor, dict[int, str]]:
        """A new table; returns its actor and the token of each human seat (shown once, stored hashed)."""
        table_id, tokens, stmts = self.table_rows(spec, names, claimed, players=players)
        await self.writer.write(*stmts)
        actor = await self.table(table_id)
        self.created(spec, table_id)
        return actor, tokens

    def created(self, spec: TableSpec, table_id: str) -> None:
        event(log, "table created", table=table_id, seq=0, game=spec.game.name, variant=spec.game.variant,
              seats=[s.kind if s.kind == "human" else f"bot:{s.bot}" for s in spec.seats], public=spec.public)

    def table_finished(self, table_id: str) -> None:
        """Called by a table's actor once its last action is committed: each of ``finish_hooks`` hears it
        (a tournament's next match, its results); a hook must not block."""
        for hook in self.finish_hooks:
            hook(table_id)

    async def table(self, table_id: str) -> TableActor | None:
        """The actor of a table, loaded (by replaying its log) on first use; None if there is none."""
        actor = self.tables.get(table_id)
        if actor is not None:
            return actor
        if not isinstance(table_id, str) or len(table_id) > 32:
            return None
        pending = self.loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut = asyncio.get_running_loop().create_future()
        self.loading[table_id] = fut
        try:
            if self.cluster is not None:
                actor = await self._open(table_id)
            else:
                actor = await self._load(table_id)
            if actor is not None:
                self.tables[table_id] = actor
                actor.start()
                actor.maybe_evict()  # a finished match loaded for a page or a record
            fut.set_result(actor)
            return actor
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            self.loading.pop(table_id, None)

    async def _open(self, table_id: str) -> TableActor | None:
        """With a cluster: load a table as its owner when its lease is free (or ours), else as a replica
        that follows the owner's channel (subscribed before the log is read: nothing falls between)."""
        from stich.web.cluster import o_channel, t_channel

        row = await store.fetch_one(self.engine, select(store.tables.c.finished).where(store.tables.c.id == table_id))
        if row is None:
            return None
        await self.cluster.subscribe(t_channel(table_id))
        owner = not row["finished"] and await self.cluster.acquire(table_id)
        if owner:
            await self.cluster.subscribe(o_channel(table_id))
            await self.cluster.unsubscribe(t_channel(table_id))
        return await self._load(table_id, owner)

    async def _load(self, table_id: str, owner: bool = True) -> TableActor | None:
        fields = await self.read(table_id)
        return None if fields is None else TableActor(self, table_id, **fields, owner=owner)

    async def read(self, table_id: str) -> dict | None:
        """A table's fields as its log rebuilds them (the state replayed), or None if there is none."""
        row = await store.fetch_one(self.engine, select(store.tables).where(store.tables.c.id == table_id))
        if row is None:
            return None
        seat_rows = await store.fetch_all(self.engine, select(store.seats).where(
            store.seats.c.table_id == table_id).order_by(store.seats.c.seat))
        action_rows = await store.fetch_all(self.engine, select(store.actions).where(
            store.actions.c.table_id == table_id).order_by(store.actions.c.seq))
        answer_rows = await store.fetch_all(self.engine, select(store.answers).where(
            store.answers.c.table_id == table_id))
        chat_rows = await store.fetch_all(self.engine, select(store.chat).where(
            store.chat.c.table_id == table_id).order_by(store.chat.c.id.desc()).limit(50))
        game = stich.game(row["game"], row["variant"], **json.loads(row["options"]))
        state = game.new_state(seed=int(row["seed"]), **(json.loads(row["setup"]) if row["setup"] else {}))
        marks = [len(state.events)]
        for i, a in enumerate(action_rows):
            if a["seq"] != i + 1:
                raise RuntimeError(f"table {table_id}: the log is broken at seq {a['seq']}")
            try:  # any seat may have acted, on turn or out of turn: the engine checks it for that seat
                state.apply(a["action"], seat=a["seat"])
            except StichError as exc:
                raise RuntimeError(f"table {table_id}: the log is broken at seq {a['seq']}: {exc}") from exc
            marks.append(len(state.events))
        answers = {}
        for a in answer_rows:
            if a["error"] is None:
                answers[(a["seat"], a["client_id"])] = {"type": "ack", "id": a["client_id"], "seq": a["seq"]}
            else:
                answers[(a["seat"], a["client_id"])] = {"type": "error", "id": a["client_id"], "message": a["error"]}
        seats = [Seat(r["seat"], r["kind"], r["bot"], r["token_hash"], r["name"], bool(r["claimed"]),
                      bool(r["arrived"]), r["player_id"]) for r in seat_rows]
        link = await store.fetch_one(self.engine, select(store.rematches.c.next_id).where(
            store.rematches.c.table_id == table_id))
        chat = [{"seat": r["seat"], "name": r["name"], "text": r["text"]} for r in reversed(chat_rows)]
        if action_rows and self.cluster is None:
            event(log, "table restored", table=table_id, seq=len(action_rows))
        return dict(game=game, state=state, seats=seats, settings=json.loads(row["settings"]),
                    public=bool(row["public"]), answers=answers, chat=chat, marks=marks,
                    started=bool(row["started"]), rematch=link["next_id"] if link else None,
                    rated=bool(row["rated"]))

    # --- the HTTP API's work ------------------------------------------------------------------
    async def create_from_body(self, body, claim_first: bool = False) -> dict:
        """``POST /api/tables``; ``claim_first``: the first human seat is handed out already (a club
        member who starts a table sits there; the club's lobby offers only the others)."""
        spec = parse_table(body)
        first = next((i for i, s in enumerate(spec.seats) if s.kind == "human"), None)
        actor, tokens = await self.create(spec, claimed=(first,) if claim_first and first is not None else ())
        out = []
        for i, s in enumerate(spec.seats):
            if i in tokens:
                out.append({"seat": i, "kind": "human", "token": tokens[i], "url": seat_url(actor.id, tokens[i])})
            else:
                out.append({"seat": i, "kind": "bot", "bot": s.bot})
        return {"table": actor.id, "seats": out, "watch": f"/t/{actor.id}"}

    async def quickplay(self, body) -> dict:
        if not isinstance(body, dict):
            raise BadRequest("the request body must be a JSON object")
        known = {"game", "variant", "options", "name", "bot", "grace", "timer", "signals", "bot_delay"}
        extra = sorted(set(body) - known)
        if extra:
            raise BadRequest(f"unknown field(s): {', '.join(extra)}; fields are: {', '.join(sorted(known))}")
        game = make_game(body.get("game"), body.get("variant"), body.get("options"))
        bot = body.get("bot")
        if bot is None:
            bot = "bot"
        elif not isinstance(bot, str):
            raise BadRequest("'bot' must be a bot name such as 'pimc' or 'heuristic@0.5s'")
        else:
            bot = "bot:" + bot
        seats = ["human"] + [bot] * (game.num_players - 1)
        table_body = {k: v for k, v in body.items() if k in ("game", "variant", "options", "grace", "timer",
                                                              "signals", "bot_delay")}
        # one person with bots: nobody to wait for, the match starts at once (docs/web-protocol.md)
        spec = parse_table({**table_body, "seats": seats, "start": "now"})
        name = clean_name(body["name"]) if body.get("name") is not None else None
        actor, tokens = await self.create(spec, names={0: name} if name else None, claimed=(0,))
        return {"table": actor.id, "seat": 0, "token": tokens[0], "url": seat_url(actor.id, tokens[0])}

    async def lobby(self) -> dict:
        if self.cluster is not None:
            return await self._lobby_from_db()
        out = []
        for actor in list(self.tables.values()):
            if not actor.public or actor.finished:
                continue
            if not any(s.kind == "human" and not s.claimed for s in actor.seats):
                continue
            out.append({"table": actor.id, "game": actor.game.name, "variant": actor.game.variant,
                        "settings": dict(actor.settings),
                        "seats": [{"seat": s["seat"], "kind": s["kind"], "taken": s["taken"], "name": s["name"]}
                                  for s in actor.seats_info()]})
        return {"tables": out}

    async def _lobby_from_db(self) -> dict:
        """The lobby of a cluster: every process's public tables with a free seat, from the database."""
        T, S = store.tables, store.seats
        free = select(S.c.table_id).where(S.c.kind == "human", S.c.claimed.is_(False))
        rows = await store.fetch_all(self.engine, select(T.c.id, T.c.game, T.c.variant, T.c.settings).where(
            T.c.public.is_(True), T.c.finished.is_(False), T.c.id.in_(free)).order_by(T.c.created))
        seats: dict[str, list] = {r["id"]: [] for r in rows}
        if rows:
            for s in await store.fetch_all(self.engine, select(S).where(S.c.table_id.in_(list(seats))).order_by(
                    S.c.table_id, S.c.seat)):
                taken = s["kind"] == "bot" or bool(s["claimed"])
                seats[s["table_id"]].append({"seat": s["seat"], "kind": s["kind"], "taken": taken,
                                             "name": html.escape(s["name"]) if s["name"] else None})
        return {"tables": [{"table": r["id"], "game": r["game"], "variant": r["variant"],
                            "settings": json.loads(r["settings"]), "seats": seats[r["id"]]} for r in rows]}

    async def join(self, table_id: str, body, private_ok: bool = False,
                   reserved_for: int | None = None) -> tuple[int, dict]:
        """Claim a free human seat of a public table (``private_ok``: of any table, for a club's
        member at the club's table; ``reserved_for``: the seat reserved for that player, a new link
        to it): (status, body)."""
        actor = await self.table(table_id)
        if actor is None:
            return 404, {"error": f"there is no table {table_id}"}
        if self.cluster is not None and not actor.owner:  # the owner alone hands out seats
            answer = await self.cluster.call(actor, "join", [body, private_ok, reserved_for])
            if not isinstance(answer, list):   # no answer in time (UNDELIVERED)
                return 503, {"error": "the table's server did not answer; try again"}
            return answer[0], answer[1]
        return await self.join_here(actor, body, private_ok, reserved_for)

    async def join_here(self, actor: TableActor, body, private_ok: bool = False,
                        reserved_for: int | None = None) -> tuple[int, dict]:
        table_id = actor.id
        if not actor.public and not private_ok and reserved_for is None:
            return 403, {"error": "this table is private: ask for an invite link"}
        if actor.finished:
            return 409, {"error": "the match is over"}
        if body is not None and not isinstance(body, dict):
            raise BadRequest("the request body must be a JSON object")
        name = (body or {}).get("name")
        name = clean_name(name) if name is not None else None
        if reserved_for is not None:   # the player's own seat, whoever opened it before
            free = [s for s in actor.seats if s.player_id == reserved_for]
            if not free:
                return 404, {"error": "no seat at this table is reserved for you"}
        else:
            free = [s for s in actor.seats if s.kind == "human" and not s.claimed]
        if not free:
            return 409, {"error": "every seat at this table is taken"}
        s = free[0]
        token = new_token()
        s.claimed = True  # claimed before the await: two joins never get the same seat
        old = (s.token_hash, s.name)
        s.token_hash, s.name = token_hash(token), name or s.name
        try:
            await self.writer.write(update(store.seats).where(
                store.seats.c.table_id == table_id, store.seats.c.seat == s.seat).values(
                token_hash=s.token_hash, name=s.name, claimed=True))
        except Exception:
            s.claimed, (s.token_hash, s.name) = False, old
            raise
        actor.broadcast_seats()
        return 201, {"seat": s.seat, "token": token, "url": seat_url(table_id, token)}

    async def record(self, table_id: str) -> dict | None:
        """The record of a finished table, or of an uploaded record; None if there is none (yet)."""
        if not isinstance(table_id, str) or len(table_id) > 32:
            return None
        row = await store.fetch_one(self.engine, select(store.tables.c.record).where(store.tables.c.id == table_id))
        if row is not None and row["record"]:
            return json.loads(row["record"])
        row = await store.fetch_one(self.engine, select(store.records.c.record).where(store.records.c.id == table_id))
        if row is not None:
            return json.loads(row["record"])
        return None

    async def upload(self, body) -> dict:
        """Keep an uploaded record once it replays exactly: ``{"id", "url"}``."""
        if not isinstance(body, dict):
            raise BadRequest("a record is a JSON object (the file 'stich play' or a table's record link saves)")
        try:
            state = stich.replay(body)
        except StichError as exc:
            raise BadRequest(str(exc)) from None
        except Exception as exc:  # noqa: BLE001 - any other failure of a hostile record is still a bad request
            raise BadRequest(f"the record does not replay: {type(exc).__name__}: {exc}") from None
        rec = state.record()
        for key in ("web", "cli"):  # keep the table's or terminal's notes (names, bots) if well-formed
            if isinstance(body.get(key), dict):
                rec[key] = body[key]
        rid = new_id()
        await self.writer.write(store.records.insert().values(id=rid, record=store.dumps(rec), at=time.time()))
        event(log, "record uploaded", id=rid, game=rec["game"], actions=len(rec["actions"]))
        return {"id": rid, "url": f"/replay/{rid}"}


__all__ = ["Server", "SeatSpec", "token_hash", "MAX_RECORD_BYTES"]
