"""Security over the public contract: seat tokens act only for their seat; forged and other tables'
tokens are refused; spectators cannot act; oversized and malformed messages get an error frame and
change nothing; names and chat are escaped in HTML frames; the record and the seed stay hidden until
the match is over; bad table requests get a clear 400."""

from __future__ import annotations

import asyncio
import json
from html import escape as html_escape
from html import unescape as html_unescape

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

import stich
from tests.web.checks import check_acks_in_record, replay_ok
from tests.web.client import SeatClient, create_table, get_record, http_client, run, seat_clients

WATTEN = ("watten", "euregio", {"target": 3, "lock_at": 1})
ALL_HUMAN = ["human"] * 4


async def _table(http, seats=ALL_HUMAN, game=WATTEN):
    g, v, o = game
    return await create_table(http, g, v, seats, o)


async def _first_state(client: SeatClient, timeout=10.0) -> dict:
    return await client.recv_until(lambda m: m.get("type") in ("state", "html"), timeout)


async def _answer(client: SeatClient, aid: str, timeout=10.0) -> dict:
    """The server's answer (ack or error) to the message with this id."""
    return await client.recv_until(lambda m: m.get("type") in ("ack", "error") and m.get("id") == aid, timeout)


async def _quiet(client: SeatClient, timeout=10.0) -> list[dict]:
    """Ping and wait for the pong: the frames that came before it (our message's answers)."""
    start = len(client.frames)
    await client.send({"type": "ping"})
    await client.recv_until(lambda m: m.get("type") == "pong", timeout)
    return client.frames[start:]


def _flip(token: str) -> str:
    return token[:-1] + ("A" if token[-1] != "A" else "B")


async def _refused(url: str) -> str:
    """A connection with a bad token is refused: at the handshake (4xx) or by an error frame and a
    close, and never with a seat's state.  Returns how it was refused."""
    try:
        ws = await websockets.connect(url, open_timeout=5)
    except InvalidStatus as exc:
        assert 400 <= exc.response.status_code < 500, exc.response.status_code
        return f"http {exc.response.status_code}"
    try:
        frames = []
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), 5)
            except ConnectionClosed:
                break
            msg = json.loads(raw)
            frames.append(msg)
            assert msg.get("type") not in ("state", "html"), f"a bad token got a state frame: {raw[:300]}"
        assert any(m.get("type") == "error" for m in frames), frames
        return "error frame and close"
    finally:
        await ws.close()


@pytest.mark.timeout(60)
def test_tokens_act_only_for_their_own_seat(server):
    async def go():
        async with http_client(server) as http:
            a = await _table(http)
            b = await _table(http)
            # every human seat has its own unguessable token; the urls have the agreed shapes
            tokens = [s["token"] for s in a["seats"]] + [s["token"] for s in b["seats"]]
            assert len(set(tokens)) == 8 and all(len(t) >= 16 for t in tokens)
            for s in a["seats"]:
                assert s["url"] == f"/t/{a['table']}?token={s['token']}"
            assert a["watch"] == f"/t/{a['table']}"

            ws = server.ws_url
            how = [await _refused(f"{ws}/ws/tables/{a['table']}?token=forged-{'x' * 30}&format=json"),
                   await _refused(f"{ws}/ws/tables/{a['table']}?token={b['seats'][0]['token']}&format=json"),
                   # a real token with one character changed
                   await _refused(f"{ws}/ws/tables/{a['table']}?token={_flip(a['seats'][1]['token'])}&format=json")]
            clients = seat_clients(server, a)
            for c in clients:
                await c.connect()
                await _first_state(c)
            to_act = clients[0].state["view"]["current_player"]
            mover = clients[to_act]
            other = clients[(to_act + 1) % 4]
            legal = mover.state["legal"]
            before = mover.state
            # another seat's token sends the mover's action, bare and with the mover's seat prefix
            for text in (legal[0], f"{to_act + 1}: {legal[0]}"):
                start = len(other.frames)
                aid = await other.act(text)
                answer = await _answer(other, aid)
                assert answer["type"] == "error" and answer["message"], answer
                frames = other.frames[start:] + await _quiet(other)
                assert not any(m.get("type") == "ack" for m in frames)
                other.pending = None
            # nothing changed: the mover still sees the same seq, view and legal actions
            frames = await _quiet(mover)
            assert not [m for m in frames if m.get("type") == "state" and m["seq"] > before["seq"]]
            # now let them all play it out: the record holds only the acknowledged actions
            other.acted_seq = None
            await asyncio.gather(*(c.play(timeout=40) for c in clients))
            record = await get_record(http, a["table"])
            for c in clients:
                await c.close()
        replay_ok(record)
        check_acks_in_record(record, clients)
        return how

    how = run(go(), timeout=55)
    assert len(how) == 3


@pytest.mark.timeout(60)
def test_spectator_cannot_act_and_bad_messages_change_nothing(server):
    async def go():
        async with http_client(server) as http:
            t = await _table(http)
            clients = seat_clients(server, t)
            for c in clients:
                await c.connect()
                await _first_state(c)
            spectator = SeatClient(server, t["table"], None)
            await spectator.connect()
            first = await _first_state(spectator)
            assert first.get("seat") is None and first["legal"] == []
            to_act = first["view"]["current_player"]
            mover = clients[to_act]
            legal = mover.state["legal"]
            seq0 = mover.state["seq"]

            # a spectator's action is refused
            spectator.sent["spy-1"] = legal[0]
            await spectator.send({"type": "act", "id": "spy-1", "action": legal[0]})
            answer = await _answer(spectator, "spy-1")
            assert answer["type"] == "error" and answer["message"], answer

            # malformed and oversized messages from the seat to act: an error frame each, no change
            bad = [
                "{not json",
                "[1, 2, 3]",
                '"act"',
                json.dumps({"type": "act", "action": legal[0]}),                  # no id
                json.dumps({"type": "act", "id": 5, "action": 7}),                # wrong types
                json.dumps({"type": "act", "id": "m-1"}),                         # no action
                json.dumps({"type": "act", "id": "m-2", "action": "play XX9"}),   # no such card
                json.dumps({"type": "act", "id": "m-3", "action": "fly away"}),   # no such verb
                json.dumps({"type": "no-such-type"}),
                json.dumps({"type": "resync", "seq": "many"}),
                json.dumps({"type": "act", "id": "big", "action": "play " + "E" * 300_000}),   # oversized
                json.dumps({"type": "chat", "text": "x" * 300_000}),                          # oversized
            ]
            for raw in bad:
                start = len(mover.frames)
                try:
                    await mover.send(raw)
                    await mover.recv_until(lambda m: m.get("type") == "error", 10)
                    frames = mover.frames[start:] + await _quiet(mover)
                except ConnectionClosed as exc:
                    raise AssertionError(f"the server closed the socket on a bad message instead of "
                                         f"answering with an error frame: {raw[:80]!r}: {exc}") from None
                errors = [m for m in frames if m.get("type") == "error"]
                assert len(errors) == 1 and errors[0].get("message"), (raw[:80], frames)
                assert not [m for m in frames if m.get("type") == "ack"], (raw[:80], frames)
                assert not [m for m in frames if m.get("type") == "state" and m["seq"] != seq0], (raw[:80], frames)
            # an illegal but well-formed action: the engine's specific reason, with our id
            state = stich.game("watten", "euregio", target=3, lock_at=1)
            hand = mover.state["view"]["hand"]
            not_mine = next(c for c in state.deck.codes if c not in hand)
            aid = await mover.act(f"play {not_mine}")
            answer = await _answer(mover, aid)
            assert answer["type"] == "error" and not_mine in answer["message"], answer
            mover.pending = None
            mover.acted_seq = None
            # still the same table state for everybody
            fresh = SeatClient(server, t["table"], None)
            await fresh.connect()
            again = await _first_state(fresh)
            assert again["view"] == first["view"]
            for c in (spectator, fresh):
                await c.close()
            await asyncio.gather(*(c.play(timeout=40) for c in clients))
            record = await get_record(http, t["table"])
            for c in clients:
                await c.close()
        replay_ok(record)
        check_acks_in_record(record, clients)

    run(go(), timeout=55)


XSS_NAME = '<script>alert("name")</script>'
XSS_CHAT = '<img src=x onerror=alert(1)>&"\''


@pytest.mark.timeout(60)
def test_names_and_chat_are_escaped_in_html_frames(server):
    async def go():
        async with http_client(server) as http:
            t = await _table(http)
            token = t["seats"][0]["token"]
            anna = SeatClient(server, t["table"], token, seat=0, name=XSS_NAME)
            await anna.connect()                      # sends the name right after connecting
            await _first_state(anna)
            await anna.send({"type": "chat", "text": XSS_CHAT})
            chat = await anna.recv_until(lambda m: m.get("type") == "chat", 10)
            # JSON carries the text as written, or HTML-escaped (never half-escaped)
            assert chat["text"] in (XSS_CHAT, html_escape(XSS_CHAT)), chat
            watchers = []
            for seat, tok in ((0, token), (1, t["seats"][1]["token"]), (None, None)):
                w = SeatClient(server, t["table"], tok, seat=seat, fmt="html", lang="en")
                await w.connect()
                watchers.append((w, await w.recv_until(lambda m: m.get("type") == "html", 10)))
            for w, frame in watchers:
                html = frame["html"]
                assert "<script>alert" not in html and "<img src=x" not in html, html[:2000]
                if w.seat != 0:   # seat 0 itself is shown as "You"
                    assert XSS_NAME in html_unescape(html), "the display name is not shown in the table html"
                assert frame["seq"] >= 0 and isinstance(frame["legal"], list)
                await w.close()
            await anna.close()

    run(go(), timeout=55)


@pytest.mark.timeout(60)
def test_record_is_403_until_the_end_and_404_for_no_table(server):
    async def go():
        async with http_client(server) as http:
            t = await _table(http, seats=["human", "bot:random", "human", "bot:random"])
            r = await http.get(f"/api/tables/{t['table']}/record")
            assert r.status_code == 403, r.text
            assert "seed" not in r.text
            r = await http.get("/api/tables/no-such-table/record")
            assert r.status_code == 404, r.text
            clients = seat_clients(server, t)
            await asyncio.gather(*(c.play(timeout=40) for c in clients))
            record = await get_record(http, t["table"])
            for c in clients:
                await c.close()
        replay_ok(record)
        seed = str(record["seed"])
        for c in clients:
            for raw, msg in zip(c.raw, c.frames, strict=True):
                if msg.get("type") == "state" and msg["view"]["terminal"]:
                    break
                assert seed not in raw

    run(go(), timeout=55)


BAD_TABLES = [
    ({"game": "skat", "seats": ["human"] * 4}, "skat"),
    ({"game": "watten", "variant": "nope", "seats": ["human"] * 4}, "nope"),
    ({"game": "watten", "variant": "euregio", "options": {"target": 0}, "seats": ["human"] * 4}, None),
    ({"game": "watten", "variant": "euregio", "options": {"no_such_option": 1}, "seats": ["human"] * 4}, None),
    # options that contradict each other (issue #40): the error names both and the rule
    ({"game": "watten", "variant": "euregio", "options": {"target": 7, "lock_at": 16}, "seats": ["human"] * 4},
     "lock_at=16 and target=7 contradict each other: lock_at must be below target (§2.9, R12)"),
    ({"game": "battn", "options": {"target": 10, "x_threshold": 19}, "seats": ["human"] * 4},
     "x_threshold=19 and target=10 contradict each other"),
    ({"game": "biscambiggia", "options": {"max_bid": 121}, "seats": ["human"] * 5}, "must be at most 120"),
    ({"game": "watten", "variant": "euregio", "seats": ["human"] * 3}, None),
    ({"game": "watten", "variant": "euregio", "seats": ["human", "robot", "human", "human"]}, "robot"),
    ({"game": "watten", "variant": "euregio", "seats": ["human", "bot:nosuchbot", "human", "human"]}, None),
    ({"game": "watten", "variant": "euregio", "seats": "human"}, None),
    ({"seats": ["human"] * 4}, None),
]


@pytest.mark.timeout(60)
def test_bad_table_requests_get_a_clear_400(server):
    async def go():
        async with http_client(server) as http:
            for body, word in BAD_TABLES:
                r = await http.post("/api/tables", json=body)
                assert r.status_code == 400, (body, r.status_code, r.text)
                err = r.json()["error"]
                assert isinstance(err, str) and err
                if word:
                    assert word in err, (body, err)
            # the engine's own wording for a bad option
            try:
                stich.game("watten", "euregio", target=0)
            except stich.StichError as exc:
                want = str(exc)
            r = await http.post("/api/tables", json=BAD_TABLES[2][0])
            assert want in r.json()["error"]
            for raw in (b"{not json", b"[]", b""):
                r = await http.post("/api/tables", content=raw, headers={"content-type": "application/json"})
                assert r.status_code == 400 and r.json()["error"], (raw, r.text)

    run(go(), timeout=55)


@pytest.mark.timeout(60)
def test_test_hooks_are_refused_in_production(server_factory):
    srv = server_factory("sqlite")              # started without STICH_TEST_HOOKS

    async def go():
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=10) as http:
            r = await http.post("/api/tables", json={"game": "watten", "variant": "euregio",
                                                     "seats": ["human"] * 4, "test": {"seed": 1}})
            assert r.status_code == 400 and r.json()["error"], r.text

    run(go(), timeout=30)
