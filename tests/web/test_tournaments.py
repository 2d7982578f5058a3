"""Tournaments end to end on a real server (docs/tournaments.md): a whole tournament of each format played
by bots (and a person where a seat must wait), every result checked against the tables' records; a paper
table typed in and corrected by the director; a duplicate round's tables dealt the same cards seat for
seat; kill -9 in the middle of a round and between rounds."""

from __future__ import annotations

import asyncio
import csv
import io
import re
import sqlite3

import pytest

from tests.web.client import SeatClient, get_record, http_client, run
from tests.web.test_kill9 import kill9_running
from tests.web.test_words import identifiers, readable

WATTEN = {"game": "watten", "variant": "tyrolean", "options": {"target": 5, "lock_at": 3}}


def bots(names: str, kind: str = "bot:random") -> list[dict]:
    return [{"name": n, "kind": kind} for n in names]


async def create(http, **body) -> dict:
    r = await http.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    return r.json()


async def draw(http, t: dict, status: int = 201, **extra) -> dict:
    r = await http.post(f"/api/tournaments/{t['tournament']}/rounds", json={"token": t["director_token"], **extra})
    assert r.status_code == status, r.text
    return r.json()


async def until_round_over(http, t: dict, round_no: int, timeout: float = 30.0) -> dict:
    for _ in range(int(timeout / 0.1)):
        doc = (await http.get(f"/api/tournaments/{t['tournament']}")).json()
        if all(tb["finished"] for tb in doc["rounds"][round_no - 1]["tables"]):
            return doc
        await asyncio.sleep(0.1)
    raise AssertionError(f"round {round_no} not over within {timeout}s: {doc['rounds'][round_no - 1]}")


def final_scores(record: dict) -> list[float]:
    """Each seat's final match points, as the record's last public scores event tells them."""
    n = len(record["returns"])
    ev = next(e for e in reversed(record["events"]) if e["type"] == "scores" and e.get("audience") is None)
    scores = ev["scores"]
    return [scores[s % len(scores)] for s in range(n)] if len(scores) != n else scores


async def check_against_records(http, doc: dict) -> dict:
    """Every online match's result is its record's; returns each player's (matches won, match points)."""
    per = {p["name"]: [0, 0] for p in doc["players"]}
    for rnd in doc["rounds"]:
        for tb in rnd["tables"]:
            for m in tb["matches"]:
                if tb["paper"]:
                    scores, won = m["result"]["scores"], m["result"]["won"]
                else:
                    record = await get_record(http, m["table"])
                    scores, won = final_scores(record), [r > 0 for r in record["returns"]]
                    assert m["result"]["scores"] == scores and m["result"]["won"] == won, (m, record["returns"])
                for seat, name in enumerate(tb["players"]):
                    per[name][0] += won[seat]
                    per[name][1] += scores[seat]
    return per


@pytest.mark.timeout(90)
def test_preiswatten_rounds_with_a_paper_table_typed_and_corrected_by_the_director(server):
    async def go():
        async with http_client(server) as http:
            t = await create(http, **WATTEN, format={"kind": "rounds", "rounds": 2, "games_per_round": 2},
                             players=bots("ABCDEF") + bots("GH", "bot:heuristic"))
            tid, director = t["tournament"], t["director_token"]
            first = await draw(http, t, paper=[2])
            assert [tb["paper"] for tb in first["tables"]] == [False, True]
            # the paper table holds the round: the next one cannot be drawn yet
            assert "still being played" in (await draw(http, t, status=409))["error"]
            doc = (await http.get(f"/api/tournaments/{tid}")).json()
            paper = doc["rounds"][0]["tables"][1]
            url = f"/api/tournaments/{tid}/tables/{paper['matches'][0]['table']}/result"
            r = await http.post(url, json={"token": "not the director's", "scores": [15, 9, 15, 9]})
            assert r.status_code == 403
            r = await http.post(url, json={"token": director, "scores": [15, 9, 14, 9]})
            assert r.status_code == 400 and "partners" in r.json()["error"]
            for m, scores in zip(paper["matches"], ([15, 9, 15, 9], [7, 15, 7, 15]), strict=True):
                r = await http.post(f"/api/tournaments/{tid}/tables/{m['table']}/result",
                                    json={"token": director, "scores": scores})
                assert r.status_code == 200 and r.json()["corrected"] is False
            r = await http.post(url, json={"token": director, "scores": [9, 15, 9, 15]})   # a correction
            assert r.json()["corrected"] is True
            await until_round_over(http, t, 1)
            await draw(http, t)
            doc = await until_round_over(http, t, 2)
            assert doc["finished"] and doc["drawn"] == 2
            assert "all 2 rounds" in (await draw(http, t, status=409))["error"]
            log = [(c["table"], c["old"] and c["old"]["scores"], c["new"]["scores"]) for c in doc["corrections"]]
            assert log[-1] == (paper["matches"][0]["table"], [15, 9, 15, 9], [9, 15, 9, 15])
            per = await check_against_records(http, doc)
            standings = {s["name"]: s for s in doc["standings"]}
            for name, (won, points) in per.items():   # 20 per match won, then the match points
                assert standings[name]["score"] == 20 * won and standings[name]["tiebreaks"]["points"] == points
                assert standings[name]["matches"] == 4
            assert [s["rank"] for s in doc["standings"]] == sorted(s["rank"] for s in doc["standings"])
            # the director corrects an online match: its record stays, the result and the standings follow
            online = doc["rounds"][1]["tables"][0]
            m = online["matches"][0]
            flipped = [9 if w else 15 for w in m["result"]["won"]]
            r = await http.post(f"/api/tournaments/{tid}/tables/{m['table']}/result",
                                json={"token": director, "scores": flipped})
            assert r.status_code == 200 and r.json()["corrected"] is True
            after = (await http.get(f"/api/tournaments/{tid}")).json()
            assert after["rounds"][1]["tables"][0]["matches"][0]["result"]["scores"] == flipped
            assert after["corrections"][-1]["old"]["scores"] == m["result"]["scores"]
            winner = online["players"][m["result"]["won"].index(True)]
            assert {s["name"]: s["score"] for s in after["standings"]}[winner] == standings[winner]["score"] - 20
            doc = after
            rows = list(csv.reader(io.StringIO((await http.get(f"/api/tournaments/{tid}/standings.csv")).text)))
            assert rows[0][:3] == ["rank", "name", "score"] and [r[1] for r in rows[1:]] == \
                [s["name"] for s in doc["standings"]]
            for lang, word in (("en", "Standings"), ("de", "Rangliste"), ("it", "Classifica"), ("fr", "Classement")):
                page = await http.get(f"/tournaments/{tid}?lang={lang}")
                assert page.status_code == 200 and word in page.text
                assert not identifiers(readable(page.text)), identifiers(readable(page.text))
                # the standings' column heads begin with a capital, as the table's other heads do
                heads = re.findall(r'<th scope="col">([^<]*)</th>', page.text)
                assert heads and all(h[:1].isupper() or h == "#" for h in heads), heads
            sheet = await http.get(f"/tournaments/{tid}/sheet/1/2?lang=de")
            assert sheet.status_code == 200 and "Unterschrift" in sheet.text

    run(go(), timeout=80)


@pytest.mark.timeout(60)
def test_swiss_pairs_by_standing_and_never_repeats(server):
    async def go():
        async with http_client(server) as http:
            t = await create(http, game="watten", variant="bavarian_2", options={"target": 5, "lock_at": 3},
                             format={"kind": "swiss", "rounds": 3, "games_per_round": 1},
                             players=bots("ABCDE") + [{"name": "F", "kind": "bot:heuristic"}])
            for n in (1, 2, 3):
                await draw(http, t)
                doc = await until_round_over(http, t, n)
            met = [frozenset(tb["players"]) for r in doc["rounds"] for tb in r["tables"]]
            assert len(met) == len(set(met)) == 9, "two players met twice"
            per = await check_against_records(http, doc)
            scores = {s["name"]: s["score"] for s in doc["standings"]}
            assert scores == {name: 20 * won for name, (won, _points) in per.items()}
            # Buchholz: the final scores of the opponents each player met
            for s in doc["standings"]:
                opponents = [n for r in doc["rounds"] for tb in r["tables"] if s["name"] in tb["players"]
                             for n in tb["players"] if n != s["name"]]
                assert s["tiebreaks"]["buchholz"] == sum(scores[o] for o in opponents)
            assert doc["finished"]

    run(go(), timeout=50)


@pytest.mark.timeout(90)
def test_duplicate_tables_deal_the_same_cards_and_rank_by_match_points(server):
    async def go():
        async with http_client(server) as http:
            t = await create(http, game="biscambiggia", format={"kind": "duplicate", "rounds": 2, "games_per_round": 2},
                             players=[{"name": "Jo", "kind": "human"}] + bots("ABCDEFGHI"))
            token = t["players"][0]["token"]
            seats_by_round = []
            for n in (1, 2):
                tables = (await draw(http, t))["tables"]
                seats_by_round.append({name: seat for tb in tables for seat, name in enumerate(tb["players"])})
                mine = next(tb for tb in tables if "Jo" in tb["players"])
                other = next(tb for tb in tables if tb is not mine)
                # the bots' table ends first; its record holds the deals Jo is still to play: withheld
                for _ in range(300):
                    doc = (await http.get(f"/api/tournaments/{t['tournament']}")).json()
                    if next(tb for tb in doc["rounds"][n - 1]["tables"] if tb["table"] == other["table"])["finished"]:
                        break
                    await asyncio.sleep(0.1)
                r = await http.get(f"/api/tables/{other['table']}/record")
                assert r.status_code == 403 and "duplicate" in r.json()["error"]
                assert (await http.get(f"/api/records/{other['table']}")).status_code == 403
                # nor does an analysis of that table show its cards before the round is over
                r = await http.post(f"/api/tables/{other['table']}/analysis", json={"seat": 0})
                assert r.status_code == 409 and "round" in r.json()["error"]
                # Jo plays with the tournament's token: the seat token at each of Jo's tables
                c = SeatClient(server, mine["table"], token, seat=mine["players"].index("Jo"))
                await c.play(timeout=30)
                await c.close()
                doc = await until_round_over(http, t, n)
                a, b = await get_record(http, mine["table"]), await get_record(http, other["table"])
                deals = [[(e["seat"], e["cards"]) for e in rec["events"] if e["type"] == "deal"] for rec in (a, b)]
                assert deals[0] == deals[1] and len(deals[0]) == 2 * 5, "the tables were dealt different cards"
            assert all(seats_by_round[0][p] != seats_by_round[1][p] for p in seats_by_round[0]), \
                "a player held the same seat's cards twice"
            # match points: each result against the other table's at the same seat (1 beaten, 1/2 tied)
            mp = {p["name"]: 0.0 for p in doc["players"]}
            for rnd in doc["rounds"]:
                x, y = rnd["tables"]
                for seat in range(5):
                    sx, sy = x["result"]["scores"][seat], y["result"]["scores"][seat]
                    mp[x["players"][seat]] += 1.0 if sx > sy else 0.5 if sx == sy else 0.0
                    mp[y["players"][seat]] += 1.0 if sy > sx else 0.5 if sx == sy else 0.0
            assert {s["name"]: s["score"] for s in doc["standings"]} == mp
            assert [s["rank"] for s in doc["standings"] if s["name"] == "Jo"] == [1]   # the only person
            assert all(s["rank"] is None for s in doc["standings"] if s["bot"])

    run(go(), timeout=80)


@pytest.mark.timeout(120)
def test_kill9_mid_round_and_between_rounds_loses_nothing(server_factory):
    """The server dies (SIGKILL) while a person's table of round 1 waits, and again after round 1 is
    over; the restarted server finishes the round, makes each next match, draws round 2 from what is
    stored, and the results are the records'."""
    srv = server_factory("sqlite", args=("--bot-workers", "0"))   # bots think in threads: quicker restarts

    async def play(http, t: dict, round_no: int) -> None:
        token = t["players"][0]["token"]
        for match in range(2):
            doc = (await http.get(f"/api/tournaments/{t['tournament']}")).json()
            mine = next(tb for tb in doc["rounds"][round_no - 1]["tables"] if "Jo" in tb["players"])
            for _ in range(100):   # the next match appears once the previous one ends
                if len(mine["matches"]) > match:
                    break
                await asyncio.sleep(0.1)
                doc = (await http.get(f"/api/tournaments/{t['tournament']}")).json()
                mine = next(tb for tb in doc["rounds"][round_no - 1]["tables"] if "Jo" in tb["players"])
            c = SeatClient(srv, mine["matches"][match]["table"], token, seat=mine["players"].index("Jo"))
            await c.play(timeout=30)
            await c.close()

    async def go():
        async with http_client(srv) as http:
            t = await create(http, **WATTEN, format={"kind": "rounds", "rounds": 2, "games_per_round": 2},
                             players=[{"name": "Jo", "kind": "human"}] + bots("ABCDEFG"))
            await draw(http, t)
        await asyncio.to_thread(kill9_running, srv)   # mid-round: Jo's table waits for Jo
        await asyncio.to_thread(srv.start)
        async with http_client(srv) as http:
            doc = (await http.get(f"/api/tournaments/{t['tournament']}")).json()
            waiting = next(tb for tb in doc["rounds"][0]["tables"] if "Jo" in tb["players"])
            r = await http.post(f"/api/tournaments/{t['tournament']}/tables/{waiting['table']}/result",
                                json={"token": t["director_token"], "scores": [5, 0, 5, 0]})
            assert r.status_code == 409 and "still being played" in r.json()["error"]
            await play(http, t, 1)
            before = await until_round_over(http, t, 1)
        await asyncio.to_thread(kill9_running, srv)   # between rounds
        await asyncio.to_thread(srv.start)
        async with http_client(srv) as http:
            after = (await http.get(f"/api/tournaments/{t['tournament']}")).json()
            assert after["rounds"] == before["rounds"] and after["standings"] == before["standings"]
            await draw(http, t)
            await play(http, t, 2)
            doc = await until_round_over(http, t, 2)
            assert doc["finished"]
            per = await check_against_records(http, doc)
            assert {s["name"]: s["score"] for s in doc["standings"]} == {n: 20 * w for n, (w, _p) in per.items()}
            assert all(len(tb["matches"]) == 2 for r in doc["rounds"] for tb in r["tables"])
            ids = [m["table"] for r in doc["rounds"] for tb in r["tables"] for m in tb["matches"]]
            assert len(ids) == len(set(ids)) == 8

    run(go(), timeout=110)


def lang_switch(page: str) -> tuple[str, dict]:
    """Where a page's language switch goes: its form's address and hidden fields (base.html)."""
    form = re.search(r'<form class="lang" method="get" action="([^"]*)">(.*?)</form>', page, re.S)
    return form.group(1), dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group(2)))


def tournaments_stored(server) -> int:
    with sqlite3.connect(f"file:{server.db}?mode=ro", uri=True) as db:
        return db.execute("SELECT count(*) FROM tournaments").fetchone()[0]


@pytest.mark.timeout(60)
def test_the_directors_forms_refuse_bad_input_in_words_and_keep_the_key_from_everyone_else(server):
    """The browser's way (plain form posts, docs/tournaments.md "Run a tournament in the browser"): bad input
    is answered on the form in the reader's language and makes nothing; the director's key and the people's
    links are on the director's page only; a paper table of two matches holds the round until both are typed."""
    de = {"Accept-Language": "de"}

    async def go():
        async with http_client(server) as http:
            before = tournaments_stored(server)
            fields = {"play": "watten/tyrolean", "opt-target": "5", "format": "rounds", "rounds": "2", "games": "2",
                      "people": "Anna\nSepp\nanna", "bots": "0", "level": "beginner"}
            for changed, said in (({}, "Der Name „anna“ steht zweimal da"),
                                  ({"people": "Anna\nSepp\nVroni"}, "3 Spieler und Bots füllen keine Tische zu 4"),
                                  ({"people": ""}, "Die Namen der Personen eintragen")):
                r = await http.post("/tournaments/new", data={**fields, **changed}, headers=de)
                assert r.status_code == 400 and said in r.text, r.text
                assert 'value="2"' in r.text   # the form comes back as it was typed
                # its language switch asks for the form again (GET), for the same game, not the POST's address
                assert lang_switch(r.text) == ("/tournaments/new", {"play": "watten/tyrolean"})
            fields.update(people="Anna\nSepp\nVroni", bots="1")
            r = await http.post("/tournaments/new", data=fields, headers={"Sec-Fetch-Site": "cross-site"})
            assert r.status_code == 403   # another site's page may not make a visitor create one
            assert tournaments_stored(server) == before
            r = await http.post("/tournaments/new", data=fields)
            assert r.status_code == 303
            home = r.headers["location"]
            tid, key = home.split("/")[2].split("?director=")
            page = (await http.get(home)).text
            tokens = re.findall(r"\?token=([\w-]+)", page)
            assert len(tokens) == 3 and key in page
            r = await http.get(f"/tournaments/{tid}?token={tokens[1]}")
            assert "You play as Sepp." in r.text   # a person's link is theirs
            for url in (f"/tournaments/{tid}", f"/tournaments/{tid}?token={tokens[1]}",
                        f"/tournaments/{tid}?director={tokens[1]}"):
                text = (await http.get(url)).text
                assert key not in text and tokens[0] not in text and tokens[2] not in text and "?token=" not in text
            assert "does not belong to this tournament" in text
            # the draw: a wrong key draws nothing; the table on paper
            r = await http.post(f"/tournaments/{tid}/draw", data={"director": tokens[1]}, headers=de)
            assert r.status_code == 403 and "nur die Turnierleitung darf eine Runde auslosen" in r.text
            assert lang_switch(r.text) == (f"/tournaments/{tid}", {})   # a wrong key is not carried on
            r = await http.post(f"/tournaments/{tid}/draw", data={"director": key, "paper": "1"})
            assert r.status_code == 303 and r.headers["location"].endswith("#round-1")
            sheet = f"/tournaments/{tid}/result/1/1"
            r = await http.post(sheet, data={"director": key, "s-0-0": "5", "s-0-1": ""}, headers=de)
            assert r.status_code == 400 and "Partie 1: die Punkte jeder Seite eintragen." in r.text
            r = await http.post(sheet, data={"director": key, "s-0-0": "5", "s-0-1": "3"})
            assert r.status_code == 303
            r = await http.post(f"/tournaments/{tid}/draw", data={"director": key}, headers=de)
            assert r.status_code == 409 and "Runde 1 wird noch gespielt (0 von 1 Tischen fertig)" in r.text
            path, query = lang_switch(r.text)
            assert (path, query) == (f"/tournaments/{tid}", {"director": key})
            r = await http.get(path, params={**query, "lang": "it"})   # the switch used: the director's page
            assert r.status_code == 200 and r.headers["content-language"] == "it" and 'action="/tournaments/' in r.text
            r = await http.post(sheet, data={"director": key, "s-1-0": "2", "s-1-1": "5"})
            assert r.status_code == 303
            doc = (await http.get(f"/api/tournaments/{tid}")).json()
            assert doc["rounds"][0]["tables"][0]["finished"]
            assert [c["new"]["scores"] for c in doc["corrections"]] == [[5, 3, 5, 3], [2, 5, 2, 5]]
            assert sorted(s["score"] for s in doc["standings"]) == [20, 20, 20, 20]   # a match won by each side
            r = await http.post(f"/tournaments/{tid}/draw", data={"director": key})
            assert r.status_code == 303 and r.headers["location"].endswith("#round-2")

    run(go(), timeout=50)


@pytest.mark.timeout(60)
def test_a_players_tournaments_and_a_clubs(server):
    """Issue #37 with #36's players and clubs: the link opened while signed in binds the entry to the player
    (once, one entry a player), the profile and /me list the tournament with its rank; only a club's admin
    starts the club's tournaments (API and form, 403 in words for anyone else), the club's page lists them."""
    from tests.web.test_players import new_player

    async def go():
        async with http_client(server) as http:
            anna, bert = await new_player(http), await new_player(http)
            http.cookies.clear()   # who asks is the bearer header of each request
            r = await http.post("/api/clubs", json={"name": "Preiswatten Runde"}, headers=anna["headers"])
            club = r.json()["club"]
            body = {"game": "watten", "variant": "bavarian_2", "options": {"target": 5, "lock_at": 0},
                    "format": {"kind": "rounds", "rounds": 1, "games_per_round": 1},
                    "players": [{"name": "Anna"}, {"name": "Sepp"}]}
            before = tournaments_stored(server)
            for headers, cid, status in ((bert["headers"], club, 403), (anna["headers"], "nope", 403),
                                         ({}, club, 401)):
                r = await http.post("/api/tournaments", json={**body, "club": cid}, headers=headers)
                assert r.status_code == status, r.text
            assert r.json()["error"].startswith("sign in first")
            assert tournaments_stored(server) == before
            r = await http.post("/api/tournaments", json={**body, "club": club}, headers=anna["headers"])
            assert r.status_code == 201, r.text
            t = r.json()
            tid = t["tournament"]
            links = {p["name"]: p["url"] for p in t["players"]}
            # Anna opens her link signed in: hers; Bert opening it later takes nothing; Anna opening Sepp's
            # link keeps her one entry
            page = (await http.get(links["Anna"], headers=anna["headers"])).text
            assert "This tournament is in the history of your player " + anna["name"] in page
            for who, link in ((bert, links["Anna"]), (anna, links["Sepp"])):
                page = (await http.get(link, headers=who["headers"])).text
                assert "You play as" in page and 'id="in-history"' not in page
            assert 'id="in-history"' not in (await http.get(links["Anna"])).text   # nobody signed in
            # a paper table typed by the director: Anna wins, the standing is final
            rnd = await draw(http, t, paper=[1])
            seats = rnd["tables"][0]["players"]
            scores = [5 if n == "Anna" else 2 for n in seats]
            r = await http.post(f"/api/tournaments/{tid}/tables/{rnd['tables'][0]['table']}/result",
                                json={"token": t["director_token"], "scores": scores})
            assert r.status_code == 200, r.text
            for url in (f"/players/{anna['name']}", "/me"):
                page = (await http.get(url, headers=anna["headers"])).text
                row = re.search(rf'<tr data-tournament="{tid}">(.*?)</tr>', page, re.S)
                assert row and 'data-rank="1"' in row.group(1) and "1 of 2" in row.group(1), page
                assert "The tournament is over." in row.group(1)
            assert f'data-tournament="{tid}"' not in (await http.get(f"/players/{bert['name']}")).text
            data = (await http.get("/api/me/data", headers=anna["headers"])).json()
            assert [(x["tournament"], x["name"], x["rank"], x["of"]) for x in data["tournaments"]] == [
                (tid, "Anna", 1, 2)]
            # the club lists it; its admin starts another from the club's page through the form
            assert [x["tournament"] for x in (await http.get(f"/api/clubs/{club}", headers=anna["headers"])
                                              ).json()["tournaments"]] == [tid]
            page = (await http.get(f"/clubs/{club}", headers=anna["headers"])).text
            assert f'data-tournament="{tid}"' in page and f'href="/tournaments/new?club={club}"' in page
            r = await http.get(f"/tournaments/new?club={club}", headers=bert["headers"])
            assert r.status_code == 403 and "Only an admin of this club can start a tournament" in r.text
            r = await http.get(f"/tournaments/new?club={club}&play=watten/bavarian_2", headers=anna["headers"])
            assert r.status_code == 200 and "Preiswatten Runde" in r.text
            forms = re.findall(r'<form method="(?:get|post)" action="/tournaments/new".*?</form>', r.text, re.S)
            assert len(forms) == 2 and all(f'name="club" value="{club}"' in f for f in forms)   # both carry it
            # the club's preset gives the form its game, variant and options (its seats and settings stay out)
            preset = {"game": "watten", "variant": "bavarian_2", "options": {"target": 7}, "seats": ["human", "bot"],
                      "timer": "fast"}
            r = await http.post(f"/api/clubs/{club}/presets", json={"name": "Hausregel", "table": preset},
                                headers=anna["headers"])
            pid = r.json()["preset"]
            r = await http.get(f"/tournaments/new?club={club}&preset={pid}", headers=anna["headers"])
            assert r.status_code == 200 and f'<option value="{pid}" selected>Hausregel</option>' in r.text
            assert '<input type="hidden" name="play" value="watten/bavarian_2">' in r.text
            assert re.search(r'name="opt-target" type="number"[^>]* value="7"', r.text), r.text
            r = await http.get(f"/tournaments/new?club={club}&preset={pid + 1}", headers=anna["headers"])
            assert r.status_code == 404 and "This club has no such preset." in r.text
            fields = {"play": "watten/bavarian_2", "format": "rounds", "rounds": "1", "games": "1",
                      "people": "Vroni", "bots": "1", "level": "beginner", "club": club}
            r = await http.post("/tournaments/new", data=fields, headers=bert["headers"])
            assert r.status_code == 403 and tournaments_stored(server) == before + 1
            r = await http.post("/tournaments/new", data=fields, headers=anna["headers"])
            assert r.status_code == 303, r.text
            listed = (await http.get(f"/api/clubs/{club}", headers=anna["headers"])).json()["tournaments"]
            assert len(listed) == 2 and listed[1]["tournament"] == tid and not listed[0]["finished"]
            # a deleted account's entry stays in the tournament under its name, bound to nobody
            assert (await http.request("DELETE", "/api/me", headers=anna["headers"])).status_code == 204
            with sqlite3.connect(f"file:{server.db}?mode=ro", uri=True) as db:
                assert db.execute("SELECT name, player_id FROM tournament_players WHERE tournament_id = ? "
                                  "ORDER BY number", (tid,)).fetchall() == [("Anna", None), ("Sepp", None)]

    run(go(), timeout=50)


@pytest.mark.timeout(60)
def test_registration_by_link_until_round_1(server):
    """docs/tournaments.md "Registration by link": people register on the join page (a name taken is refused in
    the reader's words) or, signed in, through the API under their player's name (bound at once); the first
    draw counts the tables (409 in words while short, bots fill on request); registration closes with it, or
    earlier by the director's hand (and opens again until round 1)."""
    from tests.web.test_players import new_player

    de = {"Accept-Language": "de"}

    async def go():
        async with http_client(server) as http:
            anna = await new_player(http)
            http.cookies.clear()
            t = await create(http, game="watten", variant="bavarian_2", options={"target": 5, "lock_at": 0},
                             format={"kind": "rounds", "rounds": 1, "games_per_round": 1},
                             players=[{"name": "Vroni"}], registration=True)
            tid, key = t["tournament"], t["director_token"]
            join = f"/tournaments/{tid}/join"
            assert f'href="{join}"' in (await http.get(f"/tournaments/{tid}")).text   # the public page offers it
            assert f"{join}\"" in (await http.get(f"/tournaments/{tid}?director={key}")).text
            r = await http.post(join, data={"name": "vroni"}, headers=de)
            assert r.status_code == 409 and "Der Name „vroni“ ist in diesem Turnier schon vergeben" in r.text
            r = await http.post(join, data={"name": "Sepp"})
            assert r.status_code == 303 and r.headers["location"].startswith(f"/tournaments/{tid}?token=")
            assert "You play as Sepp." in (await http.get(r.headers["location"])).text
            api = f"/api/tournaments/{tid}/players"
            r = await http.post(api, json={}, headers=anna["headers"])   # signed in: the player's name, bound
            assert r.status_code == 201 and r.json()["name"] == anna["name"], r.text
            r = await http.post(api, json={}, headers=anna["headers"])
            assert r.status_code == 409 and "registered in this tournament already" in r.json()["error"]
            assert (await http.post(api, json={"name": ""})).status_code == 400
            mine = (await http.get("/api/me/data", headers=anna["headers"])).json()["tournaments"]
            assert [x["tournament"] for x in mine] == [tid]
            page = (await http.get(f"/tournaments/{tid}?director={key}")).text
            assert page.count("registered by link") == 2 and "3 registered so far." in page
            # the director closes registration before the draw (the page's form): nobody registers meanwhile
            close = f"/tournaments/{tid}/registration"
            r = await http.post(close, data={"director": "wrong", "open": "no"}, headers=de)
            assert r.status_code == 403 and "nur die Turnierleitung darf die Anmeldung schließen" in r.text
            r = await http.post(close, data={"director": key, "open": "no"})
            assert r.status_code == 303 and r.headers["location"].endswith("#registration")
            assert 'id="registration-closed"' in (await http.get(r.headers["location"])).text
            r = await http.post(join, data={"name": "Zenzi"}, headers=de)
            assert r.status_code == 409 and "Die Turnierleitung hat sie geschlossen" in r.text
            r = await http.post(api, json={"name": "Zenzi"})
            assert r.status_code == 409 and r.json() == {"error": "registration is closed: the director has closed it"}
            assert not (await http.get(f"/api/tournaments/{tid}")).json()["registration"]
            for body, status in (({"token": key}, 400), ({"token": key, "open": "yes"}, 400),
                                 ({"token": "wrong", "open": True}, 403)):
                r = await http.post(f"/api/tournaments/{tid}/registration", json=body)
                assert r.status_code == status, r.text
            r = await http.post(f"/api/tournaments/{tid}/registration", json={"token": key, "open": True})
            assert r.status_code == 200 and r.json() == {"tournament": tid, "registration": True}
            assert (await http.get(f"/api/tournaments/{tid}")).json()["registration"]
            r = await http.post(f"/api/tournaments/{tid}/registration", json={"token": key, "open": False})
            assert r.status_code == 200 and r.json()["registration"] is False
            # three people at tables of two: the draw says how many are missing, then bots fill on request
            r = await http.post(f"/tournaments/{tid}/draw", data={"director": key}, headers=de)
            assert r.status_code == 409 and "3 Spieler füllen keine Tische zu 2: 1 müssen sich noch anmelden" in r.text
            r = await http.post(f"/api/tournaments/{tid}/rounds", json={"token": key, "fill": "bot:nope"})
            assert r.status_code == 400
            assert (await http.get(f"/api/tournaments/{tid}")).json()["drawn"] == 0
            rnd = await draw(http, t, paper=[1, 2], fill="bot:random")
            assert sorted(n for tb in rnd["tables"] for n in tb["players"]) == sorted(
                ["Vroni", "Sepp", anna["name"], "Bot 1"])
            r = await http.post(api, json={"name": "Zenzi"})
            assert r.status_code == 409 and r.json() == {"error": "registration is closed: round 1 is drawn"}
            r = await http.post(f"/api/tournaments/{tid}/registration", json={"token": key, "open": True})
            assert r.status_code == 409 and r.json() == {"error": "registration is closed: round 1 is drawn"}
            assert "Registration is closed" in (await http.get(join)).text
            doc = (await http.get(f"/api/tournaments/{tid}")).json()
            assert not doc["registration"] and [p["kind"] for p in doc["players"]] == ["human"] * 3 + ["bot"]
            # a tournament whose director registers the players takes nobody by link; 'fill' is refused there
            other = await create(http, **WATTEN, format={"kind": "rounds", "rounds": 1, "games_per_round": 1},
                                 players=bots("ABCD"))
            r = await http.post(f"/api/tournaments/{other['tournament']}/players", json={"name": "Zenzi"})
            assert r.status_code == 409 and "takes no registrations" in r.json()["error"]
            r = await http.post(f"/api/tournaments/{other['tournament']}/registration",
                                json={"token": other["director_token"], "open": False})
            assert r.status_code == 409 and "takes no registrations" in r.json()["error"]
            await draw(http, other, status=400, fill="bot:random")

    run(go(), timeout=50)
