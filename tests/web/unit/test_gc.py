"""The server's own full garbage collection (``STICH_GC_SECONDS``): it runs on its schedule in a
real ``stich serve`` process, frees the reference cycles that closed sockets leave, and is
visible in ``/metrics``; a bad setting is one clear line before anything starts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from tests.web.unit.test_metrics import SHORT, scrape, val


def test_collects_on_its_schedule_and_frees_closed_sockets(serve):
    srv = serve(env={"STICH_GC_SECONDS": "0.3"})
    status, t = srv.post("/api/tables", {**SHORT, "seats": ["human", "bot:random"], "grace": "never"})
    assert status == 201
    # Sockets that open, see the table and close: each leaves cycles only a full collection frees.
    for _ in range(6):
        ws = srv.socket(t["table"])
        ws.until(lambda m: m["type"] == "state")
        ws.close()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        _, values = scrape(srv)
        if val(values, "stich_gc_full_collection_seconds_count") >= 3:
            break
        time.sleep(0.2)
    assert val(values, "stich_gc_full_collection_seconds_count") >= 3
    assert val(values, "stich_gc_full_collection_seconds_sum") > 0
    lines = [json.loads(x) for x in srv.stderr_path.read_text().splitlines()
             if '"full garbage collection"' in x]
    assert lines, "no log line for the collections"
    assert all(x["seconds"] >= 0 for x in lines)
    assert sum(x["freed"] for x in lines) > 0   # the closed sockets' cycles were found and freed


def test_a_bad_setting_is_one_clear_line(tmp_path):
    for bad, words in (("soon", "must be a number of seconds"), ("0", "between 0.1 and 3600")):
        r = subprocess.run([sys.executable, "-m", "stich.cli.main", "serve", "--port", "0",
                            "--db", str(tmp_path / "x.sqlite3")],
                           env={**os.environ, "STICH_GC_SECONDS": bad},
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 2, r.stderr
        assert words in r.stderr and "STICH_GC_SECONDS" in r.stderr
        assert "Traceback" not in r.stderr
        assert not (tmp_path / "x.sqlite3").exists()   # nothing started
