"""A simulated player for the table server, speaking the public protocol only.

A :class:`SeatClient` connects a seat by its token (or watches without one), keeps every frame it
receives, tracks the sequence number, acts on its turn with a scripted or random choice among
``legal`` (only when it is ``current_player``, so runs stay comparable; ``out_of_turn=True`` lets it
also take decisions the rules offer out of turn), resends an unacknowledged action (same id) after a
reconnect, and checks every ack against what it sent.  ``await client.play()`` returns when the seat
sees the match over.

The HTTP helpers (:func:`create_table`, :func:`get_record`) use httpx; sockets use ``websockets``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from collections.abc import Callable

import httpx
import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

OPEN_TIMEOUT = 5.0
RECONNECT_DEADLINE = 60.0   # how long a client keeps trying while the server is down
_ids = itertools.count(1)


class ProtocolViolation(AssertionError):
    """The server broke the contract as seen from one client (bad ack, seq going back, ...)."""


def choose_random(rng: random.Random, legal: list[str], frame: dict) -> str:
    """The default policy: a uniformly random legal action (sorted first, so it is reproducible)."""
    return rng.choice(sorted(legal))


class SeatClient:
    """One connection's worth of player (or spectator when ``token`` is None)."""

    def __init__(self, server, table: str, token: str | None = None, *, seat: int | None = None,
                 policy: Callable = choose_random, script_seed: object = 0, fmt: str = "json",
                 lang: str | None = None, name: str | None = None, act: bool = True,
                 on_frame: Callable | None = None, out_of_turn: bool = False, headers: dict | None = None):
        self.server = server            # anything with .ws_url (read again on every reconnect)
        self.table = table
        self.token = token
        self.seat = seat
        self.policy = policy
        self.script_seed = script_seed
        self.fmt = fmt
        self.lang = lang
        self.name = name
        self.act_enabled = act and token is not None
        self.on_frame = on_frame
        self.out_of_turn = out_of_turn
        self.headers = headers          # e.g. a player's {"Authorization": "Bearer ..."}
        self.ws = None
        self.raw: list[str] = []               # every text frame received, in order
        self.frames: list[dict] = []           # the same, parsed
        self.seq: int = -1                     # highest seq seen in a state/html frame
        self.state: dict | None = None         # the latest state (or html) frame
        self.sent: dict[str, str] = {}         # id -> action text, every act ever sent
        self.pending: tuple[str, str, int] | None = None   # (id, action, seq acted on) awaiting ack
        self.acked: list[str] = []             # action texts acknowledged, in order (each id once)
        self.acked_ids: set[str] = set()
        self.errors: list[dict] = []           # error frames received
        self.decisions = 0
        self.acted_seq: int | None = None      # the seq of the frame we last acted on
        self.connects = 0
        self.connected_to: list[tuple[int, str]] = []   # (frames received before, url) per connect
        self.resends = 0
        self.latencies: list[float] = []       # act sent -> next own state frame with higher seq
        self._sent_at: float | None = None
        self._changed = asyncio.Event()
        self._closed_by_us = False

    # --- connection ------------------------------------------------------------------------------
    def url(self) -> str:
        q = [f"format={self.fmt}"]
        if self.token is not None:
            q.insert(0, f"token={self.token}")
        if self.lang:
            q.append(f"lang={self.lang}")
        return f"{self.server.ws_url}/ws/tables/{self.table}?{'&'.join(q)}"

    async def connect(self, deadline: float = RECONNECT_DEADLINE) -> None:
        """Connect (retrying while the server is down), then resync from our seq and resend."""
        end = time.monotonic() + deadline
        delay = 0.05
        while True:
            try:
                url = self.url()
                self.ws = await websockets.connect(url, open_timeout=OPEN_TIMEOUT, max_size=2**24,
                                                   ping_interval=None, additional_headers=self.headers)
                self.connected_to.append((len(self.frames), url.split("/ws/")[0]))
                break
            except (TimeoutError, OSError, InvalidHandshake, ConnectionClosed) as exc:
                if isinstance(exc, InvalidStatus) and exc.response.status_code not in (502, 503):
                    raise
                if time.monotonic() > end:
                    raise TimeoutError(f"seat {self.seat}: could not reconnect within {deadline}s") from exc
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.5)
        self.connects += 1
        if self.seq >= 0:
            await self.send({"type": "resync", "seq": self.seq})
        if self.name is not None:
            await self.send({"type": "name", "name": self.name})
        if self.pending is not None:           # resend the unacknowledged action with the same id
            self.resends += 1
            await self.send({"type": "act", "id": self.pending[0], "action": self.pending[1]})

    async def send(self, msg: dict | str) -> None:
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def drop(self) -> None:
        """Cut our TCP connection without a closing handshake (a network drop as the client sees
        it); the play loop notices on its next read or write and reconnects."""
        if self.ws is not None:
            self.ws.transport.abort()

    async def close(self) -> None:
        self._closed_by_us = True
        if self.ws is not None:
            await self.ws.close()

    # --- receiving -------------------------------------------------------------------------------
    def _receive(self, text: str) -> dict:
        self.raw.append(text)
        msg = json.loads(text)
        self.frames.append(msg)
        t = msg.get("type")
        if t in ("state", "html"):
            seq = msg["seq"]
            if self.seat is not None and msg.get("seat") != self.seat:
                raise ProtocolViolation(f"seat {self.seat} got a frame for seat {msg.get('seat')}: {text[:200]}")
            if seq >= self.seq:
                if self._sent_at is not None and self.acted_seq is not None and seq > self.acted_seq:
                    self.latencies.append(time.perf_counter() - self._sent_at)
                    self._sent_at = None
                self.seq = seq
                self.state = msg
        elif t == "ack":
            aid = msg.get("id")
            if aid not in self.sent:
                raise ProtocolViolation(f"seat {self.seat}: ack for an id never sent: {text[:200]}")
            if aid not in self.acked_ids:      # a resent action is acked again: counted once
                self.acked_ids.add(aid)
                self.acked.append(self.sent[aid])
            if self.pending is not None and self.pending[0] == aid:
                self.pending = None
        elif t == "error":
            self.errors.append(msg)
            if self.pending is not None and msg.get("id") == self.pending[0]:
                self.pending = None
        if self.on_frame is not None:
            self.on_frame(self, msg, text)
        self._changed.set()
        return msg

    async def recv(self, timeout: float = 10.0) -> dict:
        """The next frame (for tests that script the conversation by hand)."""
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        return self._receive(text)

    async def recv_until(self, pred: Callable[[dict], bool], timeout: float = 10.0) -> dict:
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"seat {self.seat}: no matching frame within {timeout}s; last: {self.raw[-3:]}")
            msg = await self.recv(left)
            if pred(msg):
                return msg

    @property
    def finished(self) -> bool:
        return bool(self.state and self.state.get("view", {}).get("terminal")) or bool(
            self.state and self.state.get("finished"))

    # --- playing ---------------------------------------------------------------------------------
    def _choose(self) -> str | None:
        st = self.state
        if not self.act_enabled or st is None or self.pending is not None or self.finished:
            return None
        if self.acted_seq is not None and st["seq"] <= self.acted_seq:
            return None                        # this frame is the one we already answered
        legal = st.get("legal") or []
        if not legal or not (self.out_of_turn or self._on_turn(st)):
            return None
        rng = random.Random(f"{self.script_seed}/{self.seat}/{self.decisions}")
        self.decisions += 1
        return self.policy(rng, legal, st)

    def _on_turn(self, st: dict) -> bool:
        """Whether this seat is ``current_player`` in the frame (html: the page's data-turn)."""
        if "view" in st:
            return st["view"].get("current_player") == self.seat
        return 'data-turn="me"' in (st.get("html") or "")

    async def act(self, action: str, aid: str | None = None) -> str:
        aid = aid or f"c{next(_ids)}-{random.getrandbits(32):08x}"
        self.sent[aid] = action
        self.pending = (aid, action, self.seq)
        self.acted_seq = self.seq
        self._sent_at = time.perf_counter()
        await self.send({"type": "act", "id": aid, "action": action})
        return aid

    async def play(self, timeout: float = 60.0, reconnect: bool = True, drop_rate: float = 0.0,
                   drop_rng: random.Random | None = None, think: Callable | None = None) -> None:
        """Play until the match is over and our last action is acknowledged (the final state may
        come before the ack), reconnecting on our own when the socket goes."""
        end = time.monotonic() + timeout
        if self.ws is None:
            await self.connect()
        while not self.finished or self.pending is not None:
            if time.monotonic() > end:
                raise TimeoutError(f"seat {self.seat} of {self.table}: match not over within {timeout}s "
                                   f"(seq {self.seq}, pending {self.pending}, last frames {self.raw[-2:]})")
            action = self._choose()
            if action is not None:
                if think is not None:
                    await think()
                if drop_rng is not None and drop_rng.random() < drop_rate:
                    # drop just before or just after sending: both must end in one effect
                    after = drop_rng.random() < 0.5
                    if after:
                        await self._safe_act(action)
                    await self.drop()
                    if not after:
                        self.pending = (f"c{next(_ids)}-{random.getrandbits(32):08x}", action, self.seq)
                        self.sent[self.pending[0]] = action
                        self.acted_seq = self.seq
                        self._sent_at = time.perf_counter()
                    await self.connect()
                    continue
                if not await self._safe_act(action):
                    await self._reconnect_or_raise(reconnect)
                    continue
            try:
                text = await asyncio.wait_for(self.ws.recv(), max(0.1, min(5.0, end - time.monotonic())))
            except TimeoutError:
                continue
            except ConnectionClosed:
                await self._reconnect_or_raise(reconnect)
                continue
            self._receive(text)

    async def _safe_act(self, action: str) -> bool:
        try:
            await self.act(action)
            return True
        except ConnectionClosed:
            return False

    async def _reconnect_or_raise(self, reconnect: bool) -> None:
        if not reconnect:
            raise ConnectionError(f"seat {self.seat}: socket closed")
        self.ws = None
        await self.connect()

    async def follow(self, timeout: float = 60.0, reconnect: bool = True) -> None:
        """Watch (never act) until the match is over."""
        saved = self.act_enabled
        self.act_enabled = False
        try:
            await self.play(timeout=timeout, reconnect=reconnect)
        finally:
            self.act_enabled = saved


# --- HTTP --------------------------------------------------------------------------------------------
async def create_table(http: httpx.AsyncClient, game: str, variant: str | None = None, seats=None,
                       options: dict | None = None, public: bool = False, **extra) -> dict:
    body = {"game": game, "options": options or {}, "seats": seats, "public": public, **extra}
    if variant is not None:
        body["variant"] = variant
    r = await http.post("/api/tables", json=body)
    assert r.status_code == 201, f"POST /api/tables {body} -> {r.status_code} {r.text}"
    return r.json()


async def get_record(http: httpx.AsyncClient, table: str, timeout: float = 10.0) -> dict:
    """The finished record (retrying briefly: the last action's commit may race our request)."""
    end = time.monotonic() + timeout
    while True:
        r = await http.get(f"/api/tables/{table}/record")
        if r.status_code == 200:
            return r.json()
        if time.monotonic() > end:
            raise AssertionError(f"record of {table}: {r.status_code} {r.text[:300]}")
        await asyncio.sleep(0.05)


def seat_clients(server, created: dict, **kw) -> list[SeatClient]:
    """A client for every human seat of a table created with :func:`create_table`."""
    out = []
    for s in created["seats"]:
        if s.get("token"):
            out.append(SeatClient(server, created["table"], s["token"], seat=s["seat"], **kw))
    return out


def http_client(server) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=server.base_url, timeout=10.0)


async def until(predicate, timeout: float, what: str, every: float = 0.02) -> None:
    """Wait, in the test's event loop, until ``predicate()`` holds (polled ``every`` seconds)."""
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(every)


def run(coro, timeout: float = 60.0):
    """Run a test coroutine under an overall bound (every test here is bounded)."""
    async def bounded():
        return await asyncio.wait_for(coro, timeout)
    return asyncio.run(bounded())
