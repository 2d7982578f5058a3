"""Players, seats bound to players, rated tables and ratings, through the public API of a real server.

- ``POST /api/players``: 201 with a bearer token and an HttpOnly SameSite=Lax session cookie, 409 for a
  name taken in any case, 400 for a bad name; the token acts as the player on the API and the socket.
- A seat's first connection with a player's credential makes it that player's: the seat list shows the
  name, another player or a guest with the seat's token is refused (4409); a rated table refuses a
  guest (4402) and accepts only human seats with the standard options.
- Whole rated matches of every game over the socket move the winners' ratings up and the losers' down
  (and places in order in Biscambiggia and Barbu); the profile's history and the leaderboard say so.
"""

from __future__ import annotations

import asyncio
import itertools
import random

import pytest
from websockets.exceptions import ConnectionClosed

import stich
from tests.web.client import SeatClient, get_record, http_client, run
from tests.web.conftest import _Factory
from tests.web.test_matches import BARBU_LATE

_names = itertools.count(1)
RUN = random.Random().randrange(10**6)


def fresh_name(prefix: str = "p") -> str:
    return f"{prefix}{RUN}x{next(_names)}"


@pytest.fixture(scope="module")
def pserver(tmp_path_factory, request):
    """A server with test hooks (late positions make matches short) and leaderboards from one match."""
    factory = _Factory(tmp_path_factory.mktemp("players"), request)
    srv = factory("sqlite", env={"STICH_TEST_HOOKS": "1", "STICH_LEADERBOARD_MATCHES": "1"})
    yield srv
    factory.stop_all()


async def new_player(http, name: str | None = None) -> dict:
    name = name or fresh_name()
    r = await http.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["player"] == name and len(body["token"]) >= 40
    return {"name": name, "token": body["token"], "headers": {"Authorization": f"Bearer {body['token']}"}}


async def refused(client: SeatClient) -> tuple[int, str]:
    """Connect and expect an error frame, then the close: (close code, the error's message)."""
    await client.connect()
    msg = await client.recv(10)
    assert msg["type"] == "error", msg
    with pytest.raises(ConnectionClosed) as closed:
        await client.recv(10)
    return closed.value.rcvd.code, msg["message"]


def test_becoming_a_player(pserver):
    async def go():
        async with http_client(pserver) as http:
            name = fresh_name("Anna")
            r = await http.post("/api/players", json={"name": name})
            assert r.status_code == 201, r.text
            cookie = r.headers["set-cookie"]
            assert "stich_session=" in cookie and "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
            assert "Secure" not in cookie    # plain http here; https (or the proxy's word) makes it Secure
            token = r.json()["token"]
            assert token not in cookie        # the cookie is a credential of its own
            # the same name in another case, another Unicode form: taken
            for other in (name.upper(), name.lower(), "\uff21" + name[1:]):   # full-width A
                r = await http.post("/api/players", json={"name": other})
                assert r.status_code == 409, (other, r.text)
            for bad in ("", "x", "a" * 25, "two words", "<b>", "-dash", 7, None):
                r = await http.post("/api/players", json={"name": bad})
                assert r.status_code == 400, (bad, r.text)
            r = await http.post("/api/players", json={"name": fresh_name(), "extra": 1})
            assert r.status_code == 400
            # the token acts as the player; a forged one is refused; the cookie does too
            r = await http.get("/api/me", headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 200 and r.json() == {"player": name, "password": False}
            r = await http.get("/api/me", headers={"Authorization": "Bearer " + "x" * 43})
            assert r.status_code == 401
            r = await http.get("/api/me")   # httpx kept the cookie
            assert r.status_code == 200 and r.json()["player"] == name
            r = await http.get(f"/api/players/{name.upper()}")
            assert r.status_code == 200 and r.json() == {"player": name, "ratings": {}, "matches": []}
            assert (await http.get("/api/players/nobody-at-all")).status_code == 404
            r = await http.get("/api/leaderboard", params={"key": "chess"})
            assert r.status_code == 400
    run(go(), timeout=30)


def test_rated_tables_seat_players_only(pserver):
    async def go():
        async with http_client(pserver) as http:
            for body, why in [
                ({"game": "watten", "variant": "bavarian_4", "rated": True,
                  "seats": ["human", "human", "human", "bot"]}, "human"),
                ({"game": "watten", "variant": "bavarian_4", "rated": True, "options": {"target": 5},
                  "seats": ["human"] * 4}, "standard options"),
                ({"game": "watten", "variant": "bavarian_4", "rated": "yes", "seats": ["human"] * 4}, "true or false"),
            ]:
                r = await http.post("/api/tables", json=body)
                assert r.status_code == 400 and why in r.json()["error"], r.text
            r = await http.post("/api/tables", json={"game": "watten", "variant": "bavarian_4", "rated": True,
                                                     "seats": ["human"] * 4})
            assert r.status_code == 201, r.text
            t = r.json()
            assert (await http.get(f"/api/tables/{t['table']}")).json()["rated"] is True
            tok = [s["token"] for s in t["seats"]]
            anna, bert = await new_player(http), await new_player(http)
        # a guest with the seat's token: refused, with its own close code
        code, message = await refused(SeatClient(pserver, t["table"], tok[0], seat=0))
        assert code == 4402 and "rated" in message
        # a wrong bearer token: refused too
        code, _ = await refused(SeatClient(pserver, t["table"], tok[0], seat=0,
                                           headers={"Authorization": "Bearer nonsense"}))
        assert code == 4402
        # Anna's first connection makes the seat hers; the seat list shows her name
        a = SeatClient(pserver, t["table"], tok[0], seat=0, headers=anna["headers"])
        await a.connect()
        seats = await a.recv_until(lambda m: m.get("type") == "seats")
        assert seats["seats"][0]["name"] == anna["name"] and seats["seats"][0]["player"] is True
        # Bert with Anna's seat token: the seat is hers for the whole match
        code, message = await refused(SeatClient(pserver, t["table"], tok[0], seat=0, headers=bert["headers"]))
        assert code == 4409 and "another player" in message
        # Anna cannot take a second seat of a rated table
        code, message = await refused(SeatClient(pserver, t["table"], tok[1], seat=1, headers=anna["headers"]))
        assert code == 4409 and "seat 1" in message
        # a player's seat keeps the player's name
        await a.send({"type": "name", "name": "Someone else"})
        err = await a.recv_until(lambda m: m.get("type") == "error")
        assert "player's name" in err["message"]
        await a.close()
        # after she left, she comes back with the same credential
        again = SeatClient(pserver, t["table"], tok[0], seat=0, headers=anna["headers"])
        await again.connect()
        assert (await again.recv_until(lambda m: m.get("type") == "seats"))["seats"][0]["name"] == anna["name"]
        await again.close()
    run(go(), timeout=30)


def test_casual_table_binds_a_players_seat_too(pserver):
    """At a casual table a player's first connection binds the seat as well; a guest who opened a seat
    first keeps it a guest's seat."""
    async def go():
        async with http_client(pserver) as http:
            r = await http.post("/api/tables", json={"game": "watten", "variant": "bavarian_2",
                                                     "seats": ["human", "human"]})
            t = r.json()
            anna = await new_player(http)
        tok = [s["token"] for s in t["seats"]]
        guest = SeatClient(pserver, t["table"], tok[1], seat=1)
        await guest.connect()
        await guest.recv_until(lambda m: m.get("type") == "state")
        a = SeatClient(pserver, t["table"], tok[0], seat=0, headers=anna["headers"])
        await a.connect()
        await a.recv_until(lambda m: m.get("type") == "state")
        await a.close()
        # the guest's seat: a player coming later with its token does not take it over
        b = SeatClient(pserver, t["table"], tok[1], seat=1, headers=anna["headers"])
        await b.connect()
        info = await b.recv_until(lambda m: m.get("type") == "seats")
        assert info["seats"][1]["player"] is False and info["seats"][0]["name"] == anna["name"]
        await b.close()
        # a guest with the player's seat token is refused
        code, _ = await refused(SeatClient(pserver, t["table"], tok[0], seat=0))
        assert code == 4409
        await guest.close()
    run(go(), timeout=30)


# --- whole rated matches ---------------------------------------------------------------------------------
def _bisc_late() -> dict:
    """A Biscambiggia match at its tenth (last) hand, the cards of a real deal."""
    g = stich.game("biscambiggia")
    state = g.new_state(seed=11)
    pos = state.position()
    return {"position": {"hands": pos["hands"], "dealer": pos.get("dealer", 0), "hand": 10,
                         "scores": [3, -1, 0, -2, 0]}}


LATE = {
    ("watten", "euregio"): {"scores": [17, 17]},
    ("watten", "bavarian_3"): {"scores": [10, 10, 10]},
    ("watten", "bavarian_2"): {"scores": [10, 10]},
    ("battn", None): {"scores": [20, 20], "x_team": 0},
    ("barbu", None): BARBU_LATE,
}


async def play_rated(srv, game: str, variant: str | None, players: list[dict], seed: int) -> tuple[str, list]:
    """A rated table of ``game`` played to its end by ``players`` (one per seat): (table, returns)."""
    setup = _bisc_late() if game == "biscambiggia" else LATE[(game, variant)]
    body = {"game": game, "rated": True, "seats": ["human"] * len(players), "bot_delay": 0,
            "test": {"seed": seed, "setup": setup}}
    if variant:
        body["variant"] = variant
    async with http_client(srv) as http:
        r = await http.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        t = r.json()
        clients = [SeatClient(srv, t["table"], s["token"], seat=s["seat"], headers=p["headers"], script_seed=seed)
                   for s, p in zip(t["seats"], players, strict=True)]
        await asyncio.gather(*(c.play(timeout=90) for c in clients))
        for c in clients:
            await c.close()
        record = await get_record(http, t["table"])
    state = stich.replay(record)
    assert state.is_terminal()
    assert [s["name"] for s in record["web"]["seats"]] == [p["name"] for p in players]
    return t["table"], state.returns()


GAMES = [("watten", "euregio", 4, "watten/4"), ("watten", "bavarian_3", 3, "watten/3"),
         ("watten", "bavarian_2", 2, "watten/2"), ("battn", None, 4, "battn"),
         ("biscambiggia", None, 5, "biscambiggia"), ("barbu", None, 4, "barbu")]


@pytest.mark.timeout(240)
@pytest.mark.parametrize("game,variant,n,key", GAMES, ids=[g[3].replace("/", "") for g in GAMES])
def test_ratings_move_the_right_way(pserver, game, variant, n, key):
    async def go():
        async with http_client(pserver) as http:
            players = [await new_player(http) for _ in range(n)]
        table, returns = await play_rated(pserver, game, variant, players, seed=1000 + n)
        async with http_client(pserver) as http:
            profiles = [(await http.get(f"/api/players/{p['name']}")).json() for p in players]
            board = (await http.get("/api/leaderboard", params={"key": key})).json()
            # the match's figures were counted and stored with its history, for every game
            figures = (await http.get("/api/me/data", headers=players[-1]["headers"])).json()["figures"]
            assert [(f["game"], f["counted"]) for f in figures] == [(game, 1)] and figures[0]["totals"]["hands"] >= 1
        placed = game in ("biscambiggia", "barbu")
        for seat, (prof, ret) in enumerate(zip(profiles, returns, strict=True)):
            [m] = prof["matches"]
            assert {k: m[k] for k in ("table", "game", "variant", "seat", "rated")} == {
                "table": table, "game": game, "variant": m["variant"], "seat": seat, "rated": True}
            assert isinstance(m["finished"], float)
            r = prof["ratings"][key]
            assert r["matches"] == 1 and r["deviation"] < 350
            assert m["before"] == 1500 and m["after"] == r["rating"]
            if placed:
                assert m["result"] == 1 + sum(1 for other in returns if other > ret)
            else:
                assert m["result"] == ("won" if ret > 0 else "lost")
        ratings = [p["ratings"][key]["rating"] for p in profiles]
        if placed:   # a better place never rates lower; first place rises, last falls
            order = sorted(range(n), key=lambda s: -returns[s])
            assert all(ratings[a] >= ratings[b] for a, b in itertools.pairwise(order)
                       if returns[a] > returns[b])
            assert ratings[order[0]] > 1500 > ratings[order[-1]]
        else:
            for seat in range(n):
                assert (ratings[seat] > 1500) == (returns[seat] > 0), (returns, ratings)
        # the leaderboard: these players, best first
        listed = [p for p in board["players"] if p["player"] in {q["name"] for q in players}]
        assert len(listed) == n and board["key"] == key
        values = [p["rating"] for p in board["players"]]
        assert values == sorted(values, reverse=True)
    run(go(), timeout=230)


@pytest.mark.timeout(120)
def test_profile_and_leaderboard_pages(pserver):
    """The pages read the same facts: the profile's rating, its change and graph (an SVG drawn by the
    server), the match with its replay link and opponent; the leaderboard; /me offers the form to
    become a player, and shows the player's name once the cookie is there; in all four languages."""
    async def go():
        async with http_client(pserver) as http:
            players = [await new_player(http) for _ in range(2)]
        table, returns = await play_rated(pserver, "watten", "bavarian_2", players, seed=21)
        anna, bert = players
        async with http_client(pserver) as http:
            profile = (await http.get(f"/api/players/{anna['name']}")).json()
            m = profile["matches"][0]
            html = (await http.get(f"/players/{anna['name']}", params={"lang": "de"})).text
            assert '<html lang="de">' in html and "Wertungen" in html
            assert f'data-table="{table}"' in html and f'href="/replay/{table}"' in html
            assert f'href="/players/{bert["name"]}"' in html
            change = round(m["after"] - m["before"])
            assert f'data-change="{change}"' in html and (change > 0) == (returns[0] > 0)
            assert "<svg" in html and "<polyline" in html and 'role="img"' in html and "<script>" not in html
            # the figures, stored with the match: anna's raises and hands as the record's actions and
            # results tell them; on her data download and on the profile (a table and a chart), in German
            record = await get_record(http, table)
            [watten] = (await http.get("/api/me/data", headers=anna["headers"])).json()["figures"]
            hands = sum(1 for ev in record["events"] if ev["type"] == "hand_result")
            raises = sum(1 for seat, text in record["actions"] if seat == 0 and text == "raise")
            assert {k: watten[k] for k in ("game", "matches", "counted")} == {"game": "watten", "matches": 1,
                                                                            "counted": 1}
            assert (watten["totals"]["hands"], watten["totals"]["raises"]) == (hands, raises)
            final = [ev["scores"] for ev in record["events"] if ev["type"] == "scores"][-1]
            assert watten["totals"]["points"] == final[0] - 10   # the setup starts at 10 each
            assert "Zahlen je Kartenspiel" in html and "Als Ansager gewonnene Spiele" in html
            assert '<tr data-key="raises"><th scope="row">Erhöhungen</th>' in html
            assert f'<td data-total="{hands}">{hands}</td>' in html and 'class="bar" data-key="won"' in html
            assert "figures" not in profile   # the API's fixed shape
            # the filters: by game, by a name played with
            assert f'data-table="{table}"' not in (await http.get(f"/players/{anna['name']}",
                                                                 params={"game": "barbu"})).text
            assert f'data-table="{table}"' in (await http.get(f"/players/{anna['name']}",
                                                             params={"with": bert["name"].upper()})).text
            for lang, word in (("en", "Leaderboard"), ("de", "Rangliste"), ("it", "Classifica"), ("fr", "Classement")):
                page = await http.get("/leaderboard", params={"key": "watten/2", "lang": lang})
                assert page.status_code == 200 and word in page.text and anna["name"] in page.text
            assert (await http.get("/leaderboard", params={"key": "chess"})).status_code == 404
            assert (await http.get("/players/nobody-here")).status_code == 404
        async with http_client(pserver) as guest:
            page = (await guest.get("/me")).text
            assert 'id="become"' in page and 'src="/static/players.js' in page
            await guest.post("/api/players", json={"name": fresh_name("Me")})
            page = (await guest.get("/me")).text
            assert 'id="signed-in"' in page and 'id="show-code"' in page
    run(go(), timeout=110)


def test_a_cookie_from_another_sites_page_does_not_count(pserver):
    """The session cookie identifies requests and sockets of this site's own pages only: another site's
    page sending it is refused at the socket (4401, the origin check) and is nobody on the API."""
    async def go():
        async with http_client(pserver) as http:
            r = await http.post("/api/players", json={"name": fresh_name("C")})
            session = r.cookies["stich_session"]
            r = await http.post("/api/tables", json={"game": "watten", "variant": "bavarian_2", "rated": True,
                                                     "seats": ["human", "human"]})
            t = r.json()
        tok = [s["token"] for s in t["seats"]]
        evil = {"Cookie": f"stich_session={session}", "Origin": "http://evil.example"}
        code, _ = await refused(SeatClient(pserver, t["table"], tok[0], seat=0, headers=evil))
        assert code == 4401
        async with http_client(pserver) as bare:
            assert (await bare.get("/api/me", headers=evil)).status_code == 401
            own = {"Cookie": f"stich_session={session}", "Origin": pserver.base_url}
            assert (await bare.get("/api/me", headers=own)).status_code == 200
        c = SeatClient(pserver, t["table"], tok[0], seat=0, headers=own)
        await c.connect()
        assert (await c.recv_until(lambda m: m.get("type") == "seats"))["seats"][0]["player"] is True
        await c.close()
    run(go(), timeout=30)
