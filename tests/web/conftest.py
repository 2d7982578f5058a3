"""Fixtures of the black-box web tests: real ``stich serve`` processes on real SQLite files and on a
real Postgres cluster started here from Debian's binaries (skipped only where those are absent)."""

from __future__ import annotations

import pytest

from tests.web.server import PostgresCluster, ServerProcess, postgres_available


@pytest.fixture(scope="session")
def postgres():
    """A Postgres 15 cluster for the whole session (run as ``postgres``, trust auth, 127.0.0.1)."""
    if not postgres_available():
        pytest.skip("Postgres binaries (/usr/lib/postgresql/15/bin) or runuser not installed")
    cluster = PostgresCluster().start()
    yield cluster
    cluster.stop()


@pytest.fixture
def server_factory(tmp_path, request):
    """``server_factory(db="sqlite"|"postgres"|path-or-URL, env={...})`` -> a started ServerProcess.

    ``"postgres"`` gives the server a fresh database on the session's cluster.  Every server made
    here is stopped (SIGTERM, then SIGKILL) when the test ends.
    """
    made: list[ServerProcess] = []

    def make(db: str = "sqlite", env: dict | None = None, start: bool = True) -> ServerProcess:
        if db == "sqlite":
            db = str(tmp_path / f"stich-{len(made)}.sqlite3")
        elif db == "postgres":
            db = request.getfixturevalue("postgres").new_database()
        log_dir = tmp_path / f"server-{len(made)}"
        log_dir.mkdir()
        srv = ServerProcess(db, log_dir, env)
        made.append(srv)
        return srv.start() if start else srv

    yield make
    for srv in made:
        srv.stop()


@pytest.fixture
def server(server_factory):
    """One SQLite-backed server with the test hooks enabled (``STICH_TEST_HOOKS=1``)."""
    return server_factory("sqlite", env={"STICH_TEST_HOOKS": "1"})
