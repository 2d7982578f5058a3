"""Browser security of a real ``stich serve`` (issue #35): the socket checks ``Origin``; every HTTP
answer carries CSP (no inline script), frame-ancestors, nosniff and a Referrer-Policy that keeps
invite links' tokens to themselves; ``/metrics`` behind a bearer token or on its own address; and
half-sent requests (slowloris) are closed in the configured time while another client is served."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.web.server import free_port
from tests.web.unit.test_limits import TWO, first_state, http, refused


def ws(srv, table: str, origin: str | None):
    url = f"{srv.url.replace('http', 'ws', 1)}/ws/tables/{table}"
    return connect(url, origin=origin, open_timeout=10).__enter__()


def test_the_socket_checks_the_origin(serve):
    srv = serve(env={"STICH_ALLOWED_ORIGINS": "https://cards.example, https://www.cards.example/"})
    table = http(srv, "POST", "/api/tables", TWO)[2]["table"]
    port = srv.url.rsplit(":", 1)[1]
    for origin in (None, f"http://127.0.0.1:{port}", "https://cards.example", "https://www.cards.example"):
        s = ws(srv, table, origin)
        assert first_state(s)["seq"] == 0, origin
        s.close()
    for origin in ("https://evil.example", f"http://127.0.0.1:{int(port) + 1}", "null",
                   "https://cards.example.evil.example"):
        error, code, reason = refused(ws(srv, table, origin))
        assert code == 4401 and reason == "origin not allowed", origin
        assert "its Origin is not allowed" in error["message"]


def test_a_proxy_that_drops_the_port_keeps_the_host_name(serve):
    srv = serve()
    table = http(srv, "POST", "/api/tables", TWO)[2]["table"]
    port = int(srv.url.rsplit(":", 1)[1])
    # nginx's `proxy_set_header Host $host` passes the name without the port the browser used: here
    # the request names Host "cards.example" (port 80 unsaid) and goes to the server's own port
    url = f"ws://cards.example/ws/tables/{table}"
    with connect(url, sock=socket.create_connection(("127.0.0.1", port)), origin="https://cards.example:8443") as s:
        assert first_state(s)["seq"] == 0
    with connect(url, sock=socket.create_connection(("127.0.0.1", port)), origin="https://evil.example:8443") as s:
        _, code, _ = refused(s)
        assert code == 4401


def headers_of(srv, path: str):
    try:
        with urllib.request.urlopen(srv.url + path, timeout=30) as resp:
            return resp.status, resp.headers, resp.read().decode(errors="replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read().decode(errors="replace")


def test_security_headers_on_every_answer(serve):
    srv = serve()
    t = http(srv, "POST", "/api/tables", TWO)[2]
    for path in ("/", "/lobby", f"/t/{t['table']}?token={t['seats'][0]['token']}", "/api/lobby",
                 "/static/stich.js", "/no/such/page", "/api/tables/nosuchtable", "/replay"):
        status, h, body = headers_of(srv, path)
        assert status < 500, (path, status)
        csp = h["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, path
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, path
        assert h["X-Content-Type-Options"] == "nosniff", path
        assert h["Referrer-Policy"] == "no-referrer", path
        if h["Content-Type"].startswith("text/html"):
            # no inline script runs under this CSP: the pages may hold JSON data blocks only
            for chunk in body.split("<script")[1:]:
                head = chunk.split(">", 1)[0]
                assert "src=" in head or 'type="application/json"' in head, (path, head)
            assert " onclick=" not in body and " onload=" not in body and " style=" not in body, path
    # a refusal by a limit carries them too
    status, h, _ = http(srv, "POST", "/api/tables", {"game": "nosuchgame"})
    assert status == 400 and h["X-Content-Type-Options"] == "nosniff"


def scrape_status(url: str, token: str | None = None) -> tuple[int, dict, str]:
    req = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"} if token else {})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.headers, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read().decode()


def test_metrics_behind_a_token(serve):
    srv = serve(env={"STICH_METRICS_TOKEN": "s3cret-metrics"})
    status, h, body = scrape_status(srv.url + "/metrics")
    assert status == 401 and h["WWW-Authenticate"].startswith("Bearer") and "Bearer" in json.loads(body)["error"]
    assert scrape_status(srv.url + "/metrics", "wrong")[0] == 401
    status, h, body = scrape_status(srv.url + "/metrics", "s3cret-metrics")
    assert status == 200 and "stich_tables" in body
    assert scrape_status(srv.url + "/healthz")[0] == 200       # probes need no token


def test_metrics_on_their_own_address(server_factory):
    port = free_port()
    srv = server_factory(args=("--metrics-address", f"127.0.0.1:{port}"))
    assert any(f"stich metrics on http://127.0.0.1:{port}/metrics" in line for line in srv.lines)
    status, _, body = scrape_status(f"http://127.0.0.1:{port}/metrics")
    assert status == 200 and "stich_tables" in body
    assert scrape_status(f"http://127.0.0.1:{port}/readyz")[0] == 200
    assert scrape_status(f"http://127.0.0.1:{port}/api/lobby")[0] == 404    # nothing else there
    assert scrape_status(srv.base_url + "/metrics")[0] == 404               # not on the players' port
    assert scrape_status(srv.base_url + "/api/lobby")[0] == 200


def test_a_bad_metrics_address_is_one_line(tmp_path):
    import subprocess

    from tests.web.unit.harness import STICH

    out = subprocess.run([STICH, "serve", "--port", "0", "--db", str(tmp_path / "x.sqlite3"),
                          "--metrics-address", "nowhere"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "HOST:PORT" in out.stderr and "Traceback" not in out.stderr


def _closed_within(sock: socket.socket, seconds: float) -> tuple[float, bytes]:
    """Seconds until the server closed ``sock`` (reading what it said), or ``seconds`` + 1 if it did not."""
    start = time.monotonic()
    sock.settimeout(0.2)
    got = b""
    while time.monotonic() - start < seconds:
        try:
            data = sock.recv(4096)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return time.monotonic() - start, got
        if not data:
            return time.monotonic() - start, got
        got += data
    return seconds + 1, got


@pytest.mark.timeout(60)
def test_half_sent_requests_are_closed_while_others_are_served(serve):
    srv = serve(env={"STICH_HEADER_SECONDS": "1.5", "STICH_BODY_SECONDS": "1.5"})
    host, port = "127.0.0.1", int(srv.url.rsplit(":", 1)[1])
    halves = []
    for _ in range(40):                     # half a head: a request line and one header, no end
        s = socket.create_connection((host, port))
        s.sendall(b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n")
        halves.append(s)
    for _ in range(10):                     # a whole head and a body that never comes
        s = socket.create_connection((host, port))
        s.sendall(b"POST /api/records HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 1000\r\n\r\n{\"game\"")
        halves.append(s)
    silent = socket.create_connection((host, port))   # says nothing at all
    trickle = socket.create_connection((host, port))  # a byte every 0.3 s does not extend the deadline
    stop = threading.Event()

    def drip():
        for ch in b"GET /api/lobby HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100:
            if stop.wait(0.3):
                return
            try:
                trickle.send(bytes([ch]))
            except OSError:
                return

    dripper = threading.Thread(target=drip, daemon=True)
    dripper.start()
    # meanwhile another client is served at once
    started = time.monotonic()
    assert http(srv, "GET", "/api/lobby")[0] == 200
    assert time.monotonic() - started < 1.0
    try:
        for s in [*halves, silent, trickle]:
            took, said = _closed_within(s, 8)
            assert took <= 8, "a half-sent request was held open"
            assert said.startswith(b"HTTP/1.1 408") and b"did not arrive in time" in said, said[:200]
        # each within its deadline (1.5 s from its start) and some slack for this busy machine
        assert time.monotonic() - started < 1.5 + 2.5
    finally:
        stop.set()
        for s in [*halves, silent, trickle]:
            s.close()
    # and the server still serves, and logged no failure for the bodies that never came
    assert http(srv, "GET", "/api/lobby")[0] == 200
    assert "Traceback" not in srv.stderr_path.read_text()


def test_a_head_too_large_gets_431(serve):
    srv = serve()
    port = int(srv.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n")
        try:
            for _ in range(200):
                s.sendall(b"X-Filler: " + b"a" * 1000 + b"\r\n")
        except OSError:
            pass   # closed while we were still sending
        took, said = _closed_within(s, 10)
        assert took <= 10 and said.startswith(b"HTTP/1.1 431"), said[:200]


def test_a_websocket_outlives_the_head_deadline(serve):
    srv = serve(env={"STICH_HEADER_SECONDS": "0.5", "STICH_BODY_SECONDS": "0.5"})
    table = http(srv, "POST", "/api/tables", TWO)[2]["table"]
    with connect(f"{srv.url.replace('http', 'ws', 1)}/ws/tables/{table}") as s:
        first_state(s)
        time.sleep(1.5)
        s.send(json.dumps({"type": "ping"}))
        try:
            while json.loads(s.recv(timeout=10))["type"] != "pong":
                pass
        except ConnectionClosed as exc:
            raise AssertionError("the head deadline closed an upgraded socket") from exc
