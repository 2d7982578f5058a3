"""The order of an action's ``ack`` and the frame that shows it (docs/web-protocol.md, "Order of
frames"): on the connection that sent the action, its ``ack`` comes before the first ``state`` (or
``html``) frame whose ``seq`` includes it, on one process and when the connection is on a process that
does not own the table (the action forwarded to the owner through Redis).  A client may therefore
act on the first state frame after an ack: it is never the frame from before its own action."""

from __future__ import annotations

import asyncio

from tests.web.client import create_table, http_client, run, seat_clients

SEATS = ["human", "bot:random", "human", "bot:random"]
OPTIONS = {"target": 5, "lock_at": 3}


def ack_before_state(client) -> int:
    """Check every ack of ``client`` against its frames; returns how many acks were checked."""
    checked = 0
    for i, msg in enumerate(client.frames):
        if msg.get("type") != "ack":
            continue
        seq = msg["seq"]
        first = next((j for j, m in enumerate(client.frames)
                      if m.get("type") in ("state", "html") and m["seq"] >= seq), None)
        assert first is not None, f"no frame ever showed seq {seq}"
        assert i < first, (f"seat {client.seat}: ack of seq {seq} (frame {i}) after the frame that shows it "
                           f"(frame {first}): {[(f.get('type'), f.get('seq')) for f in client.frames[first:i + 1]]}")
        checked += 1
    return checked


async def play_table(create_on, servers, fmt="json"):
    async with http_client(create_on) as http:
        t = await create_table(http, "watten", "euregio", SEATS, OPTIONS, grace="never")
    clients = seat_clients(servers[0], t, script_seed="order", fmt=fmt)
    for i, c in enumerate(clients):
        c.server = servers[i % len(servers)]
        await c.connect()
    await asyncio.gather(*(c.play(timeout=90) for c in clients))
    for c in clients:
        await c.close()
    return clients


def test_ack_comes_before_the_state_that_shows_the_action(server):
    clients = run(play_table(server, [server]), timeout=100)
    clients += run(play_table(server, [server], fmt="html"), timeout=100)
    assert sum(ack_before_state(c) for c in clients) >= 8
    assert all(not c.errors for c in clients), [c.errors for c in clients]


def test_ack_order_through_a_process_that_does_not_own_the_table(server_factory, redis_server, postgres):
    db = postgres.new_database()
    args = ("--redis", redis_server.url, "--bot-workers", "0")
    a, b = (server_factory(db, env={"STICH_LEASE_SECONDS": "60"}, args=args) for _ in range(2))
    # created on a (its owner); seat 0 plays on b, every action forwarded; seat 2 on a
    clients = run(play_table(a, [b, a]), timeout=100)
    assert clients[0].connected_to[0][1] == b.ws_url and clients[1].connected_to[0][1] == a.ws_url
    assert ack_before_state(clients[0]) >= 4 and ack_before_state(clients[1]) >= 4
    assert all(not c.errors for c in clients), [c.errors for c in clients]
