"""A friends' evening, through the public API only (real server processes, real sockets, real SQLite):

- ``POST /api/tables/{id}/rematch`` with a seat's token: 409 while the match runs, 403 for a token of
  no seat, then 201 with the new table, the same again (200) from any seat, asked at once or after a
  server restart; the new table has the old one's game, variant, options, settings, seat kinds, bots
  and names, and every old seat's token is the same seat there; the old table's socket offers it.
- ``"start": "when_full"`` (the default): no bot and no turn timer plays a seat nobody has opened,
  for far longer than the grace; ``{"type": "start"}`` from a seated person lets the bots in; a seat's
  grace counts only after its person has been there, with a countdown in the ``seats`` message.
- ``"start": "now"``: the bots take the unopened seats after the grace, as before.
"""

from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.web.client import SeatClient, http_client, run

WATTEN = {"target": 5, "lock_at": 3}
SHORT = {"game": "watten", "variant": "bavarian_2", "options": {"target": 3, "lock_at": 2}}


def _seats(client: SeatClient) -> list[dict] | None:
    for m in reversed(client.frames):
        if m.get("type") == "seats":
            return m["seats"]
    return None


async def _finish(server, created: dict, names: dict[int, str] | None = None) -> None:
    """Every human seat plays (random legal actions) until the match is over."""
    clients = [SeatClient(server, created["table"], s["token"], seat=s["seat"], name=(names or {}).get(s["seat"]))
               for s in created["seats"] if s.get("token")]
    for c in clients:
        await c.connect()   # sends its name first, when it has one
    await asyncio.gather(*(c.play(timeout=80) for c in clients))
    for c in clients:
        await c.close()


async def _seat_at(server, table: str, token: str) -> int | None:
    c = SeatClient(server, table, token)
    await c.connect()
    first = await c.recv_until(lambda m: m.get("type") == "state", 10)
    await c.close()
    return first["seat"]


@pytest.mark.timeout(170)
def test_rematch_same_seats_settings_and_tokens_and_it_survives_a_restart(server_factory):
    srv = server_factory("sqlite")
    body = {"game": "watten", "variant": "bavarian_4", "options": WATTEN,
            "seats": ["human", "bot:random", "human", "bot:heuristic"], "grace": 30, "timer": "relaxed",
            "signals": "on", "bot_delay": 0.0, "start": "when_full"}

    async def before_restart():
        async with http_client(srv) as http:
            r = await http.post("/api/tables", json=body)
            assert r.status_code == 201, r.text
            t = r.json()
            old, tokens = t["table"], {s["seat"]: s["token"] for s in t["seats"] if s.get("token")}
            # bad requests change nothing: no token, a token of no seat, a running match
            r = await http.post(f"/api/tables/{old}/rematch", json={})
            assert r.status_code == 400 and "token" in r.json()["error"]
            r = await http.post(f"/api/tables/{old}/rematch", json={"token": "not-a-seat"})
            assert r.status_code == 403 and r.json()["error"] == "this token is not a seat of this table"
            r = await http.post(f"/api/tables/{old}/rematch", json={"token": tokens[0]})
            assert r.status_code == 409 and "not over" in r.json()["error"]
            r = await http.post("/api/tables/nosuchtable/rematch", json={"token": tokens[0]})
            assert r.status_code == 404
            await _finish(srv, t, names={0: "Anna", 2: "Carla"})
            watch = SeatClient(srv, old, None)
            await watch.connect()
            await watch.recv_until(lambda m: m.get("type") == "state" and m["finished"], 10)
            assert "rematch" not in watch.state
            r = await http.post(f"/api/tables/{old}/rematch", json={"token": tokens[0]})
            assert r.status_code == 201, r.text
            new = r.json()["table"]
            assert new != old
            # the other seat asks too: the same table, 200
            r = await http.post(f"/api/tables/{old}/rematch", json={"token": tokens[2]})
            assert (r.status_code, r.json()) == (200, {"table": new})
            # the old table's socket offers it to everybody, spectators included
            frame = await watch.recv_until(lambda m: m.get("type") == "state" and m.get("rematch"), 10)
            assert frame["rematch"] == new
            await watch.close()
            was, now = (await http.get(f"/api/tables/{old}")).json(), (await http.get(f"/api/tables/{new}")).json()
            assert was["rematch"] == new and now["rematch"] is None and not now["finished"] and now["seq"] == 0
            for key in ("game", "variant", "options", "settings", "public"):
                assert now[key] == was[key], key
            assert now["settings"]["start"] == "when_full" and now["settings"]["signals"] == "on"
            assert [(s["kind"], s.get("bot"), s["name"]) for s in now["seats"]] == \
                [(s["kind"], s.get("bot"), s["name"]) for s in was["seats"]]
            assert [s["name"] for s in now["seats"]][::2] == ["Anna", "Carla"]
            # each old token is the same seat at the new table
            for seat, token in tokens.items():
                assert await _seat_at(srv, new, token) == seat
        return old, new, tokens

    old, new, tokens = run(before_restart(), timeout=150)
    srv.restart()

    async def after_restart():
        async with http_client(srv) as http:
            r = await http.post(f"/api/tables/{old}/rematch", json={"token": tokens[2]})
            assert (r.status_code, r.json()) == (200, {"table": new})
            watch = SeatClient(srv, old, None)
            await watch.connect()
            frame = await watch.recv_until(lambda m: m.get("type") == "state", 10)
            assert frame["rematch"] == new
            await watch.close()
            for seat, token in tokens.items():
                assert await _seat_at(srv, new, token) == seat

    run(after_restart(), timeout=15)


@pytest.mark.timeout(120)
def test_rematch_asked_by_every_seat_at_once_makes_one_table(server):
    async def go():
        async with http_client(server) as http:
            r = await http.post("/api/tables", json={**SHORT, "seats": ["human", "human"]})
            t = r.json()
            await _finish(server, t)
            tokens = [s["token"] for s in t["seats"]] * 3   # six requests, two seats, all at once
            async with httpx.AsyncClient(base_url=server.base_url, timeout=20.0) as a, \
                    httpx.AsyncClient(base_url=server.base_url, timeout=20.0) as b:
                answers = await asyncio.gather(*((a if i % 2 else b).post(
                    f"/api/tables/{t['table']}/rematch", json={"token": tok}) for i, tok in enumerate(tokens)))
            codes = sorted(r.status_code for r in answers)
            assert codes == [200] * 5 + [201], [(r.status_code, r.text) for r in answers]
            assert len({r.json()["table"] for r in answers}) == 1

    run(go(), timeout=110)


@pytest.mark.timeout(60)
def test_when_full_waits_for_the_unopened_seat_until_start(server):
    async def go():
        async with http_client(server) as http:
            # a short grace and a one-second turn timer: neither may move seat 0, whose link nobody opened
            r = await http.post("/api/tables", json={**SHORT, "seats": ["human", "human"], "grace": 0.3, "timer": 1})
            assert r.status_code == 201, r.text
            t = r.json()
            meta = (await http.get(f"/api/tables/{t['table']}")).json()
            assert meta["settings"]["start"] == "when_full"
            # seat 1 comes and does nothing: its own turns are taken by the timer, seat 0's wait
            bea = SeatClient(server, t["table"], t["seats"][1]["token"], seat=1, act=False)
            await bea.connect()
            await bea.recv_until(lambda m: m.get("type") == "state" and m["view"]["current_player"] == 0, 20)
            seats = _seats(bea)
            assert seats[0]["waiting"] is True and seats[0]["bot_playing"] is False and seats[0]["grace"] is None
            assert seats[1]["waiting"] is False
            assert "clock" not in bea.state, "a turn timer runs for a seat nobody opened"
            seq = bea.seq
            # ten times the grace and three turn timers: nothing moves
            with pytest.raises(TimeoutError):
                await bea.recv_until(lambda m: m.get("type") == "state" and m["seq"] > seq
                                     or m.get("type") == "seats" and m["seats"][0]["bot_playing"], 3.0)
            # a spectator cannot start it
            watch = SeatClient(server, t["table"], None)
            await watch.connect()
            await watch.send({"type": "start"})
            err = await watch.recv_until(lambda m: m.get("type") == "error", 10)
            assert "spectators" in err["message"]
            # the seated person starts it: seat 0's bot plays, and the match moves on
            await bea.send({"type": "start"})
            seats = (await bea.recv_until(lambda m: m.get("type") == "seats" and m["seats"][0]["bot_playing"], 10))
            assert seats["seats"][0]["waiting"] is False
            await bea.recv_until(lambda m: m.get("type") == "state" and m["seq"] > seq, 20)
            # the late person gets the seat back at once
            anna = SeatClient(server, t["table"], t["seats"][0]["token"], seat=0, act=False)
            await anna.connect()
            await anna.recv_until(lambda m: m.get("type") == "seats" and not m["seats"][0]["bot_playing"]
                                  and m["seats"][0]["connected"], 10)
            for c in (anna, bea, watch):
                await c.close()

    run(go(), timeout=55)


@pytest.mark.timeout(60)
def test_grace_counts_after_presence_with_a_countdown(server):
    async def go():
        async with http_client(server) as http:
            r = await http.post("/api/tables", json={**SHORT, "seats": ["human", "human"], "grace": 1.5})
            t = r.json()
            watch = SeatClient(server, t["table"], None)
            await watch.connect()
            anna = SeatClient(server, t["table"], t["seats"][0]["token"], seat=0, act=False)
            await anna.connect()
            await anna.recv_until(lambda m: m.get("type") == "state", 10)
            await anna.close()
            # she has been there and left: a countdown, then her bot
            counting = await watch.recv_until(lambda m: m.get("type") == "seats" and m["seats"][0]["grace"], 10)
            assert 0 < counting["seats"][0]["grace"] <= 1.5 and not counting["seats"][0]["bot_playing"]
            await watch.recv_until(lambda m: m.get("type") == "seats" and m["seats"][0]["bot_playing"], 10)
            # seat 1 never came: still waiting, no bot, no countdown
            assert _seats(watch)[1] == {**_seats(watch)[1], "waiting": True, "bot_playing": False, "grace": None}
            await watch.close()

    run(go(), timeout=55)


@pytest.mark.timeout(60)
def test_start_now_keeps_the_bots_taking_unopened_seats(server):
    async def go():
        async with http_client(server) as http:
            r = await http.post("/api/tables", json={**SHORT, "seats": ["human", "human"], "grace": 0.3,
                                                     "start": "now"})
            t = r.json()
            watch = SeatClient(server, t["table"], None)
            await watch.connect()
            await watch.recv_until(lambda m: m.get("type") == "seats" and all(s["bot_playing"] for s in m["seats"]),
                                   20)
            assert not any(s["waiting"] for s in _seats(watch))
            await watch.recv_until(lambda m: m.get("type") == "state" and m["seq"] >= 2, 20)
            await watch.close()
            r = await http.post("/api/tables", json={**SHORT, "start": "later"})
            assert r.status_code == 400 and r.json()["error"] == "'start' is one of when_full, now, not 'later'"
            r = await http.post("/api/quickplay", json={"game": "watten", "variant": "bavarian_2"})
            meta = (await http.get(f"/api/tables/{r.json()['table']}")).json()
            assert meta["settings"]["start"] == "now"   # one person with bots: nobody to wait for

    run(go(), timeout=55)


@pytest.mark.timeout(150)
def test_in_a_cluster_start_is_the_owners_and_a_rematch_asked_on_two_processes_is_one(
        server_factory, redis_server, postgres):
    db = postgres.new_database()
    args = ("--redis", redis_server.url, "--bot-workers", "0")
    a, b = (server_factory(db, env={"STICH_LEASE_SECONDS": "60"}, args=args) for _ in range(2))

    async def go():
        async with http_client(a) as http:   # a makes the tables: a owns them
            r = await http.post("/api/tables", json={**SHORT, "seats": ["human", "human"], "grace": 0.3})
            waiting = r.json()
            r = await http.post("/api/tables", json={**SHORT, "seats": ["human", "human"]})
            played = r.json()
        # "start" from a connection on b, the replica: the owner decides, b's client sees its seats
        bea = SeatClient(b, waiting["table"], waiting["seats"][1]["token"], seat=1, act=False)
        await bea.connect()
        await bea.recv_until(lambda m: m.get("type") == "seats" and m["seats"][0]["waiting"], 15)
        await bea.send({"type": "start"})
        await bea.recv_until(lambda m: m.get("type") == "seats" and m["seats"][0]["bot_playing"]
                             and not m["seats"][0]["waiting"], 15)
        await bea.close()
        # a match played with one seat on each process; spectators of it on both
        clients = [SeatClient(srv, played["table"], s["token"], seat=s["seat"])
                   for srv, s in zip((a, b), played["seats"], strict=True)]
        for c in clients:
            await c.connect()
        await asyncio.gather(*(c.play(timeout=80) for c in clients))
        watchers = [SeatClient(srv, played["table"], None) for srv in (a, b)]
        for w in watchers:
            await w.connect()
            await w.recv_until(lambda m: m.get("type") == "state" and m["finished"], 10)
        async with http_client(a) as ha, http_client(b) as hb:
            answers = await asyncio.gather(*(h.post(f"/api/tables/{played['table']}/rematch",
                                                    json={"token": s["token"]})
                                             for h, s in zip((ha, hb), played["seats"], strict=True)))
        assert sorted(r.status_code for r in answers) == [200, 201], [r.text for r in answers]
        new = {r.json()["table"] for r in answers}
        assert len(new) == 1
        new = new.pop()
        for w in watchers:   # every process's pages of the old table offer it
            frame = await w.recv_until(lambda m: m.get("type") == "state" and m.get("rematch"), 10)
            assert frame["rematch"] == new
            await w.close()
        for srv, s in zip((b, a), played["seats"], strict=True):
            assert await _seat_at(srv, new, s["token"]) == s["seat"]
        for c in clients:
            await c.close()

    run(go(), timeout=140)
