"""The server's parts on their own: database URLs, migrations and group commit on a real SQLite file,
one-way bot seeds and the bot pool, and the table requests."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import BrokenExecutor

import pytest
from sqlalchemy import event, func, inspect, select

import stich
from stich.web import store
from stich.web.botpool import BotPool, bot_seed
from stich.web.spec import BadRequest, parse_table
from stich.web.table import legal_for


def test_database_urls():
    assert store.database_url("postgresql://u@h:5/db") == "postgresql+asyncpg://u@h:5/db"
    assert store.database_url("x.sqlite3").startswith("sqlite+aiosqlite:////")
    with pytest.raises(ValueError):
        store.database_url("mysql://x")


def test_migrations_and_group_commit(tmp_path):
    async def main():
        engine = store.make_engine(store.database_url(str(tmp_path / "s.sqlite3")))
        await store.migrate(engine)
        await store.migrate(engine)  # idempotent: a restart runs it again
        async with engine.connect() as conn:
            names = await conn.run_sync(lambda c: inspect(c).get_table_names())
            mode = (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar()
        assert {"tables", "seats", "actions", "answers", "chat", "records", "meta", "alembic_version"} <= set(names)
        assert mode == "wal"
        commits = []
        event.listen(engine.sync_engine, "commit", lambda conn: commits.append(1))
        writer = store.Writer(engine)
        writer.start()
        await asyncio.gather(*(writer.write(store.chat.insert().values(table_id="t", seat=0, name=None,
                                                                         text=str(i), at=0.0))
                               for i in range(100)))
        rows = await store.fetch_one(engine, select(func.count().label("n")).select_from(store.chat))
        assert rows["n"] == 100
        assert len(commits) < 50  # many writes per transaction
        # a failing write fails alone; the others in its batch are committed
        bad = store.meta.insert().values(key="k", value="v")
        await writer.write(bad)
        results = await asyncio.gather(writer.write(bad), writer.write(store.meta.insert().values(key="j", value="w")),
                                       return_exceptions=True)
        assert isinstance(results[0], Exception) and results[1] is None
        secret = await store.server_secret(engine)
        assert secret == await store.server_secret(engine) and len(secret) == 32
        await writer.stop()
        await engine.dispose()

    asyncio.run(main())


def test_bot_seeds_are_one_way_and_stable():
    a = bot_seed(b"secret-a", "T1", 1, 5)
    assert a == bot_seed(b"secret-a", "T1", 1, 5)
    assert len({a, bot_seed(b"secret-b", "T1", 1, 5), bot_seed(b"secret-a", "T2", 1, 5),
                bot_seed(b"secret-a", "T1", 2, 5), bot_seed(b"secret-a", "T1", 1, 6)}) == 5
    assert 0 <= a < 2**63


def test_bot_pool_answers_and_falls_back():
    state = stich.game("watten", "bavarian_2").new_state(seed=3)
    seat = state.current_player
    legal = legal_for(state, seat)
    assert legal_for(state, 1 - seat) == [] and legal_for(state, None) == []

    async def main():
        pool = BotPool(0)
        try:
            action, fault = await pool.choose("heuristic", 7, state.view(seat), legal)
            assert fault is None and action in legal
            again, _ = await pool.choose("heuristic", 7, state.view(seat), legal)
            assert again == action
            action, fault = await pool.choose("nosuchbot", 7, state.view(seat), legal)
            assert action in legal and "nosuchbot" in fault
        finally:
            pool.close()

    asyncio.run(main())


def test_table_requests():
    spec = parse_table({"game": "watten", "variant": "tyrolean", "seats": ["human", "bot:pimc@0.5s", "human", "bot"],
                        "grace": "never", "timer": "fast", "signals": "on", "public": True})
    assert [s.kind for s in spec.seats] == ["human", "bot", "human", "bot"]
    assert spec.seats[1].bot == "pimc@0.5s" and spec.settings["grace"] is None and spec.public
    with pytest.raises(BadRequest, match="test hooks are disabled"):
        parse_table({"game": "watten", "test": {"seed": 1}})
    with pytest.raises(BadRequest, match="no variant"):
        parse_table({"game": "watten", "variant": "klondike"})


def test_a_dead_bot_worker_is_replaced():
    state = stich.game("watten", "bavarian_2").new_state(seed=4)
    seat = state.current_player
    legal = legal_for(state, seat)

    async def main():
        pool = BotPool(1)
        try:
            with pytest.raises(BrokenExecutor):  # a worker dies as if killed
                await asyncio.get_running_loop().run_in_executor(pool.executor, os._exit, 1)
            action, fault = await pool.choose("heuristic", 7, state.view(seat), legal)
            assert fault is None and action in legal
        finally:
            pool.close()

    asyncio.run(main())


@pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")
def test_the_facade_serves_finished_and_uploaded_records(tmp_path):
    from starlette.testclient import TestClient

    from stich.web import create_app

    g = stich.game("watten", "bavarian_2", target=3, lock_at=2)
    s = g.new_state(seed=11)
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    with TestClient(create_app(db=str(tmp_path / "f.sqlite3"), bot_workers=0)) as client:
        facade = client.app.state.stich
        up = client.post("/api/records", json=s.record()).json()
        assert client.portal.call(facade.record, up["id"])["actions"] == s.record()["actions"]
        t = client.post("/api/tables", json={"game": "watten", "variant": "bavarian_2", "seats": ["human", "bot"]})
        tid = t.json()["table"]
        meta = client.portal.call(facade.table_meta, tid)
        assert meta["game"] == "watten" and meta["finished"] is False and meta["seats"][1]["kind"] == "bot"
        assert client.portal.call(facade.record, tid) is None  # not before the match is over
        assert client.portal.call(facade.table_meta, "nosuchtable") is None
        assert client.portal.call(facade.record, "nosuchtable") is None
