"""The cluster's publisher against a real redis-server that goes away and comes back: when a publish
has failed and publishing works again, every open table catches up as after an outage.

The publishing connection reconnects on its own, sometimes after the subscription's "redis back"
catch-up has run; a message that failed then was lost for good, and a replica waiting for it (its
player to move next) waited until the renew period (``test_redis_outage.py`` hung about one run in
ten).  Here the table is a recorder of what the cluster asks of it; the Redis part is real."""

from __future__ import annotations

import asyncio
import contextlib
from types import SimpleNamespace

import pytest

from stich.web.cluster import Cluster
from tests.web.server import RedisServer, redis_available


class RecordingTable:
    """Stands for a table actor: counts the catch-ups it is asked for."""

    def __init__(self):
        self.caught_up = 0

    async def after_outage(self) -> None:
        self.caught_up += 1

    def submit(self, fn) -> None:
        asyncio.get_running_loop().create_task(fn())


@pytest.mark.skipif(not redis_available(), reason="redis-server not installed")
def test_publishing_again_after_a_failure_makes_every_table_catch_up():
    import redis.asyncio as aioredis

    redis = RedisServer().start()
    table = RecordingTable()
    cluster = Cluster(SimpleNamespace(tables={"t1": table}), redis.url)

    async def scenario():
        cluster.redis = aioredis.from_url(redis.url, decode_responses=True, socket_connect_timeout=2.0)
        publisher = asyncio.get_running_loop().create_task(cluster._publisher())
        try:
            assert await asyncio.wait_for(cluster.publish("stich:t:t1", {"k": "a", "seq": 1}), 5) == 0
            await asyncio.sleep(0.1)
            assert cluster.publishing and table.caught_up == 0      # nothing failed: no catch-up

            await asyncio.to_thread(redis.proc.kill)
            await asyncio.to_thread(redis.proc.wait, 10)
            with pytest.raises(ConnectionError):
                await asyncio.wait_for(cluster.publish("stich:t:t1", {"k": "a", "seq": 2}), 10)
            assert not cluster.publishing and table.caught_up == 0

            await asyncio.to_thread(redis.start)
            got = None
            for _ in range(50):   # the first tries may still meet the dead connection
                with contextlib.suppress(ConnectionError):
                    got = await asyncio.wait_for(cluster.publish("stich:t:t1", {"k": "a", "seq": 3}), 5)
                    break
                await asyncio.sleep(0.1)
            assert got == 0 and cluster.publishing
            await asyncio.sleep(0.1)
            assert table.caught_up == 1                                # the lost seq 2 is caught up
        finally:
            publisher.cancel()
            with contextlib.suppress(BaseException):
                await publisher
            await cluster.redis.aclose()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 60))
    finally:
        redis.stop()
