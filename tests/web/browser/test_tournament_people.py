"""Four people and four bots play a tournament round in the browser (issue #37's "one with four people in
the browser and bots"): each person opens their own tournament link, goes to their table from it, plays
their match there as on any table, and the tournament's standings count what the tables' records say."""

from __future__ import annotations

import urllib.parse

from tests.web.browser.conftest import api
from tests.web.browser.helpers import play_until

PEOPLE = ["Anna", "Beat", "Cilli", "Daniel"]


def test_four_people_play_their_tournament_tables_in_the_browser(server, new_page):
    made = api(server, "/api/tournaments", {
        "game": "watten", "variant": "tyrolean", "options": {"target": 3, "lock_at": 1},
        "format": {"kind": "rounds", "rounds": 1, "games_per_round": 1},
        "players": [{"name": n, "kind": "human"} for n in PEOPLE]
                   + [{"name": f"Bot {i}", "kind": "bot:heuristic"} for i in range(4)]})
    tid = made["tournament"]
    drawn = api(server, f"/api/tournaments/{tid}/rounds", {"token": made["director_token"]})
    assert drawn["round"] == 1 and len(drawn["tables"]) == 2
    pages = []
    for person in [p for p in made["players"] if p["name"] in PEOPLE]:   # bots have no link
        page = new_page(locale="en-GB")
        page.goto(server.base_url + person["url"])
        # the tournament page leads each person to the table the draw gave them, and to no other
        go = page.locator("main a.button", has_text="Go to your table")
        href = go.get_attribute("href")
        mine = next(t["table"] for t in drawn["tables"] if person["name"] in t["players"])
        assert urllib.parse.urlparse(href).path == f"/t/{mine}"
        go.click()
        page.wait_for_selector("#table .table", timeout=15000)
        pages.append(page)

    def over() -> bool:
        doc = api(server, f"/api/tournaments/{tid}")
        return all(t["finished"] for t in doc["rounds"][0]["tables"])

    play_until(pages, over, timeout=120)
    doc = api(server, f"/api/tournaments/{tid}")
    assert doc["finished"]
    # each table's result is its record's: the side whose match it was won it, and reached the target
    points: dict[str, float] = {}
    for t in doc["rounds"][0]["tables"]:
        record = api(server, f"/api/tables/{t['table']}/record")
        assert record["terminal"]
        assert [s["name"] for s in record["web"]["seats"]] == t["players"]   # who sat where, by name
        for seat, name in enumerate(t["players"]):
            won = record["returns"][seat] > 0
            assert t["result"]["won"][seat] == won
            assert (t["result"]["scores"][seat] >= 3) == won
            points[name] = 20 * won
    ranked = [s for s in doc["standings"] if s["rank"] is not None]
    assert sorted(s["name"] for s in ranked) == sorted(PEOPLE)   # the bots filled seats, unranked
    assert all(s["score"] == points[s["name"]] for s in ranked)
    # the people's pages end as any table's: the match is over for each of them
    for page in pages:
        page.wait_for_selector("#table [data-hand-result], #table .winner", timeout=15000)
        assert not page.js_errors, page.js_errors
