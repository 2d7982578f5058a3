"""Several ``stich serve --redis`` processes on one Postgres database (real processes, a real redis-server):
a client on any process plays at any table, hears the others' chat and presence, and a process that
shuts down hands its tables to a live one at once."""

from __future__ import annotations

import asyncio
import subprocess
import time

from tests.web.checks import check_acks_in_record, check_frames, replay_ok
from tests.web.client import SeatClient, create_table, get_record, http_client, run, seat_clients
from tests.web.server import STICH
from tests.web.test_postgres_outage import finished_tables

# long leases: anything that happens within seconds is the cluster's doing, not a lease running out
ENV = {"STICH_LEASE_SECONDS": "60"}


def cluster(server_factory, redis_server, postgres, n: int = 2, env: dict | None = None):
    db = postgres.new_database()
    args = ("--redis", redis_server.url, "--bot-workers", "0")
    return [server_factory(db, env={**ENV, **(env or {})}, args=args) for _ in range(n)]


def test_clients_on_two_processes_play_one_table(server_factory, redis_server, postgres):
    a, b = cluster(server_factory, redis_server, postgres, env={"STICH_FINISHED_TABLE_SECONDS": "2"})

    async def go():
        async with http_client(a) as http:
            t = await create_table(http, "watten", "euregio", ["human"] * 4, {"target": 5, "lock_at": 3})
        clients = seat_clients(a, t, script_seed="two")
        for c in clients[1::2]:     # seats 1 and 3 on the process that does not own the table
            c.server = b
        for c in clients:
            await c.connect()
        # everyone shows as connected, wherever they are
        for c in clients:
            await c.recv_until(lambda m: m.get("type") == "seats" and all(s["connected"] for s in m["seats"]),
                               timeout=15)
        # chat from a replica's connection reaches the owner's connections, once
        await clients[1].send({"type": "chat", "text": "servus from b"})
        got = await clients[0].recv_until(lambda m: m.get("type") == "chat", timeout=10)
        assert got["seat"] == 1 and got["text"] == "servus from b"
        await asyncio.gather(*(c.play(timeout=90) for c in clients))
        async with http_client(b) as http:
            record = await get_record(http, t["table"])
        for c in clients:
            await c.close()
        # the finished table leaves memory on both processes once nobody watches it: the owner's and
        # b's replica alike after STICH_FINISHED_TABLE_SECONDS (a replica's usual idle time is 30 s)
        end = time.monotonic() + 20
        while finished_tables(a) + finished_tables(b) and time.monotonic() < end:
            await asyncio.sleep(0.5)
        assert (finished_tables(a), finished_tables(b)) == (0, 0)
        return record, clients

    record, clients = run(go(), timeout=150)
    replay_ok(record)
    check_acks_in_record(record, clients)
    for c in clients:
        check_frames(record, c)
        assert sum(1 for m in c.frames if m.get("type") == "chat" and m.get("text") == "servus from b") == 1
    table = clients[0].table

    # A finished table has no owner: the last action's commit deleted its lease (no process renews or
    # sweeps it for ever); its record, replay page, facts and a spectator's socket come from any process,
    # also from one that loads it afresh from the log (b restarted).  And the migration deletes the
    # lease rows that finished tables kept before it (one is put back here, the schema set back to 0002).
    assert psql(postgres, a.db, f"select count(*) from leases where table_id = '{table}'") == "0"
    assert psql(postgres, a.db, "select count(*) from leases") == "0"
    served = run(finished_everywhere([a, b], table, record), timeout=60)
    b.stop()
    psql(postgres, a.db, f"insert into leases values ('{table}', 'gone', 0); "
                         "drop table rematches; alter table tables drop column started; "   # undo 0004 too
                         "alter table seats drop column arrived; "
                         "drop table players, credentials, signin_codes, signin_attempts, ratings, "   # and 0005
                         "player_matches; alter table seats drop column player_id; alter table tables drop "
                         "column rated; drop table analyses; "   # and 0008
                         "drop table tournament_corrections, tournament_tables, tournament_players, "
                         "tournaments; "   # and 0007 (0009's and 0011's columns are in its tables)
                         "drop table clubs, club_members, club_invites, club_presets, club_tables; "   # and 0006
                         "update alembic_version set version_num = '0002'")
    b.start()
    assert psql(postgres, a.db, "select count(*) from leases") == "0"
    assert psql(postgres, a.db, "select version_num from alembic_version") == "0011"
    served += run(finished_everywhere([b], table, record), timeout=60)
    assert served == 3


def psql(postgres, db_url: str, sql: str) -> str:
    """Run SQL on the test's Postgres database with psql (the servers' database, seen from outside)."""
    return postgres._pg("psql", "-h", "127.0.0.1", "-p", str(postgres.port), "-U", "postgres", "-d",
                        db_url.rsplit("/", 1)[1], "-tAc", sql).stdout.strip()


async def finished_everywhere(servers, table: str, record: dict) -> int:
    """Each server gives the finished table's record, replay page and facts, and a spectator the final
    frame; returns how many servers did."""
    for srv in servers:
        async with http_client(srv) as http:
            assert await get_record(http, table) == record
            replay = await http.get(f"/replay/{table}")
            assert replay.status_code == 200, replay.text[:300]
            meta = (await http.get(f"/api/tables/{table}")).json()
            assert meta["finished"] and meta["seq"] == len(record["actions"])
        watcher = SeatClient(srv, table)
        await watcher.connect()
        last = await watcher.recv_until(lambda m: m.get("type") == "state", timeout=10)
        assert last["finished"] and last["seq"] == len(record["actions"])
        await watcher.close()
    return len(servers)


def test_a_resent_action_on_another_process_takes_effect_once(server_factory, redis_server, postgres):
    a, b = cluster(server_factory, redis_server, postgres)

    async def go():
        async with http_client(a) as http:
            t = await create_table(http, "watten", "euregio", ["human", "bot:random", "bot:random", "bot:random"],
                                   {"target": 3, "lock_at": 1})
        (c,) = seat_clients(a, t)
        await c.connect()
        st = await c.recv_until(lambda m: m.get("type") == "state" and m["legal"]
                                and m["view"]["current_player"] == 0, timeout=20)
        aid = await c.act(sorted(st["legal"])[0])
        first = await c.recv_until(lambda m: m.get("type") in ("ack", "error") and m.get("id") == aid)
        await c.close()
        c2 = SeatClient(b, t["table"], c.token, seat=0)
        c2.sent[aid] = c.sent[aid]
        await c2.connect()
        await c2.send({"type": "act", "id": aid, "action": c.sent[aid]})
        again = await c2.recv_until(lambda m: m.get("type") in ("ack", "error") and m.get("id") == aid)
        await c2.close()
        return first, again

    first, again = run(go(), timeout=60)
    assert first["type"] == "ack" and again == first


def test_sigterm_hands_the_tables_over_at_once(server_factory, redis_server, postgres):
    """The owner stops gracefully; with 60-second leases, the bots moving again within seconds shows
    that a live process took the table at once."""
    a, b = cluster(server_factory, redis_server, postgres)

    async def go():
        async with http_client(a) as http:
            t = await create_table(http, "watten", "euregio", ["human", "bot:random", "bot:random", "bot:random"],
                                   {"target": 5, "lock_at": 3}, public=True)
        (c,) = seat_clients(b, t, script_seed="handover")
        stopped = []

        async def think():
            # The owner stops while the table waits for this seat (random bots finish a whole match
            # in a fraction of a second, so stopping "soon" could come after the match was over).
            if not stopped and c.seq >= 4:
                await asyncio.to_thread(a.stop)
                stopped.append(c.seq)

        await asyncio.wait_for(c.play(timeout=60, think=think), 30)     # well within the 60 s lease
        assert stopped, "the match ended before the human's turn after the fourth action"
        async with http_client(b) as http:
            record = await get_record(http, t["table"])
        await c.close()
        return record, c

    record, c = run(go(), timeout=90)
    replay_ok(record)
    check_acks_in_record(record, [c])
    assert a.proc.returncode == 0
    assert "tables handed over" in a.stderr_tail(20000)
    assert "table taken over" in b.stderr_tail(20000)


def test_lobby_and_join_across_processes(server_factory, redis_server, postgres):
    a, b = cluster(server_factory, redis_server, postgres)

    async def go():
        async with http_client(a) as http:
            t = await create_table(http, "watten", "euregio", ["human", "human", "bot:random", "bot:random"],
                                   {"target": 3}, public=True)
        async with http_client(b) as http:
            lobby = (await http.get("/api/lobby")).json()
            joined = await http.post(f"/api/tables/{t['table']}/join", json={"name": "<b>Resi</b>"})
            full = await http.post(f"/api/tables/{t['table']}/join", json={})
            lobby_after = (await http.get("/api/lobby")).json()
        async with http_client(a) as http:
            meta = (await http.get(f"/api/tables/{t['table']}")).json()
        return t, lobby, joined, full, lobby_after, meta

    t, lobby, joined, full, lobby_after, meta = run(go(), timeout=60)
    assert [x["table"] for x in lobby["tables"]] == [t["table"]]
    assert joined.status_code == 201, joined.text
    assert joined.json()["seat"] == 0   # the first free seat
    assert full.status_code == 201 and full.json()["seat"] == 1
    assert lobby_after == {"tables": []}
    assert meta["seats"][0]["name"] == "&lt;b&gt;Resi&lt;/b&gt;"
    assert meta["seats"][0]["taken"] and meta["seats"][1]["taken"]


def test_redis_option_errors_are_one_line(tmp_path):
    bad = subprocess.run([STICH, "serve", "--port", "0", "--db", str(tmp_path / "x.sqlite3"), "--redis",
                          "http://127.0.0.1:1"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--redis takes a redis:// URL" in bad.stderr
    away = subprocess.run([STICH, "serve", "--port", "0", "--db", str(tmp_path / "y.sqlite3"), "--redis",
                           "redis://127.0.0.1:1/0"], capture_output=True, text=True, timeout=60)
    assert away.returncode == 1 and "cannot reach Redis at redis://127.0.0.1:1/0" in away.stderr
    assert "Traceback" not in away.stderr
