"""``GET /metrics`` of a real ``stich serve`` process: after a match over real sockets the counters
moved by exactly what happened (parsed with prometheus_client's own parser of the text format), the
gauges say how many tables and sockets there are, and no table id, token or seed is in the scrape."""

from __future__ import annotations

import urllib.request

from prometheus_client.parser import text_string_to_metric_families

SHORT = {"game": "watten", "variant": "bavarian_2", "options": {"target": 3, "lock_at": 2}}


def scrape(srv) -> tuple[str, dict]:
    """The raw text and ``{(sample name, sorted labels): value}`` of one scrape."""
    with urllib.request.urlopen(srv.url + "/metrics", timeout=30) as resp:
        assert resp.status == 200
        assert resp.headers["Content-Type"].startswith("text/plain")
        text = resp.read().decode()
    values = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            values[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return text, values


def val(values: dict, name: str, **labels) -> float:
    return values[(name, tuple(sorted(labels.items())))]


def delta(before: dict, after: dict, name: str, **labels) -> float:
    """How much a sample grew; a series born during the test (a bot's first decision) grew from 0."""
    return val(after, name, **labels) - before.get((name, tuple(sorted(labels.items()))), 0.0)


def test_counters_move_by_what_happened(serve):
    srv = serve()
    _, before = scrape(srv)
    status, t = srv.post("/api/tables", {**SHORT, "seats": ["human", "bot:random"], "grace": "never"})
    assert status == 201
    table, token = t["table"], t["seats"][0]["token"]
    status, _ = srv.post("/api/tables", {"game": "nosuchgame"})
    assert status == 400

    me = srv.socket(table, token)
    watch = srv.socket(table)
    me.until(lambda m: m["type"] == "state")
    watch.until(lambda m: m["type"] == "state")
    _, during = scrape(srv)
    assert val(during, "stich_tables", state="open") == 1
    assert val(during, "stich_sockets", role="player") == 1
    assert val(during, "stich_sockets", role="spectator") == 1
    assert val(during, "stich_tables_owned", node="local") == 1   # one process: it owns every table

    # one refused action, one message that is not JSON, one socket with a forged token
    assert me.act("bad", "play ZZ")["type"] == "error"
    me.send("{not json")
    me.until(lambda m: m["type"] == "error" and m["id"] is None)
    forged = srv.socket(table, "x" * 32)
    assert forged.recv()["type"] == "error"
    forged.close()

    acks = 0
    while not me.state["finished"]:
        st = me.state
        if st["legal"] and st["view"]["current_player"] == 0:
            answer = me.act(f"a{st['seq']}", st["legal"][0])
            assert answer["type"] == "ack", answer
            acks += 1
        me.until(lambda m, seq=st["seq"]: m["type"] == "state" and m["seq"] > seq)
    total = me.state["seq"]
    me.close()
    watch.close()
    status, record = srv.get(f"/api/tables/{table}/record")
    assert status == 200 and len(record["actions"]) == total

    text, after = scrape(srv)
    bots = total - acks
    assert acks > 0 and bots > 0
    assert delta(before, after, "stich_actions_total", origin="human") == acks
    assert delta(before, after, "stich_actions_total", origin="bot") == bots
    assert delta(before, after, "stich_actions_total", origin="takeover") == 0
    assert delta(before, after, "stich_action_latency_seconds_count") == acks
    assert delta(before, after, "stich_action_latency_seconds_bucket", le="+Inf") == acks
    assert 0 < delta(before, after, "stich_action_latency_seconds_sum") < 30 * acks
    assert delta(before, after, "stich_bot_think_seconds_count", bot="random") == bots
    assert delta(before, after, "stich_bot_wait_seconds_count") == bots
    # every action, the refused action's answer and the table itself were written; a commit groups writes
    commits = delta(before, after, "stich_db_commit_seconds_count")
    writes = delta(before, after, "stich_db_commit_writes_sum")
    assert writes >= total + 2 and 1 <= commits <= writes
    assert delta(before, after, "stich_errors_total", kind="action_refused") == 1
    assert delta(before, after, "stich_errors_total", kind="bad_message") == 1
    assert delta(before, after, "stich_errors_total", kind="socket_refused") == 1
    assert delta(before, after, "stich_errors_total", kind="bad_request") == 1
    assert delta(before, after, "stich_errors_total", kind="bot_fault") == 0
    assert val(after, "stich_bot_queue_depth") == 0
    assert val(after, "stich_tables", state="open") == 0
    assert val(after, "stich_tables", state="finished") == 1
    assert val(after, "stich_tables_owned", node="local") == 0     # a finished table has no owner
    # the sockets are gone once the server noticed the closes
    for _ in range(100):
        if val(after, "stich_sockets", role="player") + val(after, "stich_sockets", role="spectator") == 0:
            break
        _, after = scrape(srv)
    assert val(after, "stich_sockets", role="player") == 0 and val(after, "stich_sockets", role="spectator") == 0

    # nothing secret (nor a table id: one series per table would grow without end)
    for secret in (table, token, str(record["seed"])):
        assert secret not in text
