"""kill -9 in the middle of a rating update: the transaction that stores a rated match's last action
also writes its history and ratings; the server is killed after those rows are written and before
the commit (a test hook holds the transaction open), restarted on the same database, and the clients
finish on their own (the last action is resent with its id).  Every player then has the match once
and a rating moved once, equal to the one computed from the record; a further restart changes nothing."""

from __future__ import annotations

import asyncio
import time

import pytest
from openskill.models import PlackettLuce

import stich
from tests.web.client import SeatClient, get_record, http_client, run
from tests.web.test_players import fresh_name, new_player

PAUSED = "rating update paused before its commit"


async def wait_for_line(srv, text: str, timeout: float) -> None:
    end = time.monotonic() + timeout
    while text not in srv.stderr_tail(200_000):
        if time.monotonic() > end:
            raise AssertionError(f"no {text!r} within {timeout}s; stderr: {srv.stderr_tail(2000)}")
        await asyncio.sleep(0.02)


@pytest.mark.timeout(180)
def test_kill9_during_the_rating_update(server_factory):
    srv = server_factory("sqlite", env={"STICH_TEST_HOOKS": "1", "STICH_TEST_RATING_PAUSE": "2",
                                        "STICH_LEADERBOARD_MATCHES": "1"})

    async def go():
        async with http_client(srv) as http:
            players = [await new_player(http, fresh_name("k")) for _ in range(4)]
            r = await http.post("/api/tables", json={
                "game": "watten", "variant": "euregio", "rated": True, "seats": ["human"] * 4,
                "test": {"seed": 77, "setup": {"scores": [17, 17]}}})
            assert r.status_code == 201, r.text
            t = r.json()
        clients = [SeatClient(srv, t["table"], s["token"], seat=s["seat"], headers=p["headers"], script_seed=3)
                   for s, p in zip(t["seats"], players, strict=True)]
        playing = asyncio.ensure_future(asyncio.gather(*(c.play(timeout=120) for c in clients)))
        await wait_for_line(srv, PAUSED, 90)
        srv.kill9()          # written, not committed: the match is not over in the database
        srv.start()          # the clients reconnect and resend the last action; its commit pauses again
        await wait_for_line(srv, PAUSED, 90)   # the new process ends the match: the first end was not kept
        await playing
        for c in clients:
            await c.close()
        async with http_client(srv) as http:
            record = await get_record(http, t["table"])
            profiles = [(await http.get(f"/api/players/{p['name']}")).json() for p in players]
        returns = stich.replay(record).returns()
        # the record holds every action once (the resent last action too)
        assert len(record["actions"]) == len(stich.replay(record).history)
        # each player: the match once, the rating moved once, as the record says it should
        model = PlackettLuce()
        won = 0 if returns[0] > 0 else 1
        teams = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
        new = model.rate(teams, ranks=[1, 2])
        for seat, prof in enumerate(profiles):
            assert len(prof["matches"]) == 1 and prof["matches"][0]["table"] == t["table"], prof
            r = prof["ratings"]["watten/4"]
            assert r["matches"] == 1
            mu = new[0 if seat % 2 == won else 1][0].mu
            assert r["rating"] == pytest.approx(1500 + 42 * (mu - 25), abs=0.1)
        return t["table"], profiles

    table, before = run(go(), timeout=170)
    srv.kill9()
    srv.start()

    async def again():
        async with http_client(srv) as http:
            return [(await http.get(f"/api/players/{p['player']}")).json() for p in before]

    assert run(again(), timeout=30) == before
