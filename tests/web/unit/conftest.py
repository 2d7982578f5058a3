"""Fixtures of the server's own tests: real server processes, SQLite files and a real Postgres."""

from __future__ import annotations

import pytest

from tests.web.unit.harness import Postgres, Served, postgres_available


@pytest.fixture
def serve(tmp_path):
    """``serve(db=None, env=None)`` -> a started server (SQLite file in tmp_path unless ``db``)."""
    made = []

    def make(db: str | None = None, env: dict | None = None) -> Served:
        s = Served(db or str(tmp_path / f"t{len(made)}.sqlite3"), tmp_path, env).start()
        made.append(s)
        return s

    yield make
    for s in made:
        s.stop()


@pytest.fixture(scope="module")
def pg():
    if not postgres_available():
        pytest.skip("Postgres binaries (/usr/lib/postgresql/15/bin) or runuser (as root) are missing")
    cluster = Postgres().start()
    yield cluster
    cluster.stop()
