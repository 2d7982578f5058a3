"""Durability and seats that stay alive: kill -9 and restart (SQLite and Postgres), bots resuming,
the disconnect grace period with its bot takeover and hand-back, and the turn timer."""

from __future__ import annotations

import os
import time

import stich
from tests.web.unit.harness import Served

SHORT = {"game": "watten", "variant": "bavarian_2", "options": {"target": 3, "lock_at": 2}}


def sync(clients, seq: int) -> None:
    """Wait until every client has the state frame of ``seq`` (or a later one)."""
    for c in clients:
        if c.state is None or c.state["seq"] < seq:
            c.until(lambda m: m["type"] == "state" and m["seq"] >= seq)


def step(clients, tag: str, n: int | None) -> int:
    """The seat to act plays its first legal action ``n`` times (None: to the end); returns the last seq."""
    sync(clients, 0)
    seq = max(c.state["seq"] for c in clients)
    i = 0
    while n is None or i < n:
        sync(clients, seq)
        if clients[0].state["finished"]:
            break
        mover = next(c for c in clients if c.state["legal"])
        ack = mover.act(f"{tag}{i}", mover.state["legal"][0])
        assert ack["type"] == "ack", ack
        seq = ack["seq"]
        i += 1
    return seq


def finish(clients, tag: str) -> None:
    step(clients, tag, None)


def wait_record(srv, table: str, timeout: float = 60.0) -> dict:
    end = time.time() + timeout
    while time.time() < end:
        status, rec = srv.get(f"/api/tables/{table}/record")
        if status == 200:
            return rec
        time.sleep(0.2)
    raise AssertionError("the match did not finish")


def kill_and_continue(srv: Served) -> None:
    status, t = srv.post("/api/tables", {**SHORT, "seats": ["human", "human"]})
    assert status == 201
    tokens = [s["token"] for s in t["seats"]]
    clients = [srv.socket(t["table"], tok) for tok in tokens]
    seq = step(clients, "m", 3)
    acked = next(f for c in clients for f in c.frames if f["type"] == "ack" and f["id"] == "m2")
    srv.kill9()
    srv.start()
    clients = [srv.socket(t["table"], tok) for tok in tokens]  # the same links still hold the seats
    for c in clients:
        assert c.until(lambda m: m["type"] == "state")["seq"] == seq
    owner = next(c for c in clients for f in c.frames if f["type"] == "state" and f["seq"] == seq)
    # the last acknowledged id, resent after the restart: the same answer, no second effect
    again = [c.act("m2", "cut 1") for c in clients]
    assert acked in again
    assert owner.state["seq"] == seq
    assert srv.get(f"/api/tables/{t['table']}/record")[0] == 403
    finish(clients, "n")
    rec = wait_record(srv, t["table"])
    assert stich.replay(rec).is_terminal()
    for c in clients:
        c.close()


def test_kill9_sqlite_every_acknowledged_action_survives(serve):
    kill_and_continue(serve())


def test_kill9_postgres(serve, pg):
    kill_and_continue(serve(db=pg.new_database()))


def test_bots_resume_after_kill9(serve):
    srv = serve()
    status, t = srv.post("/api/tables", {**SHORT, "seats": ["bot:random", "bot:random"], "bot_delay": 0.1})
    time.sleep(0.6)
    srv.kill9()
    srv.start()
    rec = wait_record(srv, t["table"])
    assert stich.replay(rec).is_terminal()


def test_grace_lets_the_bot_play_and_hands_back(serve):
    srv = serve()
    status, t = srv.post("/api/tables", {**SHORT, "seats": ["human", "human"], "grace": 1})
    a, b = (srv.socket(t["table"], s["token"]) for s in t["seats"])
    a.until(lambda m: m["type"] == "state")
    b.until(lambda m: m["type"] == "state")
    a.close()  # seat 0 leaves; after 1 s its bot plays for it
    b.until(lambda m: m["type"] == "seats" and m["seats"][0]["bot_playing"] and not m["seats"][0]["connected"])
    # b plays; seat 0's turns are taken by its bot until the human returns
    start = b.state["seq"]
    while True:
        st = b.until(lambda m: m["type"] == "state")
        if st["finished"] or st["seq"] >= start + 4:
            break
        if st["legal"]:
            b.act(f"b{st['seq']}", st["legal"][0])
    assert b.state["seq"] >= start + 4 or b.state["finished"]
    a = srv.socket(t["table"], t["seats"][0]["token"])
    seats = a.until(lambda m: m["type"] == "seats")
    assert seats["seats"][0]["bot_playing"] is False and seats["seats"][0]["connected"] is True
    a.close()
    b.close()


def test_turn_timer_lets_the_bot_move(serve):
    srv = serve()
    status, t = srv.post("/api/tables", {**SHORT, "seats": ["human", "human"], "timer": 1, "grace": "never"})
    assert status == 201
    a, b = (srv.socket(t["table"], s["token"]) for s in t["seats"])
    first = a.until(lambda m: m["type"] == "state")
    assert first["clock"]["seconds"] <= 1 and first["seq"] == 0
    assert a.until(lambda m: m["type"] == "state" and m["seq"] == 1, timeout=20)
    a.close()
    b.close()


def _children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(d))
            except (OSError, ValueError, IndexError):
                continue
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_bot_workers_die_with_a_killed_server(tmp_path):
    srv = Served(str(tmp_path / "w.sqlite3"), tmp_path, workers=2).start()
    try:
        status, t = srv.post("/api/tables", {**SHORT, "seats": ["bot:random", "bot:heuristic"]})
        wait_record(srv, t["table"])  # the workers have thought
        children = _children(srv.proc.pid)
        assert children
    finally:
        srv.kill9()
    end = time.time() + 10
    while time.time() < end and any(_alive(p) for p in children):
        time.sleep(0.1)
    assert not [p for p in children if _alive(p)], "bot workers outlived their server"
