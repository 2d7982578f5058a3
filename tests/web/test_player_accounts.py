"""A player's account through the public API: a password (argon2id) and one-time codes to sign in on
another device, sign-in limits per name and per address, errors that do not tell whether a name
exists, signing out, renaming, the data download and deleting the account (its seats in old records
become anonymous, the records still replay)."""

from __future__ import annotations

import httpx
import pytest

import stich
from tests.web.client import run
from tests.web.test_players import fresh_name, new_player, play_rated, pserver  # noqa: F401 - the fixture

REFUSED = "the name and the password or code do not match"


def _client(srv) -> httpx.AsyncClient:
    # a new connection per request: a kept-alive one that sat idle for the server's 5 s keep-alive
    # while another client's password hashes ran was closed under the next request (a client's race)
    return httpx.AsyncClient(base_url=srv.base_url, timeout=30.0, limits=httpx.Limits(max_keepalive_connections=0))


def test_password_and_one_time_code(pserver):  # noqa: F811
    async def go():
        async with _client(pserver) as first:
            me = await new_player(first)
            name = me["name"]
            # a password: too short refused; set; changing it needs the current one
            r = await first.post("/api/me/password", json={"password": "short"})
            assert r.status_code == 400
            assert (await first.post("/api/me/password", json={"password": "correct horse"})).status_code == 204
            assert (await first.post("/api/me/password", json={"password": "another one"})).status_code == 403
            assert (await first.get("/api/me")).json()["password"] is True
            # another device: the password signs in; a wrong one and an unknown name read the same
            async with _client(pserver) as second:
                assert (await second.get("/api/me")).status_code == 401
                wrong = await second.post("/api/players/signin", json={"name": name, "password": "wrong password"})
                nobody = await second.post("/api/players/signin", json={"name": fresh_name("ghost"),
                                                                         "password": "wrong password"})
                assert wrong.status_code == nobody.status_code == 401
                assert wrong.json() == nobody.json() == {"error": REFUSED}
                r = await second.post("/api/players/signin", json={"name": name.upper(), "password": "correct horse"})
                assert r.status_code == 200 and r.json() == {"player": name}
                assert "HttpOnly" in r.headers["set-cookie"]
                assert (await second.get("/api/me")).json()["player"] == name
                # signing out ends that session only
                assert (await second.post("/api/me/signout")).status_code == 204
                assert (await second.get("/api/me")).status_code == 401
            assert (await first.get("/api/me")).status_code == 200
            # a one-time code: shown to a signed-in device, works once
            assert (await httpx.AsyncClient(base_url=pserver.base_url).post("/api/me/code")).status_code == 401
            r = await first.post("/api/me/code")
            assert r.status_code == 201 and r.headers["cache-control"] == "no-store"
            code = r.json()["code"]
            assert len(code) == 9 and r.json()["expires_in"] == 300
            async with _client(pserver) as third:
                r = await third.post("/api/players/signin", json={"name": name, "code": code.lower()})
                assert r.status_code == 200 and (await third.get("/api/me")).json()["player"] == name
            async with _client(pserver) as fourth:
                r = await fourth.post("/api/players/signin", json={"name": name, "code": code})
                assert r.status_code == 401 and r.json() == {"error": REFUSED}
            # another player's code does not sign in as this one
            other = await new_player(first)
            r = await first.post("/api/me/code", headers=other["headers"])
            async with _client(pserver) as fifth:
                r = await fifth.post("/api/players/signin", json={"name": name, "code": r.json()["code"]})
                assert r.status_code == 401
    run(go(), timeout=60)


def test_sign_in_attempts_are_limited(pserver):  # noqa: F811
    async def go():
        async with _client(pserver) as http:
            me = await new_player(http)
            await http.post("/api/me/password", json={"password": "the right one"})
            for _ in range(10):
                r = await http.post("/api/players/signin", json={"name": me["name"], "password": "not the one"})
                assert r.status_code == 401
            # the name is locked for a while: even the right password waits (nothing to learn from it)
            r = await http.post("/api/players/signin", json={"name": me["name"], "password": "the right one"})
            assert r.status_code == 429 and int(r.headers["retry-after"]) > 0
            # an unknown name is locked the same way
            ghost = fresh_name("ghost")
            for _ in range(10):
                await http.post("/api/players/signin", json={"name": ghost, "password": "not the one"})
            r = await http.post("/api/players/signin", json={"name": ghost, "password": "not the one"})
            assert r.status_code == 429
            # per address: 30 failures over any names, then this address waits (each name here is new,
            # so only the address's count can refuse it)
            for _ in range(31):
                r = await http.post("/api/players/signin", json={"name": fresh_name("any"), "password": "nope nope"})
                if r.status_code != 401:
                    break
            assert r.status_code == 429, r.text
    run(go(), timeout=120)


@pytest.mark.timeout(120)
def test_rename_download_and_delete(pserver):  # noqa: F811
    async def go():
        async with _client(pserver) as http:
            players = [await new_player(http) for _ in range(2)]
            table, _returns = await play_rated(pserver, "watten", "bavarian_2", players, seed=5)
            anna = players[0]
            new_name = fresh_name("Renamed")
            r = await http.post("/api/me/name", json={"name": new_name}, headers=anna["headers"])
            assert r.status_code == 200 and r.json() == {"player": new_name}
            assert (await http.get(f"/api/players/{anna['name']}")).status_code == 404
            assert (await http.get(f"/api/players/{new_name}")).json()["matches"][0]["table"] == table
            r = await http.post("/api/me/name", json={"name": fresh_name()}, headers=anna["headers"])
            assert r.status_code == 429      # once in 30 days
            r = await http.post("/api/me/name", json={"name": players[1]["name"].upper()},
                                headers=players[1]["headers"])
            assert r.status_code == 409 or r.status_code == 200   # its own name in another case is its own
            # all her data
            r = await http.get("/api/me/data", headers=anna["headers"])
            assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
            data = r.json()
            assert data["player"] == new_name and data["matches"][0]["table"] == table
            assert "watten/2" in data["ratings"] and "token" not in r.text and "hash" not in r.text
            # delete: the account, its history and ratings go; the record's seat becomes anonymous
            assert (await http.delete("/api/me", headers=anna["headers"])).status_code == 204
            assert (await http.get(f"/api/players/{new_name}")).status_code == 404
            assert (await http.get("/api/me", headers=anna["headers"])).status_code == 401
            record = (await http.get(f"/api/tables/{table}/record")).json()
            assert record["web"]["seats"][0]["name"] is None and record["web"]["seats"][0]["player"] is False
            assert record["web"]["seats"][1]["name"] == players[1]["name"]
            assert stich.replay(record).is_terminal()
            board = (await http.get("/api/leaderboard", params={"key": "watten/2"})).json()
            assert new_name not in [p["player"] for p in board["players"]]
            # the name is free again
            r = await http.post("/api/players", json={"name": new_name})
            assert r.status_code == 201
    run(go(), timeout=110)


@pytest.mark.timeout(120)
def test_people_you_play_with(pserver):  # noqa: F811
    """Two matches of Anna with Bert, one with Cilli (the latest): /api/me/people lists Cilli first, then
    Bert with two matches; /me links each to their profile and to the matches played together."""
    async def go():
        async with _client(pserver) as http:
            anna, bert, cilli = [await new_player(http) for _ in range(3)]
            r = await http.get("/api/me/people", headers=anna["headers"])
            assert r.status_code == 200 and r.json() == {"people": []}
            await play_rated(pserver, "watten", "bavarian_2", [anna, bert], seed=31)
            await play_rated(pserver, "watten", "bavarian_2", [bert, anna], seed=32)
            await play_rated(pserver, "watten", "bavarian_2", [anna, cilli], seed=33)
            people = (await http.get("/api/me/people", headers=anna["headers"])).json()["people"]
            assert [(p["player"], p["matches"]) for p in people] == [(cilli["name"], 1), (bert["name"], 2)]
            page = (await http.get("/me", headers=anna["headers"])).text
            assert f'href="/players/{anna["name"]}?with={bert["name"]}"' in page
            assert f'href="/players/{cilli["name"]}"' in page
    run(go(), timeout=110)
