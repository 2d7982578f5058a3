"""Fixtures of the black-box web tests: real ``stich serve`` processes on real SQLite files and on a
real Postgres cluster started here from Debian's binaries (skipped only where those are absent)."""

from __future__ import annotations

import pytest

from tests.web.server import PostgresCluster, RedisServer, ServerProcess, postgres_available, redis_available


@pytest.fixture(scope="session")
def postgres():
    """A Postgres 15 cluster for the whole session (run as ``postgres``, trust auth, 127.0.0.1)."""
    if not postgres_available():
        pytest.skip("Postgres binaries (/usr/lib/postgresql/15/bin) or runuser not installed")
    cluster = PostgresCluster().start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def redis_server():
    """A redis-server for the whole session (127.0.0.1, a free port, no persistence)."""
    if not redis_available():
        pytest.skip("redis-server not installed")
    srv = RedisServer().start()
    yield srv
    srv.stop()


class _Factory:
    """Makes ServerProcesses in one directory and stops them all at the end."""

    def __init__(self, directory, request):
        self.dir = directory
        self.request = request
        self.made: list[ServerProcess] = []

    def __call__(self, db: str = "sqlite", env: dict | None = None, start: bool = True,
                 args: tuple[str, ...] = ()) -> ServerProcess:
        n = len(self.made)
        if db == "sqlite":
            db = str(self.dir / f"stich-{n}.sqlite3")
        elif db == "postgres":
            db = self.request.getfixturevalue("postgres").new_database()
        log_dir = self.dir / f"server-{n}"
        log_dir.mkdir()
        srv = ServerProcess(db, log_dir, env, args)
        self.made.append(srv)
        return srv.start() if start else srv

    def stop_all(self) -> None:
        for srv in self.made:
            srv.stop()
        for srv in self.made:
            srv.reap_children()


@pytest.fixture
def server_factory(tmp_path, request):
    """``server_factory(db="sqlite"|"postgres"|path-or-URL, env={...})`` -> a started ServerProcess.

    ``"postgres"`` gives the server a fresh database on the session's cluster.  Every server made
    here is stopped (SIGTERM, then SIGKILL) when the test ends.
    """
    factory = _Factory(tmp_path, request)
    yield factory
    factory.stop_all()


@pytest.fixture(scope="module")
def server(tmp_path_factory, request):
    """One SQLite-backed server per test module, with the test hooks enabled (``STICH_TEST_HOOKS=1``);
    tests on it use their own tables only (a server start costs seconds on this machine)."""
    factory = _Factory(tmp_path_factory.mktemp("server"), request)
    srv = factory("sqlite", env={"STICH_TEST_HOOKS": "1"})
    yield srv
    factory.stop_all()
