"""Two clusters on one Redis (issue #35, "cluster joints"): every channel and key of a cluster is under
its prefix (``STICH_REDIS_PREFIX``), so clusters with different prefixes share a redis-server without
hearing each other.  Two one-process "clusters", each on its own database, on one real redis-server;
a listener of this test's own hears every message published on that Redis."""

from __future__ import annotations

import asyncio
import os
import subprocess

import pytest

from tests.web.client import create_table, http_client, run, seat_clients
from tests.web.server import STICH

ENV = {"STICH_LEASE_SECONDS": "60", "STICH_TEST_HOOKS": "1"}


@pytest.mark.timeout(120)
def test_two_clusters_with_different_prefixes_share_one_redis(server_factory, redis_server):
    import redis.asyncio as aioredis

    args = ("--redis", redis_server.url, "--bot-workers", "0")
    one = server_factory("sqlite", env={**ENV, "STICH_REDIS_PREFIX": "one"}, args=args)
    two = server_factory("sqlite", env={**ENV, "STICH_REDIS_PREFIX": "two"}, args=args)

    async def go():
        r = aioredis.from_url(redis_server.url, decode_responses=True)
        heard: list[str] = []
        listener = r.pubsub()
        await listener.psubscribe("*")

        async def listen():
            while True:
                msg = await listener.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if msg is not None:
                    heard.append(msg["channel"])

        listening = asyncio.ensure_future(listen())
        played = []
        for srv, seed in ((one, 11), (two, 12)):
            async with http_client(srv) as http:
                t = await create_table(http, "watten", "euregio", ["human", "bot:random", "bot:random", "bot:random"],
                                       {"target": 3, "lock_at": 1}, test={"seed": seed})
            (c,) = seat_clients(srv, t, script_seed=f"prefix-{seed}")
            await c.play(timeout=60)
            await c.close()
            played.append((t["table"], c.state["seq"]))
        await asyncio.sleep(0.5)
        # what each cluster counts as its live processes (the fair share of orphaned tables divides by it)
        live = dict(await r.pubsub_numsub("one:released", "two:released", "stich:released"))
        channels = sorted(await r.pubsub_channels("*"))
        listening.cancel()
        await listener.aclose()
        await r.aclose()
        return heard, live, channels, played

    heard, live, channels, played = run(go(), timeout=100)
    [(table_one, seq_one), (table_two, seq_two)] = played
    assert seq_one > 0 and seq_two > 0
    # each cluster's tables were announced under its own prefix only
    assert f"one:t:{table_one}" in heard and f"two:t:{table_two}" in heard
    assert all(ch.split(":", 1)[0] in ("one", "two") for ch in heard), sorted(set(heard))
    assert not any(table_two in ch for ch in heard if ch.startswith("one:"))
    assert not any(table_one in ch for ch in heard if ch.startswith("two:"))
    # each process listens under its own prefix, and each cluster counts one process, not two
    assert live == {"one:released": 1, "two:released": 1, "stich:released": 0}
    assert all(ch.split(":", 1)[0] in ("one", "two") for ch in channels), channels
    assert sum(ch.startswith("one:n:") for ch in channels) == 1
    assert sum(ch.startswith("two:n:") for ch in channels) == 1


def test_a_bad_prefix_is_one_line(tmp_path):
    for cmd in (["serve", "--port", "0", "--db", str(tmp_path / "x.sqlite3")],
                ["bot-worker", "--redis", "redis://127.0.0.1:1/0"]):
        out = subprocess.run([STICH, *cmd], capture_output=True, text=True, timeout=60,
                             env={**os.environ, "STICH_REDIS_PREFIX": "a:b"})
        assert out.returncode == 2, out.stderr
        assert "STICH_REDIS_PREFIX must be 1 to 32 letters" in out.stderr and "Traceback" not in out.stderr
