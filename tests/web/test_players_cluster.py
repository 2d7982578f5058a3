"""Players in a cluster (two processes, Postgres, Redis): a rated table made on one process, each
player's seat connected through a different process (the replica binds its seat through the
database, the owner learns it), the match played to its end: both players have it once, their
ratings moved the right way, the seat list on both processes shows both names, another player is
refused on the replica too, and the rematch of a rated table is rated."""

from __future__ import annotations

import asyncio

import pytest

from tests.web.client import SeatClient, http_client, run
from tests.web.test_players import LATE, new_player, refused


@pytest.mark.timeout(150)
def test_rated_match_across_two_processes(server_factory, redis_server, postgres):
    db = postgres.new_database()
    args = ("--redis", redis_server.url, "--bot-workers", "0")
    env = {"STICH_LEASE_SECONDS": "60", "STICH_TEST_HOOKS": "1"}
    a, b = (server_factory(db, env=env, args=args) for _ in range(2))

    async def go():
        async with http_client(a) as http:   # a makes the table: a owns it
            players = [await new_player(http) for _ in range(2)]
            intruder = await new_player(http)
            r = await http.post("/api/tables", json={
                "game": "watten", "variant": "bavarian_2", "rated": True, "seats": ["human", "human"],
                "test": {"seed": 9, "setup": LATE[("watten", "bavarian_2")]}})
            assert r.status_code == 201, r.text
            t = r.json()
        clients = [SeatClient(srv, t["table"], s["token"], seat=s["seat"], headers=p["headers"])
                   for srv, s, p in zip((a, b), t["seats"], players, strict=True)]
        for c in clients:
            await c.connect()
        names = [p["name"] for p in players]
        for c in clients:   # each process's connections see both players' names
            await c.recv_until(lambda m: m.get("type") == "seats" and [s["name"] for s in m["seats"]] == names, 15)
        # the seat bound through b (a replica) is refused to another player on either process
        for srv in (a, b):
            code, _ = await refused(SeatClient(srv, t["table"], t["seats"][1]["token"], seat=1,
                                               headers=intruder["headers"]))
            assert code == 4409
        await asyncio.gather(*(c.play(timeout=90) for c in clients))
        for c in clients:
            await c.close()
        async with http_client(b) as http:
            profiles = []
            for p in players:   # the history row is written by the owner's commit; read through b
                for _ in range(100):
                    prof = (await http.get(f"/api/players/{p['name']}")).json()
                    if prof["matches"]:
                        break
                    await asyncio.sleep(0.05)
                profiles.append(prof)
            results = [prof["matches"][0]["result"] for prof in profiles]
            assert sorted(results) == ["lost", "won"], profiles
            for prof in profiles:
                assert len(prof["matches"]) == 1 and prof["ratings"]["watten/2"]["matches"] == 1
                assert (prof["ratings"]["watten/2"]["rating"] > 1500) == (prof["matches"][0]["result"] == "won")
            r = await http.post(f"/api/tables/{t['table']}/rematch", json={"token": t["seats"][0]["token"]})
            assert r.status_code == 201, r.text
            assert (await http.get(f"/api/tables/{r.json()['table']}")).json()["rated"] is True

    run(go(), timeout=140)
