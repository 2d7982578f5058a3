"""A finished match's replay, analysed in the browser (issue #38): "Analyse" for a seat runs the
analysis on the server, then the replay shows every decision of the seat marked, in the reader's
language, each a link to its moment, and at a decision its alternatives with their values and what
the seat could not know."""

from __future__ import annotations

import time

from tests.web.browser.conftest import api, screenshot


def _finished_table(server) -> str:
    made = api(server, "/api/tables", {"game": "watten", "variant": "euregio", "seats": ["bot:random"] * 4,
                                       "options": {"target": 3, "lock_at": 1}})
    end = time.monotonic() + 30
    while not api(server, f"/api/tables/{made['table']}")["finished"]:
        assert time.monotonic() < end, "the bots' match did not end"
        time.sleep(0.1)
    return made["table"]


def test_the_replay_analyses_a_seat_and_links_each_decision(server, new_page):
    table = _finished_table(server)
    page = new_page(locale="de-DE")
    page.goto(server.base_url + f"/replay/{table}?lang=de")
    page.select_option("#analyse-seat", "1")
    page.click("#analyse-form button")
    page.wait_for_url("**analysis=1**", timeout=60_000)
    result = api(server, f"/api/tables/{table}/analysis?seat=1")
    assert result["status"] == "done" and result["decisions"]
    rows = page.locator(".decisions li")
    assert rows.count() == len(result["decisions"])
    words = {"good": "gut", "inaccuracy": "Ungenauigkeit", "mistake": "Fehler", "blunder": "grober Fehler"}
    for i, d in enumerate(result["decisions"]):
        row = rows.nth(i)
        assert row.locator(".mark").inner_text() == words[d["mark"]]
        assert row.locator("a").get_attribute("href").startswith(f"/replay/{table}?step={d['step']}&analysis=1")
    # the page opened at the first marked decision (or where it stood): a link to that moment is shown
    marked = next((d for d in result["decisions"] if d["mark"] != "good"), None)
    if marked is None:   # nothing marked: open the first decision through its link
        rows.nth(0).locator("a").click()
        marked = result["decisions"][0]
    assert f"step={marked['step']}&analysis=1" in page.url
    shown = page.locator("#decision")
    assert shown.locator(".mark").inner_text() == words[marked["mark"]]
    values = shown.locator(".alternatives tbody tr")
    assert values.count() == len(marked["alternatives"])
    assert [float(values.nth(i).locator("td").nth(1).inner_text()) for i in range(values.count())] == [
        round(a["value"], 2) for a in marked["alternatives"]]
    if marked["action"].split()[0] != "cut":
        assert "Verteilungen, die zu dem passen, was du gesehen hattest" in shown.locator(".knew").inner_text()
    assert page.locator("a", has_text=f"step={marked['step']}&analysis=1").count() == 1   # link to this moment
    assert page.js_errors == []
    screenshot(page, "replay-analysis")
