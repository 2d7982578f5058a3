"""Forwarding to a table's owner: what a replica's clients send goes to the process that owns the
table (``stich:o:ID``), which answers on the sender's node channel (``stich:n:NODE``) through a
:class:`RemoteConn` standing for the sender's socket.  An action whose answer does not come is sent
again with the same client id (idempotent); a table whose owner is gone is taken over first."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time

from stich.web import store
from stich.web.cluster.channels import n_channel, o_channel

log = logging.getLogger("stich.web")

FORWARD_WAIT = 3.0        # seconds a forwarded action waits for its answer before it is sent again
FORWARD_GIVE_UP = 60.0    # seconds after which a forwarded message is given up (the client is told to resend)
REDIS_WAIT = 3.0          # seconds a forwarded message waits while Redis refuses it, before its client is told


UNDELIVERED = object()    # call(): no answer came, in time or at all


def undelivered(op: str, args: list) -> dict:
    """What a client hears when its forwarded message reached no owner in time.  An action may still be
    applied (it may have arrived and only the answer got lost), so its client sends it again with the
    same id: that resend gets the one true answer (``retry``: the frame says so to programs)."""
    if op == "act":
        return {"type": "error", "id": args[0], "retry": True,
                "message": "no answer from the table's server (its process or the cluster's Redis is away "
                           "for a moment): send the action again with the same id; it takes effect once"}
    return {"type": "error", "id": None,
            "message": "the table's server cannot be reached just now: your message may not have arrived"}


class RemoteConn:
    """A connection held by another process, as the owner's actor sees it: what it sends goes to
    that process's node channel, which hands it to the socket."""

    def __init__(self, cluster, node: str, key: int, seat: int | None, fmt: str, lang: str):
        self.cluster = cluster
        self.node = node
        self.key = key
        self.seat = seat
        self.fmt = fmt
        self.lang = lang
        self.closed = False
        self.inflight = 0

    def after_sent(self, fn) -> None:
        """The latency metric counts connections of this process only (another process's clock)."""

    def send(self, message) -> None:
        text = message if isinstance(message, str) else store.dumps(message)
        self.cluster.publish(n_channel(self.node), {"k": "send", "conn": self.key, "text": text})


class Forwarding:
    """The forwarding methods of :class:`~stich.web.cluster.node.Cluster` (which has the fields and the
    ``publish`` they use)."""

    def done(self, node: str, req: str, result=None) -> None:
        self.publish(n_channel(node), {"k": "done", "req": req, "result": result})

    def register(self, conn) -> None:
        self._keys += 1
        conn.key = self._keys
        self.conns[conn.key] = conn

    def unregister(self, conn) -> None:
        self.conns.pop(getattr(conn, "key", None), None)

    def forward(self, actor, conn, op: str, args) -> None:
        self._spawn(self._forward(actor, conn, op, list(args)))

    async def _forward(self, actor, conn, op: str, args: list) -> None:
        try:
            answer = await self.call(actor, op, args, conn)
        except Exception:  # noqa: BLE001 - e.g. the database away while taking the table: tell the client
            log.exception("forwarding failed", extra={"fields": {"table": actor.id, "op": op}})
            answer = UNDELIVERED
        if answer is UNDELIVERED and not conn.closed:
            conn.send(undelivered(op, args))

    async def call(self, actor, op: str, args: list, conn=None):
        """Send ``op`` to the table's owner and wait for its answer (``act`` again and again, with the
        same client id, until one comes); take the table when it has no owner.  Returns the owner's
        result (``join``: ``[status, body]``), or UNDELIVERED when Redis refused the message for
        REDIS_WAIT seconds or no answer came within FORWARD_GIVE_UP: the client is told, never left
        waiting."""
        req = secrets.token_hex(8)
        fut = asyncio.get_running_loop().create_future()
        self.pending[req] = fut
        msg = {"k": "call", "op": op, "node": self.node, "args": args, "req": req,
               "conn": getattr(conn, "key", None), "seat": getattr(conn, "seat", None),
               "fmt": getattr(conn, "fmt", "json"), "lang": getattr(conn, "lang", "en")}
        end = time.monotonic() + FORWARD_GIVE_UP
        away = None   # since when Redis has refused this message
        try:
            while not (conn is not None and conn.closed) and not self.closing:
                now = time.monotonic()
                if now >= end or (away is not None and now - away >= REDIS_WAIT):
                    return UNDELIVERED
                if actor.owner:  # became ours meanwhile
                    return await self._local(actor, op, args, conn)
                try:
                    heard = await asyncio.wait_for(asyncio.shield(self.publish(o_channel(actor.id), msg)),
                                                   REDIS_WAIT)
                except (ConnectionError, TimeoutError):
                    away = now if away is None else away
                    await asyncio.sleep(0.2)
                    continue
                away = None
                if heard == 0:   # nobody owns it now: take it when its lease has run out
                    if await self.take(actor.id):
                        continue
                    await asyncio.sleep(0.2)
                    continue
                try:
                    return await asyncio.wait_for(asyncio.shield(fut), FORWARD_WAIT)
                except TimeoutError:
                    if op not in ("act", "join"):
                        return None   # chat and names are not resent (they are not idempotent)
        finally:
            self.pending.pop(req, None)
        return None

    async def _local(self, actor, op: str, args: list, conn):
        if op == "join":
            status, body = await self.server.join_here(actor, *args)
            return [status, body]
        actor.submit_from(conn, getattr(actor, op), *args)
        return None

    async def _remote_join(self, actor, msg) -> None:
        from stich.web.spec import BadRequest

        if not actor.owner:
            return
        try:
            status, body = await self.server.join_here(actor, *msg.get("args", []))
        except BadRequest as exc:
            status, body = 400, {"error": str(exc)}
        self.done(msg["node"], msg["req"], [status, body])

    def presence(self, actor) -> None:
        """Tell the owner which seats this process has connections for."""
        if actor.owner:
            return
        seats = sorted({c.seat for c in actor.conns if c.seat is not None})
        self.publish(o_channel(actor.id), {"k": "presence", "node": self.node, "seats": seats})
