"""Real server processes and a real Postgres cluster for the black-box web tests.

Everything here drives the public surface only: the ``stich serve`` command, its printed
``stich serving on http://HOST:PORT`` line, and signals.  No import of ``stich.web``.
"""

from __future__ import annotations

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
from pathlib import Path

STICH = str(Path(sys.executable).with_name("stich"))
PG_BIN = Path("/usr/lib/postgresql/15/bin")
SERVING = re.compile(r"stich serving on (http://\S+)")
START_TIMEOUT = 30.0
# The tests' many clients all come from 127.0.0.1, and their scripted players act as fast as loopback
# and instant bots allow: the per-address rates of creating tables, players and clubs, claiming
# seats, uploading and opening sockets, and the rate of actions per socket (docs/web-protocol.md,
# "Limits") are raised for them, unless a test sets its own; the counts of open sockets and the other
# message rates keep their defaults.
MANY_CLIENTS_ONE_ADDRESS = {name: "1000000/minute" for name in (
    "STICH_TABLES_PER_ADDRESS", "STICH_JOINS_PER_ADDRESS", "STICH_UPLOADS_PER_ADDRESS",
    "STICH_SOCKET_OPENS_PER_ADDRESS", "STICH_ACTS_PER_SOCKET", "STICH_PLAYERS_PER_ADDRESS",
    "STICH_CLUBS_PER_ADDRESS")}


class ServerProcess:
    """One ``stich serve`` process on 127.0.0.1 with a chosen port (``--port 0``).

    ``restart()`` starts a new process on the same database after ``kill9()`` or ``stop()``;
    the port changes, so clients read :attr:`base_url` again when they reconnect.
    """

    def __init__(self, db: str, log_dir: Path, env: dict | None = None, args: tuple[str, ...] = ()):
        self.db = db
        self.args = tuple(args)   # more options of stich serve (e.g. --redis URL)
        self.log_dir = Path(log_dir)
        self.env = dict(os.environ, **{**MANY_CLIENTS_ONE_ADDRESS, **(env or {})})
        self.env.setdefault("PYTHONUNBUFFERED", "1")
        self.proc: subprocess.Popen | None = None
        self.base_url: str | None = None
        self.starts = 0
        self.lines: list[str] = []
        self.left_behind: list[int] = []   # children still alive when their server ended

    # --- life cycle --------------------------------------------------------------------------
    def start(self) -> ServerProcess:
        assert self.proc is None or self.proc.poll() is not None, "already running"
        self.starts += 1   # base_url keeps the old address until the new one is known
        log = open(self.log_dir / f"server-{self.starts}.stderr", "wb")
        self.proc = subprocess.Popen(
            [STICH, "serve", "--host", "127.0.0.1", "--port", "0", "--db", self.db, *self.args],
            stdout=subprocess.PIPE, stderr=log, stdin=subprocess.DEVNULL, env=self.env,
            cwd=self.log_dir, text=True, bufsize=1,
        )
        log.close()
        ready = threading.Event()
        found: list[str] = []

        def pump(stream, lines=self.lines):   # drain stdout for the life of the process
            for line in stream:
                lines.append(line.rstrip("\n"))
                m = SERVING.search(line)
                if m and not found:
                    found.append(m.group(1).rstrip("/"))
                    ready.set()
            ready.set()

        threading.Thread(target=pump, args=(self.proc.stdout,), daemon=True).start()
        if not ready.wait(START_TIMEOUT) or not found:
            self.kill9()
            raise RuntimeError(f"stich serve did not print its address within {START_TIMEOUT}s; "
                               f"stdout: {self.lines[-20:]}; stderr: {self.stderr_tail()}")
        self.base_url = found[0]
        return self

    def kill9(self) -> list[int]:
        """SIGKILL the server; returns the pids of its children (bot workers) at that moment."""
        if self.proc is None or self.proc.poll() is not None:
            return []
        children = descendants(self.proc.pid)
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.left_behind += children
        return children

    def stop(self) -> int | None:
        """SIGTERM, then SIGKILL after 10 s; returns the exit status."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.left_behind += descendants(self.proc.pid)
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        return self.proc.returncode

    def reap_children(self, grace: float = 5.0) -> list[int]:
        """Wait up to ``grace`` seconds for the children of ended server processes to exit; SIGKILL
        those that do not (they are this test's own processes) and return their pids."""
        end = time.monotonic() + grace
        alive = [p for p in self.left_behind if pid_alive(p)]
        while alive and time.monotonic() < end:
            time.sleep(0.05)
            alive = [p for p in alive if pid_alive(p)]
        for p in alive:
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.left_behind = []
        return alive

    def restart(self) -> ServerProcess:
        self.kill9()
        return self.start()

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def ws_url(self) -> str:
        assert self.base_url
        return "ws" + self.base_url[len("http"):]

    def stderr_tail(self, n: int = 4000) -> str:
        p = self.log_dir / f"server-{self.starts}.stderr"
        try:
            return p.read_text(errors="replace")[-n:]
        except OSError:
            return ""


def descendants(pid: int) -> list[int]:
    """All processes below ``pid`` (from /proc: each process's parent)."""
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            parent[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        out += kids
        todo += kids
    return out


def pid_alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresCluster:
    """A throw-away Postgres 15 cluster run as user ``postgres`` (trust auth, 127.0.0.1, free port)."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="stich-pg-"))
        self.port = free_port()
        self.count = 0
        # Postgres refuses to run as root: as root, run it as user postgres; otherwise as ourselves
        self.as_root = os.geteuid() == 0
        (self.dir / "sock").mkdir()
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")
            shutil.chown(self.dir / "sock", "postgres", "postgres")

    def _pg(self, tool: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_root else []
        return subprocess.run([*prefix, str(PG_BIN / tool), *args],
                              capture_output=True, text=True, timeout=timeout, check=True, cwd=self.dir)

    def start(self) -> PostgresCluster:
        data = str(self.dir / "data")
        self._pg("initdb", "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync")
        self._pg("pg_ctl", "-D", data, "-o", self.options(), "-l", str(self.dir / "log"), "-w", "-t", "60", "start")
        return self

    #: the server process is what gets killed, never Postgres: its own durability is not under test
    #: (a cluster that is crashed in a test says otherwise: tests/web/test_postgres_outage.py)
    DURABILITY = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"

    def options(self) -> str:
        return (f"-p {self.port} -k {self.dir / 'sock'} -c listen_addresses=127.0.0.1 -c max_connections=200 "
                f"{self.DURABILITY}")

    def new_database(self) -> str:
        """A fresh, empty database; returns its ``postgresql://`` URL."""
        self.count += 1
        name = f"stich_{self.count}"
        self._pg("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        try:
            self._pg("pg_ctl", "-D", str(self.dir / "data"), "-m", "immediate", "-w", "stop")
        except (subprocess.SubprocessError, OSError):
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


class RedisServer:
    """A throw-away ``redis-server`` on 127.0.0.1 and a free port (no persistence)."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="stich-redis-"))
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.proc = subprocess.Popen(
            ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "", "--appendonly", "no",
             "--dir", str(self.dir), "--protected-mode", "yes"],
            stdout=open(self.dir / "log", "wb"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        end = time.monotonic() + 20
        while time.monotonic() < end:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"redis-server did not answer on port {self.port}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        shutil.rmtree(self.dir, ignore_errors=True)


def redis_available() -> bool:
    return shutil.which("redis-server") is not None


def postgres_available() -> bool:
    binaries = all((PG_BIN / t).exists() for t in ("initdb", "pg_ctl", "createdb"))
    return binaries and (os.geteuid() != 0 or shutil.which("runuser") is not None)


def wait_until(predicate, timeout: float, what: str, interval: float = 0.02):
    """Poll ``predicate`` (for process-level facts that have no event to await)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
