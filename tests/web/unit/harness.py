"""Real parts for the server's own tests: ``stich serve`` processes on 127.0.0.1, a Postgres cluster
from Debian's binaries (run as ``postgres``), and a small synchronous socket client."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from websockets.sync.client import connect

from tests.web.server import MANY_CLIENTS_ONE_ADDRESS

STICH = str(Path(sys.executable).with_name("stich"))
PG_BIN = Path("/usr/lib/postgresql/15/bin")


class Served:
    """A ``stich serve --port 0`` process; ``kill9()`` and ``start()`` again on the same database."""

    def __init__(self, db: str, cwd: Path, env: dict | None = None, workers: int = 0):
        self.db, self.cwd, self.workers = db, Path(cwd), workers
        self.env = dict(os.environ, PYTHONUNBUFFERED="1", **{**MANY_CLIENTS_ONE_ADDRESS, **(env or {})})
        self.proc = None
        self.url = None
        self.stderr_path = self.cwd / "server.stderr"

    def start(self) -> Served:
        err = open(self.stderr_path, "ab")
        self.proc = subprocess.Popen([STICH, "serve", "--port", "0", "--db", self.db, "--bot-workers",
                                      str(self.workers)], stdout=subprocess.PIPE, stderr=err, cwd=self.cwd,
                                     env=self.env, text=True)
        err.close()
        found = []

        def read():
            for line in self.proc.stdout:
                m = re.search(r"stich serving on (http://\S+)", line)
                if m and not found:
                    found.append(m.group(1))
        t = threading.Thread(target=read, daemon=True)
        t.start()
        deadline = time.time() + 60
        while not found and time.time() < deadline and self.proc.poll() is None:
            time.sleep(0.05)
        if not found:
            self.kill9()
            raise RuntimeError("server did not start: " + self.stderr_path.read_text()[-2000:])
        self.url = found[0]
        return self

    @property
    def ws_url(self) -> str:
        return "ws" + self.url[4:]

    def kill9(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> int | None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                return self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill9()
        return self.proc.returncode if self.proc else None

    # --- HTTP ---------------------------------------------------------------------------------
    def call(self, method: str, path: str, body=None, raw: bytes | None = None,
             content_type: str = "application/json") -> tuple[int, dict]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": content_type})
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, json.loads(resp.read() or b"null")
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")

    def post(self, path, body=None, raw=None):
        return self.call("POST", path, body, raw)

    def get(self, path):
        return self.call("GET", path)

    def socket(self, table: str, token: str | None = None, fmt: str = "json", lang: str | None = None) -> Client:
        q = [f"format={fmt}"] + ([f"token={token}"] if token else []) + ([f"lang={lang}"] if lang else [])
        return Client(connect(f"{self.ws_url}/ws/tables/{table}?" + "&".join(q), max_size=2**24).__enter__())


class Client:
    """A synchronous socket client that remembers every frame it got."""

    def __init__(self, ws):
        self.ws = ws
        self.frames: list[dict] = []
        self.state: dict | None = None

    def send(self, msg) -> None:
        self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    def recv(self, timeout: float = 20.0) -> dict:
        m = json.loads(self.ws.recv(timeout=timeout))
        self.frames.append(m)
        if m["type"] in ("state", "html"):
            self.state = m
        return m

    def until(self, pred, timeout: float = 30.0) -> dict:
        end = time.time() + timeout
        while True:
            m = self.recv(max(0.01, end - time.time()))
            if pred(m):
                return m

    def act(self, cid: str, action: str) -> dict:
        self.send({"type": "act", "id": cid, "action": action})
        return self.until(lambda m: m["type"] in ("ack", "error") and m.get("id") == cid)

    def close(self) -> None:
        self.ws.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def postgres_available() -> bool:
    return (PG_BIN / "initdb").exists() and shutil.which("runuser") is not None and os.geteuid() == 0


class Postgres:
    """A throw-away Postgres cluster (trust auth, 127.0.0.1, a free port), run as user ``postgres``."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="stich-pg-"))
        self.port = free_port()
        self.n = 0

    def _as_pg(self, *args, **kw):
        return subprocess.run(["runuser", "-u", "postgres", "--", *map(str, args)], check=True,
                              capture_output=True, text=True, timeout=120, **kw)

    def start(self) -> Postgres:
        shutil.chown(self.dir, "postgres")
        data = self.dir / "data"
        self._as_pg(PG_BIN / "initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync")
        self._as_pg(PG_BIN / "pg_ctl", "-D", data, "-l", self.dir / "log", "-w", "-o",
                    f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off", "start")
        return self

    def new_database(self) -> str:
        self.n += 1
        name = f"stich_{self.n}"
        self._as_pg(PG_BIN / "createdb", "-h", "127.0.0.1", "-p", self.port, "-U", "postgres", name)
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        try:
            self._as_pg(PG_BIN / "pg_ctl", "-D", self.dir / "data", "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
