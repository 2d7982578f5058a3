"""Limits on what one client address, table or socket may spend (issue #35), on a real ``stich serve``
over real sockets and a real SQLite file, each limit set low through its ``STICH_*`` variable: past it
an HTTP request gets ``429`` JSON with ``Retry-After``, a socket an ``error`` frame and a close with
the documented code, and nothing is created or kept.  Clients on 127.0.0.1 stand for other addresses
with ``X-Forwarded-For`` (the loopback is a trusted proxy by default, as nginx on the same host)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

import stich
from tests.web.server import wait_until
from tests.web.unit.harness import STICH
from tests.web.unit.test_metrics import SHORT, scrape, val

TWO = {**SHORT, "seats": ["human", "human"], "grace": "never"}


def http(srv, method: str, path: str, body=None, headers: dict | None = None):
    """(status, headers, JSON body) of one request."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(srv.url + path, data=data, method=method,
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.headers, json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, json.loads(exc.read() or b"null")


def ws(srv, table: str, token: str | None = None, headers: dict | None = None):
    q = "format=json" + (f"&token={token}" if token else "")
    return connect(f"{srv.url.replace('http', 'ws', 1)}/ws/tables/{table}?{q}", additional_headers=headers,
                   open_timeout=10).__enter__()


def next_error(sock) -> dict:
    while True:
        m = json.loads(sock.recv(timeout=10))
        if m["type"] == "error":
            return m


def first_state(sock) -> dict:
    while True:
        m = json.loads(sock.recv(timeout=10))
        if m["type"] == "state":
            return m


def refused(sock) -> tuple[dict, int, str]:
    """The error frame before the close, the close code and reason."""
    frames = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            frames.append(json.loads(sock.recv(timeout=10)))
    errors = [f for f in frames if f["type"] == "error"]
    assert errors, frames
    return errors[-1], closed.value.rcvd.code, closed.value.rcvd.reason


def refused_at_handshake(srv, table: str) -> tuple[int, dict, dict]:
    """A socket refused before it opens: the HTTP status, headers and JSON body of the handshake."""
    with pytest.raises(InvalidStatus) as refused_:
        ws(srv, table)
    response = refused_.value.response
    return response.status_code, response.headers, json.loads(response.body)


def test_tables_per_address_answer_429_with_retry_after(serve):
    srv = serve(env={"STICH_TABLES_PER_ADDRESS": "3/minute"})
    assert http(srv, "POST", "/api/tables", TWO)[0] == 201
    assert http(srv, "POST", "/api/quickplay", {"game": "watten"})[0] == 201
    assert http(srv, "POST", "/api/tables", TWO)[0] == 201
    status, headers, body = http(srv, "POST", "/api/tables", TWO)
    assert status == 429 and "too many tables created from this address: at most 3 per minute" in body["error"]
    assert 1 <= int(headers["Retry-After"]) <= 60
    assert http(srv, "POST", "/api/quickplay", {"game": "watten"})[0] == 429      # the same count
    # another address behind the (trusted) proxy has its own count; reading is not limited
    assert http(srv, "POST", "/api/tables", TWO, {"X-Forwarded-For": "203.0.113.7"})[0] == 201
    assert http(srv, "GET", "/api/lobby")[0] == 200


def test_players_and_clubs_per_address_answer_429_with_retry_after(serve):
    srv = serve(env={"STICH_PLAYERS_PER_ADDRESS": "2/minute", "STICH_CLUBS_PER_ADDRESS": "1/hour"})
    stamp = int(time.time() * 1000) % 10**9
    status, _, anna = http(srv, "POST", "/api/players", {"name": f"a{stamp}"})
    assert status == 201 and http(srv, "POST", "/api/players", {"name": f"b{stamp}"})[0] == 201
    status, headers, body = http(srv, "POST", "/api/players", {"name": f"c{stamp}"})
    assert status == 429 and "too many players created from this address: at most 2 per minute" in body["error"]
    assert 1 <= int(headers["Retry-After"]) <= 60
    assert http(srv, "GET", f"/api/players/c{stamp}")[0] == 404          # nothing was created
    bearer = {"Authorization": f"Bearer {anna['token']}"}
    assert http(srv, "POST", "/api/clubs", {"name": "Runde"}, bearer)[0] == 201
    status, headers, body = http(srv, "POST", "/api/clubs", {"name": "Runde 2"}, bearer)
    assert status == 429 and "too many clubs created" in body["error"] and int(headers["Retry-After"]) > 60
    assert len(http(srv, "GET", "/api/clubs", None, bearer)[2]["clubs"]) == 1


def test_x_forwarded_for_counts_only_from_a_trusted_proxy(serve):
    srv = serve(env={"STICH_TABLES_PER_ADDRESS": "1/minute", "STICH_TRUSTED_PROXIES": "192.0.2.1"})
    assert http(srv, "POST", "/api/tables", TWO, {"X-Forwarded-For": "203.0.113.7"})[0] == 201
    # 127.0.0.1 is no trusted proxy here: the header is ignored and the peer's address counts
    assert http(srv, "POST", "/api/tables", TWO, {"X-Forwarded-For": "203.0.113.8"})[0] == 429


def test_a_bad_limit_is_one_line_before_anything_starts(tmp_path):
    for name, value, words in (("STICH_TABLES_PER_ADDRESS", "lots", "rates such as"),
                               ("STICH_SOCKETS_PER_TABLE", "0", "between 1 and"),
                               ("STICH_TRUSTED_PROXIES", "localhost", "addresses or networks")):
        out = subprocess.run([STICH, "serve", "--port", "0", "--db", str(tmp_path / "x.sqlite3")],
                             capture_output=True, text=True, timeout=60, env={**os.environ, name: value})
        assert out.returncode == 2 and name in out.stderr and words in out.stderr, out.stderr
        assert "Traceback" not in out.stderr


def test_sockets_per_table_spectators_and_address(serve):
    srv = serve(env={"STICH_SPECTATORS_PER_TABLE": "2", "STICH_SOCKETS_PER_TABLE": "3",
                     "STICH_SOCKETS_PER_ADDRESS": "4"})
    t = http(srv, "POST", "/api/tables", TWO)[2]
    token = t["seats"][0]["token"]
    watchers = [ws(srv, t["table"]) for _ in range(2)]
    for w in watchers:
        first_state(w)
    error, code, reason = refused(ws(srv, t["table"]))
    assert code == 4429 and "too many spectators at this table (at most 2)" in error["message"]
    player = ws(srv, t["table"], token)
    first_state(player)
    error, code, _ = refused(ws(srv, t["table"], t["seats"][1]["token"]))
    assert code == 4429 and "too many sockets at this table (at most 3)" in error["message"]
    # a socket that closes frees its place (once the server has seen it close: waited for, not slept)
    watchers.pop().close()
    wait_until(lambda: val(scrape(srv)[1], "stich_sockets", role="spectator") == 1, 30,
               "the closed socket to be counted as gone")
    watchers.append(ws(srv, t["table"]))
    first_state(watchers[-1])
    # the fourth socket of this address at another table; the fifth is refused, another address is not
    other = http(srv, "POST", "/api/tables", TWO)[2]
    fourth = ws(srv, other["table"])
    first_state(fourth)
    status, headers, body = refused_at_handshake(srv, other["table"])
    assert status == 429 and "too many open sockets from this address (at most 4)" in body["error"]
    assert int(headers["Retry-After"]) >= 1
    elsewhere = ws(srv, other["table"], headers={"X-Forwarded-For": "198.51.100.9"})
    first_state(elsewhere)
    for s in (*watchers, player, fourth, elsewhere):
        s.close()


def test_socket_opens_per_address(serve):
    srv = serve(env={"STICH_SOCKET_OPENS_PER_ADDRESS": "3/minute"})
    t = http(srv, "POST", "/api/tables", TWO)[2]
    for _ in range(3):
        s = ws(srv, t["table"])
        first_state(s)
        s.close()
    status, headers, body = refused_at_handshake(srv, t["table"])
    assert status == 429 and "too many sockets opened from this address: at most 3 per minute" in body["error"]
    assert 1 <= int(headers["Retry-After"]) <= 60


def test_messages_per_socket_close_with_4429(serve):
    srv = serve(env={"STICH_NAMES_PER_SOCKET": "3/minute", "STICH_CHATS_PER_SOCKET": "2/minute"})
    t = http(srv, "POST", "/api/tables", TWO)[2]
    token = t["seats"][0]["token"]
    me = ws(srv, t["table"], token)
    first_state(me)
    for i in range(3):
        me.send(json.dumps({"type": "name", "name": f"Anna {i}"}))
    me.send(json.dumps({"type": "name", "name": "Anna 4"}))
    error, code, reason = refused(me)
    assert code == 4429 and reason == "too many messages"
    assert "too many 'name' messages on this socket: at most 3 per minute" in error["message"]
    time.sleep(0.3)
    status, _, info = http(srv, "GET", f"/api/tables/{t['table']}")
    assert info["seats"][0]["name"] == "Anna 2"          # the fourth rename changed nothing
    # the count is per socket: a new socket of the same seat talks; chat has its own rate
    again = ws(srv, t["table"], token)
    first_state(again)
    again.send(json.dumps({"type": "name", "name": "Bea"}))
    for text in ("hi", "ho", "hu"):
        again.send(json.dumps({"type": "chat", "text": text}))
    error, code, _ = refused(again)
    assert code == 4429 and "'chat' messages" in error["message"]


def test_garbage_gets_errors_then_a_close_with_a_reason(serve):
    srv = serve(env={"STICH_BAD_MESSAGES": "3"})
    t = http(srv, "POST", "/api/tables", TWO)[2]
    me = ws(srv, t["table"], t["seats"][0]["token"])
    first_state(me)
    # messages of the protocol with bad fields are answered and do not count
    for _ in range(4):
        me.send(json.dumps({"type": "act", "action": "play XX"}))
        assert "needs an 'id'" in next_error(me)["message"]
    for raw, words in (("{not json", "not valid JSON"), (json.dumps({"type": "shout"}), "unknown message type")):
        me.send(raw)
        assert words in next_error(me)["message"]
    me.send(b"\xff\xfe")                                   # a binary frame that is not UTF-8
    error, code, reason = refused(me)
    assert code == 4400 and reason == "too many bad messages"
    assert "UTF-8" in error["message"] and "closed after 3 messages" in error["message"]


def test_refused_actions_per_socket_close_with_4429(serve):
    srv = serve(env={"STICH_REFUSALS_PER_SOCKET": "5/minute"})
    t = http(srv, "POST", "/api/tables", TWO)[2]
    me = ws(srv, t["table"], t["seats"][0]["token"])
    first_state(me)
    for i in range(6):
        me.send(json.dumps({"type": "act", "id": f"r{i}", "action": "play ZZ"}))
    error, code, reason = refused(me)
    assert code == 4429 and reason == "too many refusals"
    assert "too many refused actions on this socket: at most 5 per minute" in error["message"]


def test_refused_actions_are_kept_up_to_a_cap(serve, tmp_path):
    srv = serve(env={"STICH_REFUSALS_KEPT": "3", "STICH_REFUSALS_PER_SOCKET": "100/second"})
    t = http(srv, "POST", "/api/tables", TWO)[2]
    me = srv.socket(t["table"], t["seats"][0]["token"])
    me.until(lambda m: m["type"] == "state")
    for i in range(8):
        answer = me.act(f"bad-{i}", "play ZZ")
        assert answer["type"] == "error" and "ZZ" in answer["message"]
    assert me.act("bad-0", "play ZZ")["type"] == "error"   # kept: the same answer again
    me.close()
    db = sqlite3.connect(srv.db)
    rows = db.execute("SELECT client_id FROM answers WHERE table_id = ? AND error IS NOT NULL",
                      (t["table"],)).fetchall()
    db.close()
    assert sorted(r[0] for r in rows) == ["bad-0", "bad-1", "bad-2"]
    _, values = scrape(srv)
    assert val(values, "stich_errors_total", kind="refusal_not_kept") == 5


def test_uploads_per_address_and_their_retention(serve):
    srv = serve(env={"STICH_UPLOADS_PER_ADDRESS": "2/minute", "STICH_RECORD_SECONDS": "1",
                     "STICH_SWEEP_SECONDS": "0.3"})
    record = stich.game("battn").new_state(seed=1).record()
    ids = []
    for _ in range(2):
        status, _, body = http(srv, "POST", "/api/records", record)
        assert status == 201
        ids.append(body["id"])
    status, headers, body = http(srv, "POST", "/api/records", record)
    assert status == 429 and "too many records uploaded" in body["error"] and int(headers["Retry-After"]) >= 1
    assert http(srv, "GET", f"/api/records/{ids[0]}")[0] == 200
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and http(srv, "GET", f"/api/records/{ids[1]}")[0] != 404:
        time.sleep(0.2)
    assert http(srv, "GET", f"/api/records/{ids[0]}")[0] == 404
    db = sqlite3.connect(srv.db)
    assert db.execute("SELECT count(*) FROM records").fetchone()[0] == 0
    db.close()


def test_a_finished_table_leaves_memory_and_comes_back_from_its_log(serve):
    srv = serve(env={"STICH_FINISHED_TABLE_SECONDS": "0.5"})
    t = http(srv, "POST", "/api/tables", {**SHORT, "seats": ["bot:random", "bot:random"]})[2]
    watcher = srv.socket(t["table"])
    watcher.until(lambda m: m["type"] == "state" and m["finished"])
    time.sleep(1.0)
    _, values = scrape(srv)
    assert val(values, "stich_tables", state="finished") == 1      # watched: it stays
    watcher.close()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and val(scrape(srv)[1], "stich_tables", state="finished") != 0:
        time.sleep(0.1)
    assert val(scrape(srv)[1], "stich_tables", state="finished") == 0
    status, _, info = http(srv, "GET", f"/api/tables/{t['table']}")   # loaded again from the log
    assert status == 200 and info["finished"] is True
    status, _, record = http(srv, "GET", f"/api/tables/{t['table']}/record")
    assert status == 200 and record["terminal"] is True


def test_a_table_nobody_opened_leaves_the_database_and_one_somebody_sat_at_stays(serve):
    """A script's thousand unused tables are not kept for ever (STICH_UNOPENED_TABLE_SECONDS); a table
    a person sat at, or one that played, is a real match and stays."""
    srv = serve(env={"STICH_UNOPENED_TABLE_SECONDS": "1", "STICH_SWEEP_SECONDS": "0.3"})
    humans = {**SHORT, "seats": ["human", "human"], "grace": "never"}
    unused = http(srv, "POST", "/api/tables", humans)[2]
    sat_at = http(srv, "POST", "/api/tables", humans)[2]
    played = http(srv, "POST", "/api/tables", {**SHORT, "seats": ["bot:random", "bot:random"]})[2]
    # a tournament's table waits for its late players as long as the tournament does (docs/tournaments.md)
    tour = http(srv, "POST", "/api/tournaments", {**{k: SHORT[k] for k in ("game", "variant", "options")},
                "format": {"kind": "rounds", "rounds": 1, "games_per_round": 1},
                "players": [{"name": "Late", "kind": "human"}, {"name": "Later", "kind": "human"}]})[2]
    drawn = http(srv, "POST", f"/api/tournaments/{tour['tournament']}/rounds", {"token": tour["director_token"]})[2]
    person = srv.socket(sat_at["table"], sat_at["seats"][0]["token"])
    person.until(lambda m: m["type"] == "state")
    person.close()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and http(srv, "GET", f"/api/tables/{unused['table']}")[0] != 404:
        time.sleep(0.2)
    assert http(srv, "GET", f"/api/tables/{unused['table']}")[0] == 404
    with connect(f"{srv.ws_url}/ws/tables/{unused['table']}?token={unused['seats'][0]['token']}") as ws:
        assert "there is no table" in json.loads(ws.recv(timeout=10))["message"]   # its links lead nowhere
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd.code == 4404
    time.sleep(1.0)   # a few more sweeps: the others stay
    assert http(srv, "GET", f"/api/tables/{sat_at['table']}")[0] == 200
    assert http(srv, "GET", f"/api/tables/{played['table']}")[0] == 200
    assert http(srv, "GET", f"/api/tables/{drawn['tables'][0]['table']}")[0] == 200
    db = sqlite3.connect(srv.db)
    left = {t: db.execute("SELECT count(*) FROM seats WHERE table_id = ?", (t,)).fetchone()[0]
            for t in (unused["table"], sat_at["table"])}
    db.close()
    assert left == {unused["table"]: 0, sat_at["table"]: 2}
