"""Decisions out of turn over real sockets: a real ``stich serve`` on a real SQLite file.

Euregio Watten, E.5: while the deciding Ansager answers the 4-point question (``hold`` /
``concede``), the other Ansager may ask for a Schönere out of turn.  The server offers it in his
``legal``, accepts it with an ack, refuses what he may not do with the engine's reason, keeps it
across a restart (the log replays with each action's seat), and the final record replays."""

from __future__ import annotations

import pytest

import stich
from tests.web.unit.harness import Served

# seed 7, scores 16:10 (side of seats 1 and 3 struck, target 18): after `cut` and both shows, seat 1
# (index 0) decides the 4-point question and seat 4 (index 3) may ask for a Schönere (see
# tests/watten/test_watten_out_of_turn.py for the rules' side of it).
TABLE = {"game": "watten", "variant": "euregio", "options": {}, "seats": ["human"] * 4,
         "test": {"seed": 7, "setup": {"scores": [16, 10]}}}


@pytest.fixture()
def srv(tmp_path):
    s = Served(str(tmp_path / "ooturn.sqlite3"), tmp_path, env={"STICH_TEST_HOOKS": "1"}).start()
    yield s
    s.stop()


def connect_all(srv, t) -> dict:
    clients = {s["seat"]: srv.socket(t["table"], s["token"]) for s in t["seats"]}
    for c in clients.values():
        c.until(lambda m: m["type"] == "state")
    return clients


def commit(clients, c, cid, action) -> int:
    ans = c.act(cid, action)
    assert ans["type"] == "ack", ans
    for other in clients.values():  # every connection gets its fresh legal list
        other.until(lambda m, s=ans["seq"]: m["type"] == "state" and m["seq"] == s)
    return ans["seq"]


def on_turn_first(clients, c, cid) -> int:
    """The seat on turn takes its first cut or show (never an out-of-turn option)."""
    st = c.state
    assert st["view"]["current_player"] == st["seat"]
    return commit(clients, c, cid, next(a for a in st["legal"] if a.split()[0] in ("cut", "show")))


def test_the_other_ansager_asks_for_a_schoenere_out_of_turn(srv):
    status, t = srv.post("/api/tables", TABLE)
    assert status == 201, t
    clients = connect_all(srv, t)
    on_turn_first(clients, clients[2], "cut")
    assert clients[3].state["legal"] and clients[3].state["view"]["current_player"] == 0  # seat 4 may show early
    on_turn_first(clients, clients[0], "show-1")
    on_turn_first(clients, clients[3], "show-4")
    # seat 1 is on turn with the 4-point question; seat 4, not on turn, has ask_exchange; 2 and 3 nothing
    assert sorted(clients[0].state["legal"]) == ["ask_exchange", "concede", "hold"]
    assert clients[3].state["view"]["current_player"] == 0
    assert clients[3].state["legal"] == ["ask_exchange"]
    assert clients[1].state["legal"] == clients[2].state["legal"] == []
    seq = clients[3].state["seq"]

    # refused, with the engine's (or the server's) reason, and nothing changes
    err = clients[3].act("bad-hold", "hold")
    assert err["type"] == "error" and err["message"].startswith("hold: seat 4 is not to act; seat 1 is")
    assert "seat 4 may now: ask_exchange" in err["message"]
    err = clients[3].act("bad-prefix", "1:ask_exchange")
    assert err == {"type": "error", "id": "bad-prefix", "message": "1:ask_exchange: names seat 1, but seat 4 acts"}
    err = clients[1].act("bad-seat2", "ask_exchange")
    assert err["type"] == "error" and err["message"].startswith("it is not your turn: seat 1 is to act")
    clients[0].send({"type": "ping"})
    clients[0].until(lambda m: m["type"] == "pong")
    assert clients[0].state["seq"] == seq and clients[3].state["seq"] == seq

    # the out-of-turn request: ack, everyone sees it, seat 1 now answers it
    seq2 = commit(clients, clients[3], "ask", "ask_exchange")
    assert seq2 == seq + 1
    assert sorted(clients[0].state["legal"]) == ["agree_exchange", "refuse_exchange"]
    assert clients[3].state["legal"] == []
    resent = clients[3].act("ask", "ask_exchange")  # the same id again: the same answer, no second effect
    assert resent == {"type": "ack", "id": "ask", "seq": seq2}

    # a restart reloads the table from its log, replaying each action with its seat
    for c in clients.values():
        c.close()
    assert srv.stop() == 0
    srv.start()
    clients = connect_all(srv, t)
    assert clients[0].state["seq"] == seq2
    assert sorted(clients[0].state["legal"]) == ["agree_exchange", "refuse_exchange"]

    # play on, each seat only when on turn, until the match is over
    n = 0
    while not clients[0].state["finished"]:
        cp = clients[0].state["view"]["current_player"]
        n += 1
        assert n < 400
        legal = clients[cp].state["legal"]
        commit(clients, clients[cp], f"p{n}", next((a for a in legal if not a.startswith("ask_")), legal[0]))
    status, rec = srv.get(f"/api/tables/{t['table']}/record")
    assert status == 200 and rec["terminal"]
    assert [3, "ask_exchange"] in rec["actions"]
    assert len(stich.replay(rec).history) == len(rec["actions"])
    for c in clients.values():
        c.close()
