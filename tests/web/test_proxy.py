"""The deployment as docs/deploy.md describes it, with real parts: Debian's nginx running
``deploy/nginx.conf`` (only its ports, pid file and temporary folders changed) in front of two
``stich serve --redis`` processes on one Postgres.  Players reach the table only through nginx: the
WebSocket upgrade passes, any process serves any seat (no stickiness), one process is stopped in the
middle of the match (a rolling restart) and the players' reconnects through nginx find the other,
the match finishes with every acknowledged action in its record once, and nginx's access log never
holds a seat's token.  Skipped where no nginx binary is installed (``.ci/run`` installs it)."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.web.checks import check_acks_in_record, check_frames, replay_ok
from tests.web.client import create_table, get_record, http_client, run, seat_clients
from tests.web.server import free_port, wait_until

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
NGINX = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


class Nginx:
    """nginx in the foreground with the repository's configuration, proxying to ``upstreams``."""

    def __init__(self, directory: Path, upstreams: list[str]):
        self.dir = directory
        self.port = free_port()
        text = (DEPLOY / "nginx.conf").read_text()
        text = text.replace("/run/nginx-stich.pid", str(directory / "nginx.pid"))
        text = text.replace("access_log /dev/stdout stich;", f"access_log {directory / 'access.log'} stich;")
        text = re.sub(r"listen 80;", f"listen 127.0.0.1:{self.port};", text)
        servers = "".join(f"        server {u} max_fails=3 fail_timeout=10s;\n" for u in upstreams)
        text, n = re.subn(r"(?m)^\s*server 127\.0\.0\.1:\d+ [^\n]*\n", "", text)
        assert n >= 1, "deploy/nginx.conf lists no upstream server"
        text = text.replace("        least_conn;", servers + "        least_conn;", 1)
        temp = "".join(f"    {kind}_temp_path {directory / kind};\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        text = text.replace("http {\n", "http {\n" + temp, 1)
        text = text.replace("worker_processes auto;", "worker_processes 1;")
        (directory / "nginx.conf").write_text(text)
        self.proc: subprocess.Popen | None = None

    def start(self) -> Nginx:
        self.proc = subprocess.Popen(
            [NGINX, "-p", str(self.dir), "-c", str(self.dir / "nginx.conf"), "-e", "stderr", "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=open(self.dir / "nginx.stderr", "wb"))
        import socket

        def listening() -> bool:
            assert self.proc.poll() is None, (self.dir / "nginx.stderr").read_text()
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", self.port)) == 0

        wait_until(listening, 15, "nginx listening")
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def access_log(self) -> str:
        p = self.dir / "access.log"
        return p.read_text(errors="replace") if p.exists() else ""


@pytest.mark.timeout(180)
def test_a_match_through_nginx_survives_a_rolling_restart(server_factory, redis_server, postgres, tmp_path):
    if NGINX is None:
        pytest.skip("no nginx binary (Debian: apt-get install nginx-light)")
    db = postgres.new_database()
    args = ("--redis", redis_server.url, "--bot-workers", "0")
    env = {"STICH_LEASE_SECONDS": "5"}
    a = server_factory(db, env=env, args=args)
    b = server_factory(db, env=env, args=args)
    front = Nginx(tmp_path, [a.base_url.split("//", 1)[1], b.base_url.split("//", 1)[1]]).start()
    try:
        async def go():
            async with http_client(front) as http:
                assert (await http.get("/healthz")).status_code == 200
                t = await create_table(http, "watten", "euregio", ["human", "human", "human", "bot:heuristic"],
                                       {"target": 5, "lock_at": 3})
            clients = seat_clients(front, t, script_seed="proxy")
            for c in clients:
                await c.connect()
            players = [asyncio.create_task(c.play(timeout=150)) for c in clients]
            # some cards are played, then one process stops as in a rolling restart
            await asyncio.sleep(0)
            end = time.monotonic() + 30
            while max(c.seq for c in clients) < 8 and time.monotonic() < end:
                await asyncio.sleep(0.05)
            a.stop()   # SIGTERM: its tables are handed over, its sockets close
            await asyncio.gather(*players)
            async with http_client(front) as http:
                record = await get_record(http, t["table"])
            for c in clients:
                await c.close()
            return t, record, clients

        t, record, clients = run(go(), timeout=170)
    finally:
        front.stop()
    replay_ok(record)
    check_acks_in_record(record, clients)
    for c in clients:
        check_frames(record, c)
    assert sum(c.connects for c in clients) > len(clients), "nobody had to reconnect: the stop came too late"
    log = front.access_log()
    assert '"GET /ws/tables/' in log and " 101 " in log, log[-2000:]   # the upgrade passed through nginx
    for s in t["seats"]:
        if s.get("token"):
            assert s["token"] not in log     # a token in the log would let its reader take the seat
