"""Clubs through the public API of a real server (docs/web-protocol.md, "Clubs"): a player makes a club,
others join through an invite link (a revoked, wrong or another club's link is refused and changes
nothing), admins promote and remove members and save presets (a preset the table parser refuses is
refused with its words), a member starts a table from a preset in one request (the starter's seat
handed out, the others taken through the club's lobby by members only), and the club's lobby, history
and leaderboard show the members' tables, matches and ratings; the pages in all four languages.
And "play again" from the people one played with: a new table like the last match together, both
seats reserved for their players, the invited one finding it among their invitations."""

from __future__ import annotations

import asyncio

import pytest

from tests.web.client import SeatClient, http_client, run
from tests.web.test_players import new_player, play_rated, pserver, refused  # noqa: F401 - the fixture

INVALID = "this invite link is not valid (revoked, or not this club's)"
#: a casual two-player Watten match of one point: the club's history in a few seconds
SHORT = {"game": "watten", "variant": "bavarian_2", "seats": ["human", "human"], "options": {"target": 1, "lock_at": 0},
         "bot_delay": 0}


async def _club(http, admin: dict) -> str:
    r = await http.post("/api/clubs", json={"name": "  Donnerstag   Watten "}, headers=admin["headers"])
    assert r.status_code == 201, r.text
    assert r.json()["name"] == "Donnerstag Watten"
    return r.json()["club"]


async def _invite(http, club: str, admin: dict) -> dict:
    r = await http.post(f"/api/clubs/{club}/invites", headers=admin["headers"])
    assert r.status_code == 201 and r.headers["cache-control"] == "no-store"
    body = r.json()
    assert body["url"] == f"/clubs/{club}/join#{body['token']}"   # in the fragment: never sent to a server
    return body


@pytest.mark.timeout(120)
def test_members_invites_and_roles(pserver):  # noqa: F811
    async def go():
        async with http_client(pserver) as http:
            anna, bert, carl = [await new_player(http) for _ in range(3)]
            http.cookies.clear()
            assert (await http.post("/api/clubs", json={"name": "x"}, headers=anna["headers"])).status_code == 400
            assert (await http.post("/api/clubs", json={"name": "Runde"})).status_code == 401
            club = await _club(http, anna)
            # an outsider sees nothing: the same 404 as an unknown club
            r = await http.get(f"/api/clubs/{club}", headers=bert["headers"])
            unknown = await http.get("/api/clubs/nope", headers=bert["headers"])
            assert r.status_code == unknown.status_code == 404 and r.json() == unknown.json()
            # joining: a wrong token, an unknown club's, then a real one
            for where, token in ((club, "x" * 32), ("nope", "x" * 32)):
                r = await http.post(f"/api/clubs/{where}/members", json={"token": token}, headers=bert["headers"])
                assert r.status_code == 403 and r.json() == {"error": INVALID}
            invite = await _invite(http, club, anna)
            r = await http.post(f"/api/clubs/{club}/members", json={"token": invite["token"]}, headers=bert["headers"])
            assert r.status_code == 200 and r.json() == {"club": club, "name": "Donnerstag Watten"}
            mine = (await http.get("/api/clubs", headers=bert["headers"])).json()["clubs"]
            assert mine == [{"club": club, "name": "Donnerstag Watten", "admin": False, "members": 2}]
            # a member is no admin: no invites, no presets, no removing others
            assert (await http.post(f"/api/clubs/{club}/invites", headers=bert["headers"])).status_code == 403
            r = await http.delete(f"/api/clubs/{club}/members/{anna['name']}", headers=bert["headers"])
            assert r.status_code == 403
            # a revoked link lets nobody in, and the club is unchanged
            assert (await http.delete(f"/api/clubs/{club}/invites/{invite['invite']}",
                                      headers=anna["headers"])).status_code == 204
            r = await http.post(f"/api/clubs/{club}/members", json={"token": invite["token"]}, headers=carl["headers"])
            assert r.status_code == 403 and r.json() == {"error": INVALID}
            show = (await http.get(f"/api/clubs/{club}", headers=anna["headers"])).json()
            assert [m["player"] for m in show["members"]] == [anna["name"], bert["name"]] and show["invites"] == []
            # roles: the last admin cannot step down; when she deletes her account, the longest-standing
            # member becomes the admin; an admin promotes and removes others
            r = await http.post(f"/api/clubs/{club}/members/{anna['name']}", json={"admin": False},
                                headers=anna["headers"])
            assert r.status_code == 409
            again = await _invite(http, club, anna)
            await http.post(f"/api/clubs/{club}/members", json={"token": again["token"]}, headers=carl["headers"])
            assert (await http.delete("/api/me", headers=anna["headers"])).status_code == 204
            show = (await http.get(f"/api/clubs/{club}", headers=bert["headers"])).json()
            assert [(m["player"], m["admin"]) for m in show["members"]] == [(bert["name"], True), (carl["name"], False)]
            assert (await http.post(f"/api/clubs/{club}/members/{carl['name'].upper()}", json={"admin": True},
                                    headers=bert["headers"])).status_code == 204
            assert (await http.delete(f"/api/clubs/{club}/members/{carl['name']}",
                                      headers=bert["headers"])).status_code == 204
            assert (await http.get(f"/api/clubs/{club}", headers=carl["headers"])).status_code == 404
            # the last member leaving ends the club
            assert (await http.delete(f"/api/clubs/{club}/members/{bert['name']}",
                                      headers=bert["headers"])).status_code == 204
            assert (await http.get("/api/clubs", headers=bert["headers"])).json() == {"clubs": []}
    run(go(), timeout=110)


@pytest.mark.timeout(180)
def test_presets_tables_history_and_leaderboard(pserver):  # noqa: F811
    async def go():
        async with http_client(pserver) as http:
            anna, bert, carl = [await new_player(http) for _ in range(3)]
            http.cookies.clear()
            club = await _club(http, anna)
            invite = await _invite(http, club, anna)
            await http.post(f"/api/clubs/{club}/members", json={"token": invite["token"]}, headers=bert["headers"])
            # a preset the table parser refuses is refused with its words, and nothing is saved
            bad = {"name": "Rated with a bot", "table": {**SHORT, "seats": ["human", "bot"], "options": {},
                                                          "rated": True}}
            r = await http.post(f"/api/clubs/{club}/presets", json=bad, headers=anna["headers"])
            assert r.status_code == 400 and "a rated table seats people only" in r.json()["error"]
            r = await http.post(f"/api/clubs/{club}/presets", json={"name": "Short", "table": SHORT},
                                headers=bert["headers"])
            assert r.status_code == 403   # not an admin
            r = await http.post(f"/api/clubs/{club}/presets", json={"name": "Short", "table": SHORT},
                                headers=anna["headers"])
            assert r.status_code == 201
            preset = r.json()["preset"]
            show = (await http.get(f"/api/clubs/{club}", headers=bert["headers"])).json()
            assert show["presets"] == [{"preset": preset, "name": "Short", "table": SHORT}]
            # one request starts a table: the starter's seat only, handed out; the table is private
            r = await http.post(f"/api/clubs/{club}/presets/{preset}/start", headers=bert["headers"])
            assert r.status_code == 201, r.text
            started = r.json()
            table = started["table"]
            assert started["seat"] == 0 and started["url"] == f"/t/{table}?token={started['token']}"
            assert (await http.post(f"/api/tables/{table}/join", json={})).status_code == 403
            assert 'id="rated-badge"' not in (await http.get(f"/t/{table}")).text   # a casual table
            [open_] = (await http.get(f"/api/clubs/{club}", headers=anna["headers"])).json()["tables"]
            assert open_["table"] == table and [s["taken"] for s in open_["seats"]] == [True, False]
            # an outsider may not take the free seat; a member does, and then it is full
            r = await http.post(f"/api/clubs/{club}/tables/{table}/join", headers=carl["headers"])
            assert r.status_code == 404
            r = await http.post(f"/api/clubs/{club}/tables/{table}/join", headers=anna["headers"])
            assert r.status_code == 201 and r.json()["seat"] == 1
            seat1 = r.json()["token"]
            r = await http.post(f"/api/clubs/{club}/tables/{table}/join", headers=anna["headers"])
            assert r.status_code == 409
        clients = [SeatClient(pserver, table, started["token"], seat=0, headers=bert["headers"], script_seed=3),
                   SeatClient(pserver, table, seat1, seat=1, headers=anna["headers"], script_seed=4)]
        await asyncio.gather(*(c.play(timeout=60) for c in clients))
        for c in clients:
            await c.close()
        # ratings from a rated match elsewhere: the club's leaderboard lists its members only
        await play_rated(pserver, "watten", "bavarian_2", [anna, carl], seed=21)
        async with http_client(pserver) as http:
            show = (await http.get(f"/api/clubs/{club}", headers=anna["headers"])).json()
            assert show["tables"] == []
            [done] = show["history"]
            assert done["table"] == table and done["rated"] is False
            assert {p["player"]: p["seat"] for p in done["players"]} == {bert["name"]: 0, anna["name"]: 1}
            assert sorted(p["result"] for p in done["players"]) == ["lost", "won"]
            board = (await http.get(f"/api/clubs/{club}/leaderboard", params={"key": "watten/2"},
                                    headers=bert["headers"])).json()
            assert [p["player"] for p in board["players"]] == [anna["name"]] and board["players"][0]["matches"] == 1
            assert (await http.get(f"/api/clubs/{club}/leaderboard", params={"key": "chess"},
                                   headers=bert["headers"])).status_code == 400
            # the bots' levels on the same scale, fixed, beside the players' leaderboard
            bots = (await http.get("/api/leaderboard", params={"key": "watten/2"})).json()["bots"]
            assert {"random", "club"} <= {b["bot"] for b in bots}
            page = (await http.get("/leaderboard", params={"key": "watten/2", "lang": "de"})).text
            assert 'data-bot="club"' in page and "Die Bots auf dieser Skala" in page
            # the profile's statistics: both finished matches of Watten for two, from the casual one and the rated one
            [stat] = (await http.get("/api/me/data", headers=anna["headers"])).json()["stats"]
            assert {k: stat[k] for k in ("game", "variant", "matches")} == {"game": "watten", "variant": "bavarian_2",
                                                                            "matches": 2}
            assert stat["share"] == stat["wins"] / 2
            profile = (await http.get(f"/players/{anna['name']}", params={"lang": "de"})).text
            assert "Statistik" in profile and 'class="bar" data-game="watten" data-variant="bavarian_2"' in profile
            # the pages: in every language, for members only
            for lang, word in (("en", "Open tables"), ("de", "Offene Tische"), ("it", "Tavoli aperti"),
                               ("fr", "Tables ouvertes")):
                page = await http.get(f"/clubs/{club}", params={"lang": lang, "key": "watten/2"},
                                      headers=anna["headers"])
                assert page.status_code == 200 and word in page.text and f'href="/replay/{table}"' in page.text
                assert 'id="new-invite"' in page.text and "<script>" not in page.text   # anna is an admin
            page = (await http.get(f"/clubs/{club}", headers=bert["headers"])).text
            assert 'id="new-invite"' not in page and f'data-start="{preset}"' in page
            assert (await http.get(f"/clubs/{club}", headers=carl["headers"])).status_code == 404
            # deleting the preset
            assert (await http.delete(f"/api/clubs/{club}/presets/{preset}",
                                      headers=anna["headers"])).status_code == 204
            assert (await http.post(f"/api/clubs/{club}/presets/{preset}/start",
                                    headers=bert["headers"])).status_code == 404
    run(go(), timeout=170)


@pytest.mark.timeout(120)
def test_play_again_reserves_both_seats(pserver):  # noqa: F811
    async def go():
        async with http_client(pserver) as http:
            anna, bert, carl = [await new_player(http) for _ in range(3)]
            http.cookies.clear()
        await play_rated(pserver, "watten", "bavarian_2", [anna, bert], seed=33)
        async with http_client(pserver) as http:
            for who, name in ((anna, carl["name"]), (anna, anna["name"]), (carl, bert["name"])):
                r = await http.post("/api/me/again", json={"player": name}, headers=who["headers"])
                assert r.status_code == 404   # never played together, or oneself
            r = await http.post("/api/me/again", json={"player": bert["name"].upper()}, headers=anna["headers"])
            assert r.status_code == 201, r.text
            made = r.json()
            table = made["table"]
            assert [s.get("player") for s in made["seats"]] == [anna["name"], bert["name"]]
            assert made["seat"] == 0 and made["url"] == made["seats"][0]["url"]
            info = (await http.get(f"/api/tables/{table}")).json()
            assert info["rated"] is True and info["variant"] == "bavarian_2"
            page = (await http.get(f"/t/{table}", params={"lang": "fr"})).text   # the table page's badge
            assert 'id="rated-badge"' in page and ">Classée</span>" in page
            # the invitation: bert's, not carl's; it gives bert a link to his own seat
            [inv] = (await http.get("/api/me/invitations", headers=bert["headers"])).json()["invitations"]
            assert inv == {"table": table, "game": "watten", "variant": "bavarian_2", "seat": 1, "rated": True,
                           "with": [anna["name"]]}
            assert (await http.get("/api/me/invitations", headers=carl["headers"])).json() == {"invitations": []}
            assert (await http.post(f"/api/me/invitations/{table}", headers=carl["headers"])).status_code == 404
            r = await http.post(f"/api/me/invitations/{table}", headers=bert["headers"])
            assert r.status_code == 201 and r.json()["seat"] == 1
            token = r.json()["token"]
            page = (await http.get("/me", headers=bert["headers"], params={"lang": "it"})).text
            assert f'data-invitation="{table}"' in page and "Tavoli che ti aspettano" in page
        # the seat is bert's from the start: carl with its link is refused, bert sits down
        code, message = await refused(SeatClient(pserver, table, token, seat=1, headers=carl["headers"]))
        assert code == 4409 and "another player" in message
        b = SeatClient(pserver, table, token, seat=1, headers=bert["headers"])
        await b.connect()
        seats = (await b.recv_until(lambda m: m.get("type") == "seats"))["seats"]
        assert [s["name"] for s in seats] == [anna["name"], bert["name"]] and seats[1]["player"] is True
        await b.close()
    run(go(), timeout=110)
