"""The table actor: one per table, the only owner of its State.

Everything that changes a table runs, one at a time, in the actor's task (``submit``): an action is
validated by the engine on a clone, appended to the table's log in a committed transaction, and
only then does the clone become the state and is anyone told (ack to the actor, then a frame per
connection built from ``state.view(seat)`` and that seat's legal actions, nothing else).  Bots and
expired timers go through the same path.  Connections never block the actor: each has its own
outgoing queue (:class:`Conn`).  With several processes (``--redis``), what a table does as a replica
of another process's table, or when it changes owner, is in :mod:`stich.web.replica`."""

from __future__ import annotations

import asyncio
import html
import json
import logging
import time
from collections import deque

from sqlalchemy import delete, update

from stich.engine import StichError
from stich.web import metrics, store
from stich.web.cluster import FORWARDED, t_channel
from stich.web.logs import event
from stich.web.replica import LOST, ClusterPart
from stich.web.spec import BadRequest, clean_name, timer_seconds

log = logging.getLogger("stich.web")

CHAT_LIMIT = 500          # characters per chat message
CHAT_RATE = (5, 10.0)     # at most 5 messages (chat or signals) per 10 seconds per seat
CHAT_KEEP = 50            # recent messages kept for new connections and pages
MAX_ACTION = 200          # characters of an action text
MAX_CLIENT_ID = 128
# seconds a finished table without connections stays in memory: its page, record and replay reload
# it from the log on demand, so a short stay costs nothing; at 200 busy tables 5 minutes kept ~350
# finished ones (RSS 244 -> 520 MiB in a 10-minute soak, and longer full garbage collections)
EVICT_AFTER = 60.0
MAX_INFLIGHT = 64         # messages of one connection waiting in the actor
SEND_QUEUE = 256          # frames waiting for a slow connection before it is dropped
REPLICA_IDLE = 30.0       # seconds a replica of another process's table stays without connections


def legal_for(state, seat: int | None) -> list[str]:
    """The legal action texts of ``seat`` (None: a spectator, who has none).

    The one place that decides which seats may act: the seat on turn and any seat the rules let act
    out of turn (e.g. the other Ansager's ``ask_exchange`` in Euregio Watten); empty once it is over."""
    if seat is None or state.is_terminal():
        return []
    return [str(a) for a in state.legal_actions(seat)]


def escape(text: str | None) -> str | None:
    return None if text is None else html.escape(text, quote=True)


def _render_html():
    try:
        from stich.web.ui import render_table
    except Exception:  # noqa: BLE001 - BROWSER's renderer absent or broken: an escaped <pre> instead
        return None
    return render_table


class Conn:
    """One socket: its seat (None = spectator), format and language, and its outgoing queue."""

    def __init__(self, ws, seat: int | None, fmt: str = "json", lang: str = "en"):
        self.ws = ws
        self.seat = seat
        self.fmt = fmt
        self.lang = lang
        self.out: asyncio.Queue = asyncio.Queue()
        self.closed = False
        self.inflight = 0  # messages of this connection waiting in the table's actor
        self.task = asyncio.get_running_loop().create_task(self._pump())

    def send(self, message) -> None:
        if self.closed:
            return
        if self.out.qsize() >= SEND_QUEUE:  # a client that does not read: drop it, it can resync
            self.closed = True
            self.out.put_nowait(None)
            return
        self.out.put_nowait(message if isinstance(message, str) else store.dumps(message))

    def after_sent(self, fn) -> None:
        """Call ``fn()`` once every frame queued so far has been written to the socket."""
        if not self.closed:
            self.out.put_nowait(fn)

    async def _pump(self) -> None:
        try:
            while True:
                text = await self.out.get()
                if text is None:
                    await self.ws.close(code=4008)
                    return
                if callable(text):  # after_sent: the frames before it are out
                    text()
                    continue
                await self.ws.send_text(text)
        except Exception:  # noqa: BLE001 - the socket is gone; the handler notices on receive
            self.closed = True

    def stop(self) -> None:
        self.closed = True
        if self.task is not None:
            self.task.cancel()
        # the cancelled task's exception holds the pump's frame, which holds this Conn, which held
        # the task: without this a closed connection waited for a full garbage collection
        self.task = None


class Seat:
    def __init__(self, seat: int, kind: str, bot: str | None, token_hash: str | None, name: str | None,
                 claimed: bool):
        self.seat = seat
        self.kind = kind
        self.bot = bot
        self.token_hash = token_hash
        self.name = name
        self.claimed = claimed
        self.bot_playing = False     # a human seat whose bot plays after the grace period
        self.grace: asyncio.TimerHandle | None = None
        self.said: deque = deque()   # times of recent chat messages and signals


class TableActor(ClusterPart):
    """One table: its state, seats, connections, timers and bots (and, in a cluster, what
    :class:`~stich.web.replica.ClusterPart` adds: following another process's table, changing owner)."""

    def __init__(self, server, table_id: str, game, state, seats: list[Seat], settings: dict, public: bool,
                 answers: dict, chat: list[dict], marks: list[int]):
        self.server = server
        self.id = table_id
        self.game = game
        self.state = state
        self.seats = seats
        self.settings = settings
        self.public = public
        self.answers = answers           # (seat, client id) -> the answer frame
        self.chat = deque(chat, maxlen=CHAT_KEEP)
        self.marks = marks                 # seq -> how many of the state's events existed then
        self.conns: set[Conn] = set()
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.bot_pending: int | None = None  # the seq a bot is thinking about
        self.turn_deadline: float | None = None
        self.turn_timer: asyncio.TimerHandle | None = None
        # With a cluster (stich.web.cluster): whether this process owns the table (applies actions,
        # runs bots and timers) or keeps a replica that follows the owner; alone, always the owner.
        self.owner = True
        self.remote: dict[str, tuple[frozenset, float]] = {}  # owner: node -> (seats connected there, when)
        self.remote_connected: set[int] = set()               # replica: seats connected anywhere (owner's word)
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{table_id}")

    @property
    def cluster(self):
        return self.server.cluster

    def _adopt(self, fields: dict) -> None:
        """Take the fields of a fresh read of the log (a replica catching up, or a change of owner)."""
        for s in self.seats:
            if s.grace:
                s.grace.cancel()
        self.state = fields["state"]
        self.seats = fields["seats"]
        self.settings = fields["settings"]
        self.public = fields["public"]
        self.answers = fields["answers"]
        self.chat = deque(fields["chat"], maxlen=CHAT_KEEP)
        self.marks = fields["marks"]

    # --- the actor loop -----------------------------------------------------------------------
    def submit(self, fn, *args) -> None:
        self.inbox.put_nowait((fn, args))

    def submit_from(self, conn: Conn, fn, *args) -> None:
        """Queue a client's message; a client with too many waiting gets an error instead (no flood)."""
        if conn.inflight >= MAX_INFLIGHT:
            conn.send({"type": "error", "id": None, "message": "too many messages at once; wait for the answers"})
            return
        conn.inflight += 1

        async def run():
            try:
                if self.owner or fn.__name__ not in FORWARDED or self.finished:
                    await fn(conn, *args)
                else:  # a replica: the owner decides (decided here, in the actor, where the role is certain)
                    self.cluster.forward(self, conn, fn.__name__, args)
            finally:
                conn.inflight -= 1

        self.submit(run)

    async def _run(self) -> None:
        try:
            while True:
                fn, args = await self.inbox.get()
                try:
                    await fn(*args)
                except Exception:  # noqa: BLE001 - a bug in one step must not stop the table
                    metrics.error("table_step_failed")
                    log.exception("table step failed", extra={"fields": {"table": self.id, "seq": self.seq}})
        except asyncio.CancelledError:
            # stop(): end quietly.  A task that ends cancelled keeps its CancelledError, whose
            # traceback holds this frame and so this actor, which holds the task: the table and its
            # whole history would wait for a full garbage collection instead of going at once.
            return

    def start(self) -> None:
        """After loading: a grace period for every human seat, taken or not (nobody is connected yet:
        a seat whose invite link nobody opens must not leave the table waiting for ever); bots to move.
        A replica instead checks that it missed no action between subscribing and reading the log."""
        if not self.owner:
            self.submit(self._catch_up)
            return
        for s in self.seats:
            if s.kind == "human":
                self._start_grace(s)
        self._schedule()

    def stop(self) -> None:
        self.task.cancel()
        for s in self.seats:
            if s.grace:
                s.grace.cancel()
        if self.turn_timer:
            self.turn_timer.cancel()
        for c in list(self.conns):
            c.stop()

    # --- facts --------------------------------------------------------------------------------
    @property
    def seq(self) -> int:
        return len(self.state.history)

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    def seat_for_hash(self, token_hash: str) -> int | None:
        import hmac

        found = None
        for s in self.seats:  # compare with every seat, in constant time each
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, token_hash):
                found = s.seat
        return found

    def controller(self, seat: int) -> str | None:
        """The bot spec that moves for ``seat`` now, or None when a human is to move."""
        s = self.seats[seat]
        if s.kind == "bot":
            return s.bot
        if s.bot_playing:
            return self.server.takeover_bot(self.game.name)
        return None

    def connected(self) -> set[int]:
        """The seats with a connection on any process."""
        here = {c.seat for c in self.conns if c.seat is not None}
        if not self.owner:
            return here | self.remote_connected
        for seats, _at in self.remote.values():
            here |= seats
        return here

    def seats_info(self, raw: bool = False) -> list[dict]:
        connected = self.connected()
        out = []
        for s in self.seats:
            name = s.name if raw else escape(s.name)
            item = {"seat": s.seat, "name": name, "kind": s.kind,
                    "connected": s.kind == "bot" or s.seat in connected,
                    "bot_playing": s.kind == "bot" or s.bot_playing, "taken": s.kind == "bot" or s.claimed}
            if s.kind == "bot":
                item["bot"] = s.bot
            out.append(item)
        return out

    def meta(self) -> dict:
        return {"table": self.id, "game": self.game.name, "variant": self.game.variant,
                "options": dict(self.game.options), "settings": dict(self.settings), "public": self.public,
                "seats": self.seats_info(), "finished": self.finished, "seq": self.seq}

    def make_record(self, state) -> dict:
        rec = state.record()
        rec["web"] = {"table": self.id, "seats": [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name}
                                                  for s in self.seats]}
        return rec

    # --- frames -------------------------------------------------------------------------------
    def _clock(self) -> dict | None:
        if self.turn_deadline is None:
            return None
        return {"seat": self.state.current_player, "seconds": round(max(0.0, self.turn_deadline - time.time()), 1)}

    def frame(self, seat: int | None, fmt: str, lang: str) -> dict:
        """The frame for one connection: built from ``view(seat)`` and that seat's legal actions only."""
        state = self.state
        view = state.view(seat)
        legal = legal_for(state, seat)
        base = {"seq": self.seq, "seat": seat}
        extra = {"finished": self.finished}
        clock = self._clock()
        if clock:
            extra["clock"] = clock
        if self.finished:
            extra["record"] = f"/api/tables/{self.id}/record"
        if fmt == "html":
            ctx = {"table": self.id, "game": self.game.name, "variant": self.game.variant,
                   "options": dict(self.game.options), "seat": seat, "view": view, "legal": legal,
                   "events": state.visible_events(seat), "seats": self.seats_info(raw=True), "lang": lang,
                   "seq": self.seq, "finished": self.finished, "chat": self.chat_for(seat, raw=True)}
            render = _render_html()
            fragment = None
            if render is not None:
                try:
                    fragment = render(ctx)
                except Exception:  # noqa: BLE001 - a page bug must not stop the table: the plain view instead
                    log.exception("render_table failed", extra={"fields": {"table": self.id}})
            if fragment is None:
                fragment = "<pre>" + html.escape(json.dumps(view, ensure_ascii=False, indent=1)) + "</pre>"
            return {"type": "html", **base, "legal": legal, "html": fragment, **extra}
        return {"type": "state", **base, "view": view, "legal": legal, **extra}

    @staticmethod
    def chat_frame(m: dict) -> dict:
        """The frame of one chat message (``{seat, name, text}`` as kept), name and text escaped."""
        return {"type": "chat", "seat": m["seat"], "name": escape(m["name"]), "text": escape(m["text"])}

    def chat_for(self, seat, raw: bool = False) -> list[dict]:
        return [dict(m) if raw else self.chat_frame(m) for m in self.chat]

    def send_all(self, msg, seats=None) -> None:
        """One frame to every connection here (``seats``: to those of these seats only), made once.
        The owner's talk and a replica's echo of it both go out this way."""
        text = msg if isinstance(msg, str) else store.dumps(msg)
        for c in list(self.conns):
            if seats is None or c.seat in seats:
                c.send(text)

    def broadcast_state(self) -> None:
        cache: dict = {}
        for c in list(self.conns):
            key = (c.seat, c.fmt, c.lang)
            if key not in cache:
                cache[key] = store.dumps(self.frame(c.seat, c.fmt, c.lang))
            c.send(cache[key])

    def broadcast_seats(self) -> None:
        if self.cluster is not None and self.owner:
            self._publish_seats()
        self.send_all({"type": "seats", "seats": self.seats_info()})
        if any(c.fmt == "html" for c in self.conns):  # the page shows who is there
            cache: dict = {}
            for c in list(self.conns):
                if c.fmt == "html":
                    key = (c.seat, c.lang)
                    if key not in cache:
                        cache[key] = store.dumps(self.frame(c.seat, c.fmt, c.lang))
                    c.send(cache[key])

    # --- connections --------------------------------------------------------------------------
    async def attach(self, conn: Conn) -> None:
        """A new connection, attached in the actor's task: a seat's hand-back and the first frames are
        then one step between two others, never beside a bot's move whose commit is in flight (that
        move would land after the human was told the seat and its legal actions were theirs)."""
        done = asyncio.get_running_loop().create_future()

        async def run():
            try:
                await self._attach(conn)
            except BaseException as exc:
                if not done.done():
                    done.set_exception(exc)
                raise
            if not done.done():
                done.set_result(None)

        self.submit(run)
        await asyncio.wait([done, self.task], return_when=asyncio.FIRST_COMPLETED)
        if done.done():
            done.result()
        else:  # the actor stopped (the table left memory): attach here, as nothing else moves it now
            await self._attach(conn)

    async def _attach(self, conn: Conn) -> None:
        self.conns.add(conn)
        if self.cluster is not None:
            self.cluster.register(conn)
        seat = conn.seat
        if not self.owner:
            # a replica may lag behind what the client already saw elsewhere: catch up with the log
            # first, so that no connection's seq ever goes back
            await self._catch_up()
        if seat is not None and not self.owner:
            self.cluster.presence(self)   # the owner claims the seat, cancels its grace, hands it back
        elif seat is not None:
            await self._seat_here(seat)
        conn.send({"type": "seats", "seats": self.seats_info()})
        conn.send(self.frame(conn.seat, conn.fmt, conn.lang))
        for m in self.chat_for(conn.seat):
            conn.send(m)
        self.broadcast_seats()

    async def _seat_here(self, seat: int) -> None:
        """A seat's player is connected (here or on another process): its grace ends, the bot hands back."""
        s = self.seats[seat]
        if s.grace:
            s.grace.cancel()
            s.grace = None
        if not s.claimed:
            s.claimed = True
            await self.server.writer.write(update(store.seats).where(
                store.seats.c.table_id == self.id, store.seats.c.seat == seat).values(claimed=True))
        if s.bot_playing:  # the human is back: the bot hands the seat back
            s.bot_playing = False
            event(log, "seat handed back", table=self.id, seq=self.seq, seat=seat)
            if self.bot_pending == self.seq and self.state.current_player == seat:
                self.bot_pending = None  # its answer will be dropped
            self._schedule()

    def detach(self, conn: Conn) -> None:
        self.conns.discard(conn)
        conn.stop()
        if self.cluster is not None:
            self.cluster.unregister(conn)
            if not self.owner:
                self.cluster.presence(self)
                self.broadcast_seats()
                if not self.conns:  # a replica nobody here watches is dropped after a while
                    asyncio.get_running_loop().call_later(REPLICA_IDLE, self.server.evict, self.id)
                return
        if conn.seat is not None and conn.seat not in self.connected():
            self._start_grace(self.seats[conn.seat])
        self.broadcast_seats()
        self.maybe_evict()

    def maybe_evict(self) -> None:
        """A finished table nobody watches leaves memory after a while (it reloads from its log on demand)."""
        if self.finished and not self.conns:
            asyncio.get_running_loop().call_later(EVICT_AFTER, self.server.evict, self.id)

    def _start_grace(self, s: Seat) -> None:
        grace = self.settings.get("grace")
        if grace is None or self.finished or s.kind != "human" or s.bot_playing:
            return
        if s.grace:
            s.grace.cancel()
        s.grace = asyncio.get_running_loop().call_later(grace, self.submit, self._grace_over, s.seat)

    async def _grace_over(self, seat: int) -> None:
        s = self.seats[seat]
        s.grace = None
        if not self.owner or seat in self.connected() or self.finished:
            return
        s.bot_playing = True
        event(log, "bot takes the seat", table=self.id, seq=self.seq, seat=seat, taken=s.claimed)
        self.broadcast_seats()
        self._schedule()

    # --- turns: bots and timers ---------------------------------------------------------------
    def _schedule(self) -> None:
        """Whoever is to move now: ask the bot, or start the turn timer for a human.

        Only ``current_player`` counts here: a bot (or the timer's move) acts on turn and never takes a
        decision out of turn; humans take theirs through ``act``, which accepts any seat's legal action."""
        if not self.owner:
            return  # a replica: the owner runs the bots and timers
        if self.turn_timer:
            self.turn_timer.cancel()
            self.turn_timer = None
        self.turn_deadline = None
        if self.finished:
            return
        seat = self.state.current_player
        spec = self.controller(seat)
        if spec is not None:
            self._ask_bot(seat, spec, "bot" if self.seats[seat].kind == "bot" else "takeover")
            return
        seconds = timer_seconds(self.settings.get("timer", "off"))
        if seconds:
            self.turn_deadline = time.time() + seconds
            self.turn_timer = asyncio.get_running_loop().call_later(seconds, self.submit, self._timer_over,
                                                                    self.seq, seat)

    def _ask_bot(self, seat: int, spec: str, origin: str) -> None:
        if self.bot_pending == self.seq:
            return
        self.bot_pending = self.seq
        view = self.state.view(seat)  # taken now: the bot sees this seat's view and nothing else
        legal = legal_for(self.state, seat)
        asyncio.get_running_loop().create_task(self._think(seat, self.seq, spec, origin, view, legal))

    async def _think(self, seat, seq, spec, origin, view, legal) -> None:
        delay = self.settings.get("bot_delay") or 0
        if delay and origin == "bot":
            await asyncio.sleep(delay)
        seed = self.server.bot_seed(self.id, seat, seq)
        action, fault = await self.server.pool.choose(spec, seed, view, legal)
        if fault:
            metrics.error("bot_fault")
            event(log, "bot fault", logging.WARNING, table=self.id, seq=seq, seat=seat, bot=spec, error=fault)
        self.submit(self._bot_move, seat, seq, action, origin)

    async def _timer_over(self, seq: int, seat: int) -> None:
        if not self.owner or seq != self.seq or self.finished or self.state.current_player != seat:
            return
        self.turn_deadline = None
        event(log, "turn timer expired", table=self.id, seq=seq, seat=seat)
        self._ask_bot(seat, self.server.takeover_bot(self.game.name), "timer")

    async def _bot_move(self, seat: int, seq: int, action: str, origin: str) -> None:
        if not self.owner or seq != self.seq or self.finished or self.state.current_player != seat:
            return
        if origin != "timer" and self.controller(seat) is None:
            return  # the human came back while the bot was thinking
        self.bot_pending = None
        new = self.state.clone()
        try:
            new.apply(action, seat=seat)
        except StichError as exc:  # cannot happen for an answer from the legal list; never fatal
            event(log, "bot action refused", logging.ERROR, table=self.id, seq=seq, seat=seat, error=str(exc))
            return
        await self._commit(new, seat, origin, None)

    # --- acting -------------------------------------------------------------------------------
    def _check(self, seat: int | None, text) -> tuple[object | None, str | None]:
        """(new state, None) for a legal action of ``seat``; (None, message) otherwise."""
        if seat is None:
            return None, "spectators cannot act; join the table with a seat's link"
        if not isinstance(text, str) or not text.strip():
            return None, "'action' must be the text of an action, e.g. 'play EO'"
        if len(text) > MAX_ACTION:
            return None, f"an action has at most {MAX_ACTION} characters"
        if self.finished:
            return None, "the match is over"
        if not legal_for(self.state, seat):
            return None, f"it is not your turn: seat {self.state.current_player + 1} is to act (seats are 1-based)"
        new = self.state.clone()
        try:  # with seat=, a text naming another seat ("4:ask_exchange") is refused by the engine
            new.apply(text, seat=seat)
        except StichError as exc:
            return None, str(exc)
        return new, None

    async def act(self, conn: Conn, cid: str, text, received: float | None = None) -> None:
        """A client's action (``received``: ``time.perf_counter()`` when its message arrived, for the
        latency metric)."""
        seat = conn.seat
        key = (seat, cid)
        if key in self.answers:  # a resent id: the same answer, no second effect
            conn.send(self.answers[key])
            return
        new, error = self._check(seat, text)
        if error is not None:
            metrics.error("action_refused")
            answer = {"type": "error", "id": cid, "message": error}
            if seat is not None:
                try:
                    await self.server.writer.write((store.answers, dict(
                        table_id=self.id, seat=seat, client_id=cid, seq=None, error=error)))
                    self.answers[key] = answer
                except Exception:  # noqa: BLE001 - the refusal stands; only its memory is lost
                    pass
            conn.send(answer)
            return
        seq = await self._commit(new, seat, "human", cid, conn)
        if seq is LOST:  # another process owns the table now: it answers (same client id, one effect)
            if isinstance(conn, Conn):
                self.cluster.forward(self, conn, "act", (cid, text))
            return LOST
        if seq is not None and received is not None:  # until the new state frame is out to this client
            conn.after_sent(lambda: metrics.action_latency(time.perf_counter() - received))
        if seq is None:
            conn.send({"type": "error", "id": cid, "retry": True,   # not saved: the same id may take effect
                       "message": "the server could not save the action; send it again with the same id"})

    async def _commit(self, new, seat: int, origin: str, cid: str | None, conn: Conn | None = None) -> int | None:
        """Append the action to the log (committed), then adopt the new state and tell everyone."""
        seq = len(new.history)
        text = str(new.history[-1][1])
        stmts = [(store.actions, dict(table_id=self.id, seq=seq, seat=seat, action=text, origin=origin,
                                      client_id=cid, at=time.time()))]
        if cid is not None:
            stmts.append((store.answers, dict(table_id=self.id, seat=seat, client_id=cid, seq=seq, error=None)))
        if new.is_terminal():
            stmts.append(update(store.tables).where(store.tables.c.id == self.id).values(
                finished=True, record=store.dumps(self.make_record(new))))
        if self.cluster is not None:
            stmts.append(self.cluster.guard(self.id))   # runs first in the transaction
            if new.is_terminal():  # a finished table has no owner: nobody renews or sweeps it for ever
                stmts.append(delete(store.leases).where(store.leases.c.table_id == self.id))
        try:
            await self.server.writer.write(*stmts)
        except store.LeaseLost:  # not saved, and not ours to save: become a replica of the new owner
            event(log, "lease lost at commit", logging.WARNING, table=self.id, seq=seq)
            await self.demote()
            return LOST
        except Exception as exc:  # noqa: BLE001 - not saved: nothing changes, nobody is told
            metrics.error("commit_failed")
            event(log, "commit failed", logging.ERROR, table=self.id, seq=seq, error=repr(exc))
            return None
        # The check ran on a clone (nothing changes if the commit fails); now the action is applied to
        # the live state too, because a clone starts its per-seat view folds from scratch: adopting it
        # made every frame of the fan-out refold the whole match (twice the CPU per action, measured).
        try:
            self.state.apply(text, seat=seat)
        except StichError:  # cannot happen for the action the clone took; the clone is right anyway
            self.state = new
        if len(self.state.history) != seq or len(self.state.events) != len(new.events):
            self.state = new
        self.marks.append(len(self.state.events))
        self.bot_pending = None
        metrics.action(origin)
        if cid is not None:
            ack = {"type": "ack", "id": cid, "seq": seq}
            self.answers[(seat, cid)] = ack
            if conn is not None:
                conn.send(ack)
        if self.finished:
            event(log, "match over", table=self.id, seq=seq, actions=seq)
            self.maybe_evict()
            for s in self.seats:
                if s.grace:
                    s.grace.cancel()
                    s.grace = None
        self._schedule()
        if self.cluster is not None:  # committed first, announced second: a replica can always catch up
            self.cluster.publish(t_channel(self.id), {"k": "applied", "seq": seq, "seat": seat, "action": text,
                                                      "cid": cid, "deadline": self.turn_deadline})
        self.broadcast_state()
        return seq

    # --- talk ---------------------------------------------------------------------------------
    def _rate_ok(self, s: Seat) -> bool:
        now = time.monotonic()
        limit, window = CHAT_RATE
        while s.said and now - s.said[0] > window:
            s.said.popleft()
        if len(s.said) >= limit:
            return False
        s.said.append(now)
        return True

    async def say(self, conn: Conn, text) -> None:
        if conn.seat is None:
            conn.send({"type": "error", "id": None, "message": "spectators cannot chat"})
            return
        if not isinstance(text, str) or not text.strip():
            conn.send({"type": "error", "id": None, "message": "'text' must be a non-empty message"})
            return
        text = "".join(ch for ch in text if ch.isprintable() or ch == "\n").strip()
        if len(text) > CHAT_LIMIT:
            conn.send({"type": "error", "id": None, "message": f"a chat message has at most {CHAT_LIMIT} characters"})
            return
        s = self.seats[conn.seat]
        if not self._rate_ok(s):
            conn.send({"type": "error", "id": None,
                       "message": f"too many messages: at most {CHAT_RATE[0]} per {CHAT_RATE[1]:g} seconds"})
            return
        await self.server.writer.write((store.chat, dict(table_id=self.id, seat=s.seat, name=s.name, text=text,
                                                         at=time.time())))
        self.chat.append({"seat": s.seat, "name": s.name, "text": text})
        if self.cluster is not None:
            self.cluster.publish(t_channel(self.id), {"k": "chat", "m": self.chat[-1]})
        self.send_all(self.chat_frame(self.chat[-1]))

    async def signal(self, conn: Conn, sig) -> None:
        """A signal between partners (Watten's Deuten): to the partner's connections only, never stored in
        the record.  The words and who the partner is are the game's (``signal_words``, ``partner``)."""
        if self.settings.get("signals") != "on":
            conn.send({"type": "error", "id": None, "message": "signals (Deuten) are not allowed at this table"})
            return
        if conn.seat is None:
            conn.send({"type": "error", "id": None, "message": "spectators cannot signal"})
            return
        words = self.game.signal_words
        if sig not in words:
            conn.send({"type": "error", "id": None, "message": f"signals are: {', '.join(words)}"})
            return
        if self.finished:
            conn.send({"type": "error", "id": None, "message": "the match is over"})
            return
        if not self._rate_ok(self.seats[conn.seat]):
            conn.send({"type": "error", "id": None,
                       "message": f"too many messages: at most {CHAT_RATE[0]} per {CHAT_RATE[1]:g} seconds"})
            return
        to = self.game.partner(conn.seat)
        msg = {"type": "signal", "seat": conn.seat, "to": to, "signal": sig}
        if self.cluster is not None:
            self.cluster.publish(t_channel(self.id), {"k": "signal", "msg": msg})
        self.send_all(msg, seats=(to, conn.seat))

    async def rename(self, conn: Conn, name) -> None:
        if conn.seat is None:
            conn.send({"type": "error", "id": None, "message": "spectators have no seat to name"})
            return
        try:
            name = clean_name(name)
        except BadRequest as exc:
            conn.send({"type": "error", "id": None, "message": str(exc)})
            return
        await self.server.writer.write(update(store.seats).where(
            store.seats.c.table_id == self.id, store.seats.c.seat == conn.seat).values(name=name))
        self.seats[conn.seat].name = name
        self.broadcast_seats()

    def missed(self, seat: int | None, since: int) -> list[dict]:
        """The events ``seat`` may see that happened after ``since`` (the engine's audience rule, as in
        ``state.visible_events(seat)``)."""
        bit = 0 if seat is None else 1 << seat
        return [dict(ev) for aud, ev in self.state.events[self.marks[since]:] if aud is None or aud & bit]

    async def resync(self, conn: Conn, seq) -> None:
        """A full snapshot (card tables are small): the seats, the current frame, and the events the
        seat missed since ``seq`` when the client's seq is one this table had."""
        conn.send({"type": "seats", "seats": self.seats_info()})
        frame = self.frame(conn.seat, conn.fmt, conn.lang)
        frame["resync"] = True
        if 0 <= seq <= self.seq:
            frame["missed"] = {"since": seq, "events": self.missed(conn.seat, seq)}
        conn.send(frame)
