"""Seats that stay alive, quick play and the lobby, through the public API only.

- A human who leaves is replaced by the seat's bot after the table's grace period (marked
  ``bot_playing`` in the ``seats`` message), gets the seat back on returning, and the match ends
  with a record that replays and holds every action the human got acknowledged.
- ``grace: "never"``: nobody moves for an absent human.
- Quick play seats the caller with bots at once; the lobby lists public tables with a free seat;
  joining claims one, and 409 when none is left.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.web.checks import check_frames, replay_ok, seat_actions
from tests.web.client import SeatClient, create_table, get_record, http_client, run

WATTEN = {"target": 5, "lock_at": 3}


def _seat_info(client: SeatClient, seat: int) -> dict | None:
    for m in reversed(client.frames):
        if m.get("type") == "seats":
            return m["seats"][seat]
    return None


@pytest.mark.timeout(60)
def test_bot_takes_over_after_the_grace_period_and_hands_back(server):
    async def go():
        async with http_client(server) as http:
            r = await http.post("/api/tables", json={
                "game": "watten", "variant": "euregio", "options": WATTEN, "grace": 0.3, "bot_delay": 0.05,
                "seats": ["human", "bot:random", "bot:random", "bot:random"]})
            assert r.status_code == 201, r.text
            t = r.json()
            token = t["seats"][0]["token"]
            watch = SeatClient(server, t["table"], None)
            await watch.connect()
            anna = SeatClient(server, t["table"], token, seat=0)
            await anna.connect()
            await anna.recv_until(lambda m: m.get("type") == "state", 10)
            # she plays a few actions, then leaves
            while len(anna.acked) < 2:
                action = anna._choose()
                if action is not None:
                    await anna.act(action)
                await anna.recv(10)
            seq_left = anna.seq
            await anna.close()
            # the bot takes her seat and the table moves on without her
            await watch.recv_until(lambda m: m.get("type") == "seats" and m["seats"][0]["bot_playing"], 10)
            await watch.recv_until(lambda m: m.get("type") == "state" and m["seq"] > seq_left + 3, 10)
            # she returns: the seat is hers again, she is asked to act and her actions are acknowledged
            back = SeatClient(server, t["table"], token, seat=0, script_seed=1)
            await back.connect()
            await back.recv_until(lambda m: m.get("type") == "seats" and not m["seats"][0]["bot_playing"], 10)
            await back.play(timeout=40)
            await watch.follow(timeout=20)
            record = await get_record(http, t["table"])
            await back.close()
            await watch.close()
        return record, anna, back

    record, anna, back = run(go(), timeout=55)
    replay_ok(record)
    mine = seat_actions(record, 0)
    acked = anna.acked + back.acked
    # every acknowledged action is in the record, in order; the bot's moves for her seat come between
    it = iter(mine)
    assert all(any(a == b for b in it) for a in acked), (acked, mine)
    assert len(mine) > len(acked), "the bot never moved for the absent seat"
    assert back.acked, "the returning human was never asked to act again"
    check_frames(record, back)


@pytest.mark.timeout(30)
def test_grace_never_keeps_the_seat_waiting(server):
    async def go():
        async with http_client(server) as http:
            r = await http.post("/api/tables", json={
                "game": "watten", "variant": "euregio", "options": WATTEN, "grace": "never",
                "seats": ["human", "human", "human", "human"]})
            assert r.status_code == 201, r.text
            t = r.json()
            clients = [SeatClient(server, t["table"], s["token"], seat=s["seat"]) for s in t["seats"]]
            for c in clients:
                await c.connect()
                await c.recv_until(lambda m: m.get("type") == "state", 10)
            mover = clients[clients[0].state["view"]["current_player"]]
            seq = mover.seq
            await mover.close()
            watch = SeatClient(server, t["table"], None)
            await watch.connect()
            await watch.recv_until(lambda m: m.get("type") == "state", 10)
            # nothing may move for a whole second (an event would be a frame; none may come)
            try:
                await watch.recv_until(lambda m: m.get("type") == "state" and m["seq"] > seq, 1.0)
            except TimeoutError:
                pass
            else:
                raise AssertionError("a bot moved for an absent human although grace is 'never'")
            info = _seat_info(watch, mover.seat)
            assert info is not None and not info["connected"] and not info["bot_playing"], info
            for c in clients + [watch]:
                await c.close()

    run(go(), timeout=25)


@pytest.mark.timeout(60)
def test_quickplay_seats_the_caller_with_bots(server):
    async def go():
        async with http_client(server) as http:
            r = await http.post("/api/quickplay", json={"game": "biscambiggia", "name": "Anna", "bot": "random",
                                                        "options": {"hands_per_match": 1}})
            assert r.status_code == 201, r.text
            q = r.json()
            assert q["seat"] == 0 and q["url"] == f"/t/{q['table']}?token={q['token']}"
            anna = SeatClient(server, q["table"], q["token"], seat=0)
            await anna.play(timeout=45)
            names = _seat_info(anna, 0)
            record = await get_record(http, q["table"])
            await anna.close()
        return record, anna, names

    record, anna, names = run(go(), timeout=55)
    replay_ok(record)
    assert record["game"] == "biscambiggia"
    assert seat_actions(record, 0) == anna.acked
    assert names["name"] == "Anna"
    assert {a[0] for a in record["actions"]} == set(range(5))   # the four bots played too


@pytest.mark.timeout(30)
def test_lobby_lists_public_tables_and_join_claims_free_seats(server):
    async def go():
        async with http_client(server) as http:
            private = await create_table(http, "watten", "euregio", ["human", "human", "bot:random", "bot:random"],
                                         WATTEN, public=False)
            public = await create_table(http, "watten", "euregio", ["human", "human", "bot:random", "bot:random"],
                                        WATTEN, public=True)
            lobby = (await http.get("/api/lobby")).json()["tables"]
            ids = {t["table"] for t in lobby}
            assert public["table"] in ids and private["table"] not in ids
            entry = next(t for t in lobby if t["table"] == public["table"])
            assert entry["game"] == "watten" and entry["variant"] == "euregio"
            assert [s["kind"] for s in entry["seats"]] == ["human", "human", "bot", "bot"]
            assert "token" not in str(entry)
            for tok in (s["token"] for s in public["seats"] if s.get("token")):
                assert tok not in str(lobby)
            joined = []
            for name in ("Anna", "Bert"):
                r = await http.post(f"/api/tables/{public['table']}/join", json={"name": name})
                assert r.status_code == 201, r.text
                joined.append(r.json())
            assert sorted(j["seat"] for j in joined) == [0, 1]
            r = await http.post(f"/api/tables/{public['table']}/join", json={"name": "Carl"})
            assert r.status_code == 409, r.text
            r = await http.post(f"/api/tables/{private['table']}/join", json={"name": "Dora"})
            assert r.status_code in (403, 404, 409), r.text
            lobby = (await http.get("/api/lobby")).json()["tables"]
            assert public["table"] not in {t["table"] for t in lobby}     # full now
            # the joined tokens play the seats
            clients = [SeatClient(server, public["table"], j["token"], seat=j["seat"]) for j in joined]
            await asyncio.gather(*(c.play(timeout=20) for c in clients))
            record = await get_record(http, public["table"])
            for c in clients:
                await c.close()
        replay_ok(record)
        for c in clients:
            assert seat_actions(record, c.seat) == c.acked

    run(go(), timeout=28)


@pytest.mark.timeout(30)
def test_turn_timer_lets_the_bot_move_for_a_seat_that_waits(server):
    async def go():
        async with http_client(server) as http:
            r = await http.post("/api/tables", json={
                "game": "watten", "variant": "euregio", "options": WATTEN, "timer": 1,
                "seats": ["human", "human", "human", "human"]})
            assert r.status_code == 201, r.text
            t = r.json()
            clients = [SeatClient(server, t["table"], s["token"], seat=s["seat"]) for s in t["seats"]]
            for c in clients:
                await c.connect()
                await c.recv_until(lambda m: m.get("type") == "state", 10)
            # the frame of the last to arrive: a table that waits for its people (the default start,
            # "when_full") runs no timer for a seat whose person has not come yet
            first = clients[-1].state
            mover = first["view"]["current_player"]
            assert first.get("clock", {}).get("seat") == mover, first.get("clock")
            # nobody acts: within a few seconds the mover's bot has moved, and nobody got an ack
            moved = await clients[-1].recv_until(lambda m: m.get("type") == "state" and m["seq"] > first["seq"], 8)
            assert moved["view"]["actions"] and moved["view"]["actions"][-1][0] == mover
            assert not any(c.acked for c in clients)
            for c in clients:
                await c.close()

    run(go(), timeout=25)
