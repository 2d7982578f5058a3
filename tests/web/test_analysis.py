"""A finished match's analysis over the API (issue #38): ``POST /api/tables/{ID}/analysis`` then
``GET ...?seat=K`` through a real server, the same JSON as ``stich analyse --json``, 409 before the
end, clear refusals, the rate per address, and the stored result served by a restarted server."""

from __future__ import annotations

import asyncio
import json
import subprocess
import time

from tests.web.client import create_table, get_record, http_client, run
from tests.web.server import STICH

WORLDS = "3"   # a small analysis budget: the numbers are not the point here, their equality is
ENV = {"STICH_ANALYSIS_WORLDS": WORLDS, "STICH_ANALYSES_PER_ADDRESS": "7/minute"}
SHORT = {"target": 3, "lock_at": 1}


async def _finished(http) -> tuple[str, dict]:
    created = await create_table(http, "watten", "euregio", seats=["bot:random"] * 4, options=SHORT)
    return created["table"], await get_record(http, created["table"], timeout=30)


async def _until_done(http, table: str, seat: int, timeout: float = 60) -> tuple[dict, list[float]]:
    seen, end = [], time.monotonic() + timeout
    while True:
        r = await http.get(f"/api/tables/{table}/analysis", params={"seat": seat})
        assert r.status_code == 200, r.text
        body = r.json()
        assert set(body) == {"seat", "status", "progress", "decisions"} and body["status"] in (
            "queued", "running", "done")
        seen.append(body["progress"])
        if body["status"] == "done":
            return body, seen
        assert time.monotonic() < end, body
        await asyncio.sleep(0.05)


def test_analysis_over_the_api_is_the_terminals(server_factory, tmp_path):
    srv = server_factory("sqlite", env=ENV)

    async def scenario():
        async with http_client(srv) as http:
            # before the end: a table whose human seat never came is not over
            waiting = await create_table(http, "watten", "euregio", seats=["human", "bot:random", "bot:random",
                                                                           "bot:random"], options=SHORT)
            r = await http.post(f"/api/tables/{waiting['table']}/analysis", json={"seat": 1})
            assert r.status_code == 409 and "not over" in r.json()["error"]
            table, record = await _finished(http)
            for body, status, words in (({"seat": 4}, 400, "0 to 3"), ({"seat": "x"}, 400, "0 to 3"),
                                        ({"seat": 1, "more": 2}, 400, '{"seat": K}')):
                r = await http.post(f"/api/tables/{table}/analysis", json=body)
                assert r.status_code == status and words in r.json()["error"], (body, r.text)
            r = await http.post("/api/tables/nosuchtable/analysis", json={"seat": 0})
            assert r.status_code == 404
            r = await http.get(f"/api/tables/{table}/analysis", params={"seat": 2})
            assert r.status_code == 404 and "POST" in r.json()["error"]
            r = await http.post(f"/api/tables/{table}/analysis", json={"seat": 1})
            assert r.status_code == 202 and r.json()["status"] in ("queued", "running", "done")
            done, seen = await _until_done(http, table, 1)
            assert seen == sorted(seen) and done["progress"] == 1.0
            # stored: asked again, it is done at once and nothing is computed
            r = await http.post(f"/api/tables/{table}/analysis", json={"seat": 1})
            assert r.status_code == 202 and r.json() == {"status": "done", "progress": 1.0}
            # the eighth request of the minute from this address is one too many
            r = await http.post(f"/api/tables/{table}/analysis", json={"seat": 1})
            assert r.status_code == 429 and "analyses" in r.json()["error"] and r.headers["retry-after"]
            return table, record, done

    table, record, done = run(scenario(), timeout=120)
    mine = [i for i, (who, _t) in enumerate(record["actions"]) if who == 1]
    assert done["seat"] == 1 and done["decisions"]
    assert {d["step"] for d in done["decisions"]} <= set(mine)
    for d in done["decisions"]:
        assert d["mark"] in ("good", "inaccuracy", "mistake", "blunder")
        assert d["alternatives"][0]["action"] == d["best"] and d["action"] in {a["action"] for a in d["alternatives"]}
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    out = subprocess.run([STICH, "analyse", str(path), "--seat", "2", "--worlds", WORLDS, "--json"],
                         capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(out.stdout) == done

    srv.stop()   # the result is in the database: a new process serves it without a pool step
    srv.start()

    async def again():
        async with http_client(srv) as http:
            r = await http.get(f"/api/tables/{table}/analysis", params={"seat": 1})
            return r.status_code, r.json()

    assert run(again()) == (200, done)
