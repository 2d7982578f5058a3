"""The table server over real sockets: a real ``stich serve`` process on a real SQLite file."""

from __future__ import annotations

import json
import time

import pytest
from websockets.exceptions import ConnectionClosed

import stich
from tests.web.unit.harness import Served

SHORT = {"game": "watten", "variant": "bavarian_2", "options": {"target": 3, "lock_at": 2}}


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    d = tmp_path_factory.mktemp("srv")
    s = Served(str(d / "stich.sqlite3"), d, env={"STICH_TEST_HOOKS": "1"}).start()
    yield s
    assert s.stop() == 0  # SIGTERM ends the server cleanly


def new_table(srv, **body):
    status, out = srv.post("/api/tables", {**SHORT, "seats": ["human", "human"], **body})
    assert status == 201, out
    return out


def play_out(clients: dict, prefix: str = "a") -> dict:
    """Every seat plays its first legal action until the match is over; returns seat -> frames."""
    n = 0
    for c in clients.values():
        c.until(lambda m: m["type"] == "state")
    while True:
        for c in clients.values():
            st = c.state
            if st["finished"]:
                return {s: c.frames for s, c in clients.items()}
            if st["legal"]:
                n += 1
                ans = c.act(f"{prefix}{n}", st["legal"][0])
                assert ans["type"] == "ack", ans
                for other in clients.values():  # everyone gets the new seq
                    other.until(lambda m, s=ans["seq"]: m["type"] == "state" and m["seq"] == s)


def test_a_whole_match_frames_are_views_and_the_record_replays(srv):
    t = new_table(srv)
    tid = t["table"]
    assert t["watch"] == f"/t/{tid}"
    assert [s["url"] for s in t["seats"]] == [f"/t/{tid}?token={s['token']}" for s in t["seats"]]
    status, body = srv.get(f"/api/tables/{tid}/record")
    assert status == 403 and "over" in body["error"]
    clients = {s["seat"]: srv.socket(tid, s["token"]) for s in t["seats"]}
    spectator = srv.socket(tid)
    frames = play_out(clients)
    spectator.until(lambda m: m["type"] == "state" and m["finished"])
    status, rec = srv.get(f"/api/tables/{tid}/record")
    assert status == 200 and rec["terminal"]
    state = stich.replay(rec)  # the record replays exactly
    # every state frame equals the view and the legal list of its seat at that seq, nothing more
    for seat, got in [*frames.items(), (None, spectator.frames)]:
        for f in got:
            if f["type"] != "state":
                continue
            s = stich.game(rec["game"], rec["variant"], **rec["options"]).new_state(seed=rec["seed"])
            for who, a in rec["actions"][:f["seq"]]:
                s.apply(a, seat=who)
            assert f["seat"] == seat
            assert f["view"] == json.loads(json.dumps(s.view(seat)))
            assert f["legal"] == ([str(a) for a in s.legal_actions(seat)] if seat is not None else [])
            assert str(rec["seed"]) not in json.dumps(f)
    assert len(rec["actions"]) == len(state.history)
    for c in [*clients.values(), spectator]:
        c.close()


def test_actions_are_idempotent_and_bad_messages_change_nothing(srv):
    t = new_table(srv)
    tid = t["table"]
    a, b = (srv.socket(tid, s["token"]) for s in t["seats"])
    first = a.until(lambda m: m["type"] == "state")
    b.until(lambda m: m["type"] == "state")
    mover, other = (a, b) if first["legal"] else (b, a)
    legal = mover.state["legal"]
    assert other.state["legal"] == []
    # not your turn: an error, and the same error again for the same id
    e1 = other.act("x1", legal[0])
    assert e1["type"] == "error" and "not your turn" in e1["message"]
    assert other.act("x1", legal[0]) == e1
    bad = mover.act("m0", "play XX")
    assert bad["type"] == "error" and bad["id"] == "m0"
    ack = mover.act("m1", legal[0])
    assert ack == {"type": "ack", "id": "m1", "seq": 1}
    mover.until(lambda m: m["type"] == "state" and m["seq"] == 1)
    assert mover.act("m1", legal[0]) == ack  # resent: same answer, no second effect
    for raw in ("{not json", "[1, 2]", json.dumps({"type": "act", "action": "x"}), json.dumps({"type": "bogus"}),
                json.dumps({"type": "act", "id": "big", "action": "p" * 70000})):
        mover.send(raw)
        err = mover.until(lambda m: m["type"] == "error")
        assert err["message"]
    mover.send(json.dumps({"type": "resync", "seq": 0}))
    snap = mover.until(lambda m: m["type"] == "state")
    assert snap["seq"] == 1 and snap["resync"] is True
    mover.send({"type": "ping"})
    assert mover.until(lambda m: m["type"] in ("pong", "state"))["type"] == "pong"
    a.close()
    b.close()


def test_tokens_act_only_for_their_seat(srv):
    t1, t2 = new_table(srv), new_table(srv)
    for tid, token, code in [(t1["table"], "forged-token", 4403), (t1["table"], t2["seats"][0]["token"], 4403),
                             ("no-such-table", t1["seats"][0]["token"], 4404)]:
        c = srv.socket(tid, token)
        err = c.recv()
        assert err["type"] == "error"
        with pytest.raises(ConnectionClosed):
            c.recv(timeout=5)
        assert c.ws.close_code == code
    watcher = srv.socket(t1["table"])
    st = watcher.until(lambda m: m["type"] == "state")
    assert st["seat"] is None and st["view"]["hand"] == [] and st["legal"] == []
    assert watcher.act("w1", "cut 1")["message"].startswith("spectators cannot act")
    watcher.close()


@pytest.mark.parametrize("body, words", [
    ({"game": "watten", "options": {"target": "x"}}, "whole number"),
    ({"game": "nosuch"}, "unknown game"),
    ({"game": "watten", "variant": "bavarian_2", "seats": ["human"]}, "2 seats"),
    ({"game": "watten", "variant": "bavarian_2", "seats": ["human", "bot:cheat"]}, "sees every card"),
    ({"game": "watten", "variant": "bavarian_2", "seats": ["human", "bot:cmd:rm -rf /"]}, "outside programs"),
    ({"game": "watten", "variant": "bavarian_2", "seats": ["human", "bot:nobot"]}, "unknown bot"),
    ({"game": "watten", "variant": "bavarian_2", "seats": ["human", "bot:pimc@99s"]}, "at most"),
    ({"game": "watten", "variant": "bavarian_2", "seats": ["bot:pimc@10s", "bot:random"]}, "without a human seat"),
    ({"game": "watten", "variant": "euregio", "signals": "on"}, "forbidden"),
    ({"game": "barbu", "signals": "on"}, "Watten"),
    ({"game": "watten", "grace": -1}, "grace"),
    ({"game": "watten", "timer": "slow"}, "timer"),
    ({"game": "watten", "surprise": 1}, "unknown field"),
])
def test_bad_tables_are_refused_with_a_clear_error(srv, body, words):
    status, out = srv.post("/api/tables", body)
    assert status == 400 and words in out["error"], out


def test_malformed_bodies_are_400(srv):
    assert srv.post("/api/tables", raw=b"{nope")[0] == 400
    assert srv.post("/api/tables", raw=b"[]")[0] == 400
    assert srv.post("/api/tables", raw=b"{" + b" " * 70000 + b"}")[0] == 400


def test_bots_play_a_whole_match_alone(srv):
    status, t = srv.post("/api/tables", {**SHORT, "seats": ["bot:random", "bot:heuristic"]})
    assert status == 201 and all("token" not in s for s in t["seats"])
    deadline = time.time() + 60
    while time.time() < deadline:
        status, rec = srv.get(f"/api/tables/{t['table']}/record")
        if status == 200:
            break
        time.sleep(0.2)
    assert status == 200 and stich.replay(rec).is_terminal()


def test_quickplay_lobby_join_and_games(srv):
    status, q = srv.post("/api/quickplay", {"game": "watten", "variant": "bavarian_2", "name": "Anna<b>"})
    assert status == 201 and q["seat"] == 0 and q["url"] == f"/t/{q['table']}?token={q['token']}"
    status, meta = srv.get(f"/api/tables/{q['table']}")
    assert meta["seats"][0]["name"] == "Anna&lt;b&gt;" and meta["seats"][1]["kind"] == "bot"
    status, pub = srv.post("/api/tables", {**SHORT, "seats": ["human", "human"], "public": True})
    lobby = srv.get("/api/lobby")[1]["tables"]
    assert pub["table"] in [x["table"] for x in lobby] and q["table"] not in [x["table"] for x in lobby]
    codes = []
    for name in ("Bea", "Cleo", "Dan"):
        status, j = srv.post(f"/api/tables/{pub['table']}/join", {"name": name})
        codes.append(status)
        if status == 201:
            c = srv.socket(pub["table"], j["token"])  # the new token sits at the seat
            assert c.until(lambda m: m["type"] == "state")["seat"] == j["seat"]
            c.close()
    assert codes == [201, 201, 409]
    assert pub["table"] not in [x["table"] for x in srv.get("/api/lobby")[1]["tables"]]
    assert srv.post(f"/api/tables/{q['table']}/join", {"name": "Eve"})[0] == 403
    games = srv.get("/api/games")[1]["games"]
    watten = next(g for g in games if g["name"] == "watten")
    assert "bavarian_2" in [v["name"] for v in watten["variants"]]
    assert any(o["name"] == "target" and o["explanation"] for o in watten["options"])


def test_chat_is_escaped_limited_and_signals_reach_the_partner_only(srv):
    status, t = srv.post("/api/tables", {"game": "watten", "variant": "bavarian_4", "signals": "on",
                                         "seats": ["human"] * 4})
    assert status == 201
    cs = {s["seat"]: srv.socket(t["table"], s["token"]) for s in t["seats"]}
    watcher = srv.socket(t["table"])
    for c in [*cs.values(), watcher]:
        c.until(lambda m: m["type"] == "state")
    cs[0].send({"type": "name", "name": "<img src=x onerror=alert(1)>"})
    seats = cs[1].until(lambda m: m["type"] == "seats" and m["seats"][0]["name"])
    assert seats["seats"][0]["name"] == "&lt;img src=x onerror=alert(1)&gt;"
    cs[0].send({"type": "chat", "text": "<script>alert(1)</script>"})
    got = cs[2].until(lambda m: m["type"] == "chat")
    assert got["text"] == "&lt;script&gt;alert(1)&lt;/script&gt;" and got["seat"] == 0
    cs[0].send({"type": "chat", "text": "x" * 501})
    assert "at most 500" in cs[0].until(lambda m: m["type"] == "error")["message"]
    for i in range(6):
        cs[1].send({"type": "chat", "text": f"hi {i}"})
    assert "too many" in cs[1].until(lambda m: m["type"] == "error")["message"]
    cs[0].send({"type": "signal", "signal": "max"})
    sig = cs[2].until(lambda m: m["type"] == "signal")
    assert sig == {"type": "signal", "seat": 0, "to": 2, "signal": "max"}
    cs[0].send({"type": "ping"})
    for c in (cs[1], cs[3], watcher):  # opponents and spectators never see it
        c.send({"type": "ping"})
        c.until(lambda m: m["type"] == "pong")
        assert not any(f["type"] == "signal" for f in c.frames)
    watcher.send({"type": "chat", "text": "hi"})
    assert "spectators" in watcher.until(lambda m: m["type"] == "error")["message"]
    for c in [*cs.values(), watcher]:
        c.close()


def test_html_frames(srv):
    t = new_table(srv)
    c = srv.socket(t["table"], t["seats"][0]["token"], fmt="html", lang="de")
    f = c.until(lambda m: m["type"] == "html")
    assert f["seat"] == 0 and isinstance(f["html"], str) and f["html"]
    c.close()
    c = srv.socket(t["table"], fmt="xml")
    assert c.recv()["type"] == "error"
    c.close()


def test_record_upload_and_health(srv):
    g = stich.game("watten", "bavarian_2", target=3, lock_at=2)
    s = g.new_state(seed=5)
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    status, up = srv.post("/api/records", s.record())
    assert status == 201 and up["url"] == f"/replay/{up['id']}"
    status, rec = srv.get(f"/api/records/{up['id']}")
    assert status == 200 and rec["actions"] == s.record()["actions"]
    broken = s.record()
    broken["actions"][3][1] = "play XX"
    status, out = srv.post("/api/records", broken)
    assert status == 400 and "action #3" in out["error"]
    assert srv.post("/api/records", {"format": "nope"})[0] == 400
    assert srv.get("/healthz") == (200, {"ok": True})
    assert srv.get("/readyz")[0] == 200


def test_test_hooks_are_refused_without_the_environment(serve):
    s = serve()
    status, out = s.post("/api/tables", {**SHORT, "test": {"seed": 1}})
    assert status == 400 and out["error"] == "test hooks are disabled"


def test_a_bad_database_is_one_clear_line(tmp_path):
    import subprocess

    from tests.web.unit.harness import STICH

    for db, words in [(str(tmp_path / "no" / "such" / "dir.sqlite3"), "cannot open the database"),
                      ("mysql://x", "file path or a postgresql:// URL")]:
        out = subprocess.run([STICH, "serve", "--port", "0", "--db", db], capture_output=True, text=True, timeout=60)
        assert out.returncode != 0 and words in out.stderr and "Traceback" not in out.stderr


def test_resync_tells_each_seat_what_it_missed(srv):
    status, t = srv.post("/api/tables", {**SHORT, "seats": ["human", "human"], "test": {"seed": 42}})
    assert status == 201
    game = stich.game(SHORT["game"], SHORT["variant"], **SHORT["options"])
    ref = game.new_state(seed=42)
    seen0 = {seat: len(ref.visible_events(seat)) for seat in (0, 1, None)}
    clients = {s["seat"]: srv.socket(t["table"], s["token"]) for s in t["seats"]}
    for c in clients.values():
        c.until(lambda m: m["type"] == "state")
    for i in range(3):  # three actions, as the table's reference state plays them
        mover = clients[ref.current_player]
        if mover.state["seq"] != i:
            mover.until(lambda m, i=i: m["type"] == "state" and m["seq"] == i)
        action = mover.state["legal"][0]
        assert mover.act(f"r{i}", action)["type"] == "ack"
        ref.apply(action)
    watcher = srv.socket(t["table"])
    for seat, c in [*clients.items(), (None, watcher)]:
        c.send({"type": "resync", "seq": 0})
        snap = c.until(lambda m: m["type"] == "state" and m.get("resync"))
        assert snap["seq"] == 3 and snap["missed"]["since"] == 0
        assert snap["missed"]["events"] == json.loads(json.dumps(ref.visible_events(seat)[seen0[seat]:]))
        c.send({"type": "resync", "seq": 99})  # a seq this table never had: the snapshot only
        assert "missed" not in c.until(lambda m: m["type"] == "state" and m.get("resync"))
        c.close()
