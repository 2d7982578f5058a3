"""A table's frames going out to its connections, at a cost linear in the connections.

A thousand spectators joining one table used to cost a million frames: every connect and disconnect
sent the seat list (and every page its re-rendered table) to every socket of the table, and another
table's player waited 265 ms at p50, 8.2 s at worst (issue #35).  Now:

- **The seat list goes out when it changed, at most once per** :data:`SEATS_EVERY` **seconds per
  table.**  A spectator coming or going changes nothing anyone sees (no frame at all); the seats
  changing in a burst (a player reconnecting again and again) go out once at the end of the interval,
  as they are then.  The first change after a quiet interval goes out at once.  A grace period's
  seconds counting down is no change (the deadline is: the pages count down themselves).
- **One frame per step for all spectators.**  ``broadcast_state`` builds each (seat, format,
  language) frame once; the spectators' (seat None) frames are also kept for the next new spectator
  until the table changes (``version``: a step, a seat list sent, a chat message), so a thousand
  spectators joining between two moves cost one render per (format, language), not a thousand.
  While a clock runs (a turn timer, a grace period) a kept frame is reused for :data:`CLOCK_REUSE`
  seconds only, so that nobody is shown a countdown from long ago.
- Who is connected is counted per seat as connections come and go (``seated``), not by walking every
  connection each time."""

from __future__ import annotations

import asyncio
import time
from collections import Counter

from stich.web import store

#: seconds: at most one seat list (and the pages' re-render it brings) per table in this time
SEATS_EVERY = 0.2
#: seconds a spectators' frame is reused while a clock runs (a turn timer or a grace period: its
#: seconds are counted down when the frame is made)
CLOCK_REUSE = 0.5


class FanOut:
    """The fan-out of :class:`~stich.web.table.actor.TableActor` (which has the fields it reads)."""

    def fanout_init(self) -> None:
        self.seated: Counter[int] = Counter()   # seat -> its connections here
        self.version = 0                       # bumped whenever a spectator's frame may change
        self._spectator_frames: dict[tuple[str, str], tuple[int, float | None, float, str]] = {}
        self._seats_key: tuple | None = None    # the seat list last sent, as compared (seats_key)
        self._seats_sent = -SEATS_EVERY        # when (time.monotonic())
        self._seats_later: asyncio.TimerHandle | None = None

    def seats_here(self) -> set[int]:
        """The seats with a connection on this process."""
        return {seat for seat, n in self.seated.items() if n > 0}

    def send_all(self, msg, seats=None) -> None:
        """One frame to every connection here (``seats``: to those of these seats only), made once.
        The owner's talk and a replica's echo of it both go out this way."""
        self.version += 1   # a chat message shows on the pages
        text = msg if isinstance(msg, str) else store.dumps(msg)
        for c in list(self.conns):
            if seats is None or c.seat in seats:
                c.send(text)

    def broadcast_state(self) -> None:
        """Every connection's frame after a step: one per (seat, format, language), shared."""
        self.version += 1
        cache: dict = {}
        for c in list(self.conns):
            key = (c.seat, c.fmt, c.lang)
            if key not in cache:
                cache[key] = self._made(c.seat, c.fmt, c.lang)
            c.send(cache[key])

    def first_frame(self, seat: int | None, fmt: str, lang: str) -> str:
        """The frame of a connection that has just come: a spectator's is shared (module docstring)."""
        if seat is not None:
            return store.dumps(self.frame(seat, fmt, lang))
        kept = self._spectator_frames.get((fmt, lang))
        if kept is not None:
            version, clocks, made, text = kept
            if (version == self.version and clocks == self._clocks()
                    and (not any(c is not None for c in clocks) or time.monotonic() - made < CLOCK_REUSE)):
                return text
        return self._made(None, fmt, lang)

    def _made(self, seat: int | None, fmt: str, lang: str) -> str:
        text = store.dumps(self.frame(seat, fmt, lang))
        if seat is None:
            self._spectator_frames[(fmt, lang)] = (self.version, self._clocks(), time.monotonic(), text)
        return text

    def broadcast_seats(self) -> None:
        """The seats may have changed: the owner tells its replicas now; the connections here get the
        seat list when it changed, at most once per SEATS_EVERY seconds."""
        self.role.seats_changed(self)
        if self._seats_later is not None:   # a send is due anyway: it will take the seats as they are then
            return
        wait = self._seats_sent + SEATS_EVERY - time.monotonic()
        if wait <= 0:
            self._send_seats()
        else:
            self._seats_later = asyncio.get_running_loop().call_later(wait, self.submit, self._seats_due)

    async def _seats_due(self) -> None:
        self._seats_later = None
        self._send_seats()

    def _clocks(self) -> tuple:
        """What the running clocks count down to: the turn's deadline, each seat's grace deadline."""
        return (self.turn_deadline, *(self._grace_deadline(s) for s in self.seats))

    @staticmethod
    def _grace_deadline(s) -> float | None:
        handle = s.grace
        if handle is not None and not handle.cancelled():   # the owner's own timer
            return handle.when()
        return s.grace_until                                # a replica: the owner's word

    def _send_seats(self) -> None:
        info = self.seats_info()
        # compared without the grace seconds left, which change by themselves: their deadlines count
        key = (store.dumps([{k: v for k, v in item.items() if k != "grace"} for item in info]),
               tuple(self._grace_deadline(s) for s in self.seats))
        if key == self._seats_key:
            return
        self._seats_key = key
        text = store.dumps({"type": "seats", "seats": info})
        self._seats_sent = time.monotonic()
        self.version += 1
        cache: dict = {}
        for c in list(self.conns):
            c.send(text)
            if c.fmt == "html":   # the page shows who is there
                key = (c.seat, c.lang)
                if key not in cache:
                    cache[key] = self._made(c.seat, c.fmt, c.lang)
                c.send(cache[key])

    def stop_fanout(self) -> None:
        if self._seats_later is not None:
            self._seats_later.cancel()
            self._seats_later = None
