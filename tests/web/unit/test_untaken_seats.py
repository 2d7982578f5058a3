"""A human seat whose invite link nobody opens, at a table that starts at once (``"start": "now"``;
the default, ``"when_full"``, waits for the seat's person: tests/web/test_evening.py): its grace period
runs from the moment the table starts, so its bot plays it (marked ``bot_playing``, still not
``taken``), and the human who arrives later takes the seat over and plays on.  ``grace: "never"``
keeps such a seat waiting.  Real server process, real sockets."""

from __future__ import annotations

import time
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

import stich

SHORT = {"game": "watten", "variant": "bavarian_2", "options": {"target": 3, "lock_at": 2}}


def takeovers(srv) -> float:
    with urllib.request.urlopen(srv.url + "/metrics", timeout=30) as resp:
        text = resp.read().decode()
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == "stich_actions_total" and s.labels == {"origin": "takeover"}:
                return s.value
    raise AssertionError("no stich_actions_total{origin=takeover} in /metrics")


def test_a_seat_nobody_opened_is_played_by_its_bot_until_the_human_arrives(serve):
    srv = serve()
    status, t = srv.post("/api/tables", {**SHORT, "seats": ["human", "human"], "grace": 0.5, "start": "now"})
    assert status == 201
    # only seat 1 comes; seat 0's link is never opened
    b = srv.socket(t["table"], t["seats"][1]["token"])
    seats = b.until(lambda m: m["type"] == "seats" and m["seats"][0]["bot_playing"], timeout=20)["seats"][0]
    assert seats["connected"] is False and seats["taken"] is False and seats["kind"] == "human"
    # the table moves: seat 1 acts on its turns, seat 0's bot on the others
    while b.state is None or b.state["seq"] < 6 and not b.state["finished"]:
        st = b.until(lambda m: m["type"] == "state")
        if st["legal"] and st["view"]["current_player"] == 1:
            assert b.act(f"b{st['seq']}", st["legal"][0])["type"] == "ack"
    assert takeovers(srv) > 0, "seat 0's bot never moved"
    # seat 0's human arrives: the seat is theirs at once, taken, and they are asked to act
    a = srv.socket(t["table"], t["seats"][0]["token"])
    mine = a.until(lambda m: m["type"] == "seats")["seats"][0]
    assert mine["bot_playing"] is False and mine["connected"] is True and mine["taken"] is True
    played_by_bot = takeovers(srv)
    clients = {0: a, 1: b}
    acked = {0: 0, 1: 0}
    a.until(lambda m: m["type"] == "state")
    while True:
        # whoever is on turn (both sockets see the same seq) acts; the other just reads its frames
        st = a.state
        if st["finished"]:
            break
        seat = st["view"]["current_player"]
        c = clients[seat]
        cst = c.until(lambda m, seq=st["seq"]: m["type"] == "state" and m["seq"] >= seq) \
            if c.state["seq"] < st["seq"] else c.state
        assert c.act(f"x{seat}-{cst['seq']}", cst["legal"][0])["type"] == "ack"
        acked[seat] += 1
        a.until(lambda m, seq=st["seq"]: m["type"] == "state" and m["seq"] > seq)
    assert acked[0] > 0, "the human who arrived late never acted"
    assert takeovers(srv) == played_by_bot, "the bot moved for a seat its human had taken over"
    status, record = srv.get(f"/api/tables/{t['table']}/record")
    assert status == 200 and stich.replay(record).is_terminal()
    a.close()
    b.close()


def test_grace_never_keeps_a_seat_nobody_opened_waiting(serve):
    srv = serve()
    status, t = srv.post("/api/tables", {**SHORT, "seats": ["human", "bot:random"], "grace": "never",
                                          "start": "now"})
    assert status == 201
    watch = srv.socket(t["table"])
    watch.until(lambda m: m["type"] == "state")
    # the bot plays until seat 0 is to act, then the table waits for the human who never came
    end = time.time() + 3
    while time.time() < end:
        try:
            watch.recv(timeout=max(0.01, end - time.time()))
        except TimeoutError:
            break
    assert watch.state["view"]["current_player"] == 0 and not watch.state["finished"]
    seats = [m for m in watch.frames if m["type"] == "seats"][-1]["seats"]
    assert seats[0]["bot_playing"] is False
    assert takeovers(srv) == 0
    watch.close()
