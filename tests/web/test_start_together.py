"""Any number of server processes may start together on one empty database (issue #35, "cluster
joints"): the schema is migrated under a database lock, so one process creates it and the others
find it made, instead of racing to create the same tables (2 of 3 exited with UniqueViolationError)."""

from __future__ import annotations

import json
import threading
import urllib.request

import pytest


@pytest.mark.timeout(120)
def test_three_processes_start_together_on_an_empty_postgres_database(server_factory, postgres):
    db = postgres.new_database()
    servers = [server_factory(db, start=False) for _ in range(3)]
    go = threading.Barrier(len(servers))
    failed: list[str] = []

    def start(srv):
        go.wait()
        try:
            srv.start()
        except RuntimeError as exc:   # it did not come up: its stderr says why
            failed.append(str(exc))

    threads = [threading.Thread(target=start, args=(srv,)) for srv in servers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(90)
    assert not failed, "\n\n".join(failed)
    for srv in servers:
        with urllib.request.urlopen(srv.base_url + "/healthz", timeout=10) as resp:
            assert json.load(resp) == {"ok": True}
