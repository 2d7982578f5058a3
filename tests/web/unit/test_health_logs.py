"""Health, readiness and the JSON log of a real ``stich serve`` process.

- ``/readyz`` says 503 while the database (a real Postgres, stopped under the server) does not
  answer and 200 again once it does; ``/healthz`` stays 200 meanwhile (a restart would not help).
- Every log line is a JSON object; the lines about a table carry its id and seq; no token, token
  hash or deal seed is anywhere in the log; and the formatter blanks a token that a library puts
  into a message (uvicorn logs request paths with their query) or a field named like a secret."""

from __future__ import annotations

import hashlib
import json
import logging
import time
import urllib.error
import urllib.request

import pytest

from stich.web.logs import JsonFormatter
from tests.web.unit.harness import PG_BIN, Postgres, postgres_available

SHORT = {"game": "watten", "variant": "bavarian_2", "options": {"target": 3, "lock_at": 2}}
TABLE_EVENTS = {"table created", "connected", "disconnected", "bot takes the seat", "seat handed back",
                "match over"}


def status_of(srv, path: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(srv.url + path, timeout=30) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def wait_status(srv, path: str, want: int, timeout: float = 30.0) -> dict:
    end = time.time() + timeout
    while True:
        code, body = status_of(srv, path)
        if code == want:
            return body
        if time.time() > end:
            raise AssertionError(f"{path} still {code} {body} after {timeout}s (wanted {want})")
        time.sleep(0.2)


class StoppablePostgres(Postgres):
    """The harness's cluster, which can also be stopped and started again on the same port."""

    def pause(self) -> None:
        self._as_pg(PG_BIN / "pg_ctl", "-D", self.dir / "data", "-m", "immediate", "-w", "stop")

    def resume(self) -> None:
        self._as_pg(PG_BIN / "pg_ctl", "-D", self.dir / "data", "-l", self.dir / "log", "-w", "-o",
                    f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off", "start")


def test_readiness_fails_while_the_database_is_unreachable(serve):
    if not postgres_available():
        pytest.skip("Postgres binaries (/usr/lib/postgresql/15/bin) or runuser (as root) are missing")
    pg = StoppablePostgres().start()
    try:
        srv = serve(pg.new_database())
        assert status_of(srv, "/readyz")[0] == 200
        assert srv.post("/api/tables", SHORT)[0] == 201
        pg.pause()
        body = wait_status(srv, "/readyz", 503, timeout=15)
        assert body["error"].startswith("database unavailable")
        assert status_of(srv, "/healthz") == (200, {"ok": True})   # alive: a restart would not help
        pg.resume()
        assert wait_status(srv, "/readyz", 200, timeout=30)["ok"] is True
        assert srv.post("/api/tables", SHORT)[0] == 201             # and it serves again
    finally:
        pg.stop()


def test_log_lines_are_json_with_table_and_seq_and_no_secret(serve, tmp_path):
    srv = serve()
    status, t = srv.post("/api/tables", {**SHORT, "seats": ["human", "human"], "grace": 0.3, "start": "now"})
    assert status == 201
    table = t["table"]
    tokens = [s["token"] for s in t["seats"]]
    # seat 1 never comes (its bot takes it), seat 0 plays the match to its end
    a = srv.socket(table, tokens[0])
    while not (a.state and a.state["finished"]):
        st = a.until(lambda m: m["type"] == "state")
        if st["legal"] and st["view"]["current_player"] == 0:
            assert a.act(f"a{st['seq']}", st["legal"][0])["type"] == "ack"
    a.close()
    status, record = srv.get(f"/api/tables/{table}/record")
    assert status == 200
    assert srv.stop() == 0
    text = srv.stderr_path.read_text()
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]   # every line is JSON
    about = [ln for ln in lines if ln.get("event") in TABLE_EVENTS]
    assert {ln["event"] for ln in about} == TABLE_EVENTS - {"seat handed back"}
    for ln in about:
        assert ln["table"] == table and isinstance(ln["seq"], int), ln
    over = next(ln for ln in about if ln["event"] == "match over")
    assert over["seq"] == len(record["actions"])
    secrets = tokens + [hashlib.sha256(tok.encode()).hexdigest() for tok in tokens] + [str(record["seed"])]
    for secret in secrets:
        assert secret not in text


def test_the_formatter_keeps_tokens_and_seeds_out_whoever_logs_them():
    rec = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1,
                            '%s - "WebSocket %s" [accepted]', ("127.0.0.1:5", "/ws/tables/T?token=SECRET1&format=json"),
                            None)
    rec.fields = {"table": "T", "seq": 3, "token": "SECRET2", "seed": 123456789}
    out = json.loads(JsonFormatter().format(rec))
    assert "SECRET1" not in json.dumps(out) and "token=[redacted]&format=json" in out["event"]
    assert out["table"] == "T" and out["seq"] == 3 and "token" not in out and "seed" not in out
