"""What people at a table say besides their actions: chat, their names, and signals between partners.

Each runs in the table's actor like an action (a replica forwards them to the owner, see
:mod:`stich.web.table.replica`), and none of them touches the match: chat and names are stored, signals
are not (they are never part of the record)."""

from __future__ import annotations

import time

from sqlalchemy import update

from stich.web import store
from stich.web.spec import BadRequest, clean_name

CHAT_LIMIT = 500          # characters per chat message
CHAT_RATE = (5, 10.0)     # at most 5 messages (chat or signals) per 10 seconds per seat
CHAT_KEEP = 50            # recent messages kept for new connections and pages


def _error(message: str) -> dict:
    return {"type": "error", "id": None, "message": message}


TOO_MANY = _error(f"too many messages: at most {CHAT_RATE[0]} per {CHAT_RATE[1]:g} seconds")


class Talk:
    """Chat, names and signals of :class:`~stich.web.table.actor.TableActor` (which has the fields
    they use)."""

    def _rate_ok(self, s) -> bool:
        now = time.monotonic()
        limit, window = CHAT_RATE
        while s.said and now - s.said[0] > window:
            s.said.popleft()
        if len(s.said) >= limit:
            return False
        s.said.append(now)
        return True

    async def say(self, conn, text) -> None:
        if conn.seat is None:
            conn.send(_error("spectators cannot chat"))
            return
        if not isinstance(text, str) or not text.strip():
            conn.send(_error("'text' must be a non-empty message"))
            return
        text = "".join(ch for ch in text if ch.isprintable() or ch == "\n").strip()
        if len(text) > CHAT_LIMIT:
            conn.send(_error(f"a chat message has at most {CHAT_LIMIT} characters"))
            return
        s = self.seats[conn.seat]
        if not self._rate_ok(s):
            conn.send(TOO_MANY)
            return
        await self.server.writer.write((store.chat, dict(table_id=self.id, seat=s.seat, name=s.name, text=text,
                                                         at=time.time())))
        self.chat.append({"seat": s.seat, "name": s.name, "text": text})
        self.tell_replicas({"k": "chat", "m": self.chat[-1]})
        self.send_all(self.chat_frame(self.chat[-1]))

    async def signal(self, conn, sig) -> None:
        """A signal between partners (Watten's Deuten): to the partner's connections only, never stored in
        the record.  The words and who the partner is are the game's (``signal_words``, ``partner``)."""
        if self.settings.get("signals") != "on":
            conn.send(_error("signals (Deuten) are not allowed at this table"))
            return
        if conn.seat is None:
            conn.send(_error("spectators cannot signal"))
            return
        words = self.game.signal_words
        if sig not in words:
            conn.send(_error(f"signals are: {', '.join(words)}"))
            return
        if self.finished:
            conn.send(_error("the match is over"))
            return
        if not self._rate_ok(self.seats[conn.seat]):
            conn.send(TOO_MANY)
            return
        to = self.game.partner(conn.seat)
        msg = {"type": "signal", "seat": conn.seat, "to": to, "signal": sig}
        self.tell_replicas({"k": "signal", "msg": msg})
        self.send_all(msg, seats=(to, conn.seat))

    async def rename(self, conn, name) -> None:
        if conn.seat is None:
            conn.send(_error("spectators have no seat to name"))
            return
        if self.seats[conn.seat].player_id is not None:
            conn.send(_error("a player's seat carries the player's name"))
            return
        try:
            name = clean_name(name)
        except BadRequest as exc:
            conn.send(_error(str(exc)))
            return
        await self.server.writer.write(update(store.seats).where(
            store.seats.c.table_id == self.id, store.seats.c.seat == conn.seat).values(name=name))
        self.seats[conn.seat].name = name
        self.broadcast_seats()
