"""The fan-out of one table in process (issue #35): spectators joining render one frame per (format,
language) and send nothing to the others; a seat list goes out when it changed, coalesced.  The
real-server test with 200 sockets is ``tests/web/test_fanout.py``; here the renders are counted."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import stich
from stich.web.table import Conn, Seat, TableActor
from stich.web.table.conn import TableLeft
from stich.web.table.fanout import SEATS_EVERY


class Socket:
    """The sending half of a WebSocket, keeping what was sent."""

    def __init__(self):
        self.sent: list[dict] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))

    async def close(self, code: int = 1000) -> None:
        pass


async def _after(seconds: float) -> None:
    """``seconds``, then a few turns of the loop: a seat list due at a timer goes from the timer to the
    table's inbox, the actor and each socket's writer (three turns).  After a stall both timers come due
    in one turn, and the test's own would have looked before the writers ran."""
    await asyncio.sleep(seconds)
    for _ in range(10):
        await asyncio.sleep(0)


class CountingActor(TableActor):
    renders = 0

    def frame(self, seat, fmt, lang):
        CountingActor.renders += 1
        return super().frame(seat, fmt, lang)


def test_spectators_share_one_frame_and_seat_lists_go_out_when_changed_and_coalesced():
    async def main():
        game = stich.game("watten", variant="bavarian_2")
        seats = [Seat(i, "human", None, f"hash{i}", None, claimed=True, arrived=True) for i in range(2)]
        t = CountingActor(SimpleNamespace(cluster=None), "t1", game, game.new_state(seed=1), seats,
                          {"grace": None}, False, {}, [], [])
        watchers = []
        for i in range(150):
            ws = Socket()
            conn = Conn(ws, None, "html" if i % 3 == 0 else "json", "de" if i % 3 == 0 else "en")
            watchers.append((ws, conn))
            await t.attach(conn)
        await _after(0.05)
        # one render per (format, language), twice at most (the table's first seat list came between)
        assert CountingActor.renders <= 4, CountingActor.renders
        assert all(len(ws.sent) == 2 for ws, _ in watchers[1:]), sorted({len(ws.sent) for ws, _ in watchers})
        for ws, _ in watchers:
            ws.sent.clear()

        # a seat's player comes, goes and comes again within 0.2 s: one seat list (and one re-render of
        # the page per language) after the first change, then one more at the end of the interval
        renders = CountingActor.renders
        player = Conn(Socket(), 0)
        await t.attach(player)
        t.detach(player)
        player = Conn(Socket(), 0)
        await t.attach(player)
        await _after(SEATS_EVERY + 0.1)
        for ws, conn in watchers:
            kinds = [m["type"] for m in ws.sent]
            assert kinds.count("seats") <= 2 and ws.sent[-2 if conn.fmt == "html" else -1]["type"] == "seats", kinds
            last = [m for m in ws.sent if m["type"] == "seats"][-1]
            assert [s["connected"] for s in last["seats"]] == [True, False]
        assert CountingActor.renders - renders <= 2 + 2   # the player's own frames, the page's re-renders

        # a step: one frame per (seat, format, language) for everyone; the next spectator reuses it
        renders = CountingActor.renders
        t.broadcast_state()
        late = Conn(Socket(), None, "json", "en")
        await t.attach(late)
        assert CountingActor.renders - renders == 3   # seat 0, the German page, the English JSON

        # seat 0's player leaves a table with a grace period: its countdown runs, one seat list says
        # so; spectators joining while it counts down send nobody anything (the seconds left change,
        # the deadline does not), and they are not shown a countdown older than half a second
        t.settings["grace"] = 30.0
        t.detach(player)
        await _after(SEATS_EVERY + 0.1)
        for ws, _ in watchers:
            ws.sent.clear()
        renders = CountingActor.renders
        for _ in range(8):
            await t.attach(Conn(Socket(), None, "json", "en"))
            await asyncio.sleep(0.1)
        await _after(SEATS_EVERY + 0.1)
        assert not any(ws.sent for ws, _ in watchers), {m["type"] for ws, _ in watchers for m in ws.sent}
        assert 2 <= CountingActor.renders - renders <= 3, CountingActor.renders - renders
        t.stop()

    asyncio.run(asyncio.wait_for(main(), 30))


def test_a_connection_that_could_not_attach_leaves_its_seat_unconnected():
    """Attaching a seat's first connection stores its claim; when that fails (here: no database at all)
    the connection is refused, and its seat must not count as connected for ever."""
    async def main():
        game = stich.game("watten", variant="bavarian_2")
        seats = [Seat(i, "human", None, f"hash{i}", None, claimed=False) for i in range(2)]
        t = CountingActor(SimpleNamespace(cluster=None), "t2", game, game.new_state(seed=1), seats,
                          {"grace": None}, False, {}, [], [])
        try:
            await t.attach(Conn(Socket(), 0))
        except AttributeError:   # the server has no database writer to store the claim
            pass
        else:
            raise AssertionError("the attach stored a claim without a database")
        assert t.connected() == set() and not t.conns
        t.stop()

    asyncio.run(asyncio.wait_for(main(), 30))


def test_a_connection_waiting_for_a_table_that_left_memory_is_not_left_in_it():
    """A connection waits for the table's actor to attach it; the actor stops first (the table was
    evicted or handed to another process).  An unfinished table: attach says so (the socket asks the
    server for the table again) instead of attaching it to an actor that will never hear another
    action - a chaos run's client sat there, its seat's turn never coming.  A finished table: attached
    (nothing moves there any more)."""
    async def main():
        game = stich.game("watten", variant="bavarian_2")
        for finished in (False, True):
            state = game.new_state(seed=1)
            if finished:
                while not state.is_terminal():
                    state.apply(state.legal_actions()[0])
            seats = [Seat(i, "human", None, f"hash{i}", None, claimed=True, arrived=True) for i in range(2)]
            t = TableActor(SimpleNamespace(cluster=None), "t1", game, state, seats, {"grace": None}, False, {},
                           [], [])
            busy = asyncio.Event()
            t.submit(busy.wait)   # the actor is in a step (a commit, a hand-over) when the socket comes
            conn = Conn(Socket(), 0, "json", "en")
            attaching = asyncio.ensure_future(t.attach(conn))
            await _after(0.01)
            t.stop()
            if finished:
                await attaching
                assert conn in t.conns
            else:
                try:
                    await attaching
                except TableLeft as exc:
                    assert str(exc) == "t1" and not t.conns
                else:
                    raise AssertionError("attached to a stopped table's actor")

    asyncio.run(main())
