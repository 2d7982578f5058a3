"""Players in the browser: four people become players on /me, play a rated four-player Watten match
(started near its end through the test hook), each sees the seat list with the players' names; the
first sees the result on the profile with the rating's change and its graph, shows a one-time code
and signs in with it in a second browser context; a player deletes the account."""

from __future__ import annotations

import random
import re
import urllib.error
import urllib.request

from tests.web.browser.conftest import api, run_axe
from tests.web.browser.helpers import open_table, play_until


def become(page, base: str, name: str) -> None:
    page.goto(base + "/me")
    page.fill("#become-name", name)
    page.click("#become button[type=submit]")
    page.wait_for_selector("#signed-in")
    assert page.get_attribute("#signed-in", "data-player") == name


def test_players_play_a_rated_match_and_sign_in_elsewhere(server, new_page):
    base = server.base_url
    run_id = random.randrange(10**6)
    names = [f"{who}{run_id}" for who in ("Anna", "Bert", "Cilli", "Done")]
    pages = [new_page(locale=loc) for loc in ("en-GB", "de-DE", "it-IT", "fr-FR")]
    for page, name in zip(pages, names, strict=True):
        become(page, base, name)
    assert run_axe(pages[0]) == []
    # a rated table: every seat human; the test hook starts the match at 17:17 of 18
    made = api(server, "/api/tables", {"game": "watten", "variant": "euregio", "rated": True,
                                       "seats": ["human"] * 4, "bot_delay": 0,
                                       "test": {"seed": 4242, "setup": {"scores": [17, 17]}}})
    for page, seat in zip(pages, made["seats"], strict=True):
        open_table(page, seat["url"], base)
    # the seats carry the players' names (their cookie went with the table's socket; one's own seat is "you")
    felt = pages[0].locator("#table")
    for name in names[1:]:
        felt.get_by_text(name).first.wait_for(timeout=10000)
    play_until(pages, lambda: pages[0].locator("#winner").count() > 0, timeout=120)
    profile = api(server, f"/api/players/{names[0]}")
    [match] = profile["matches"]
    assert match["table"] == made["table"] and match["rated"] and match["result"] in ("won", "lost")
    change = round(match["after"] - match["before"])
    assert (change > 0) == (match["result"] == "won")
    # the profile page: the result, the change and the graph
    page = pages[0]
    page.goto(f"{base}/players/{names[0]}")
    row = page.locator(f'tr[data-table="{made["table"]}"]')
    assert row.locator(f'[data-change="{change}"]').count() == 1
    assert row.get_by_role("link", name="Replay").get_attribute("href") == f"/replay/{made['table']}"
    assert row.locator(f'a[href="/players/{names[2]}"]').count() == 1          # the partner, linked
    graph = page.locator('.rating-graph svg[data-key="watten/4"]')
    assert graph.is_visible() and graph.locator("circle").count() == 2      # 1500, then after the match
    assert run_axe(page) == []
    # a one-time code, shown here, signs in a second context
    page.goto(base + "/me")
    page.click("#show-code")
    page.wait_for_selector("#code[data-code]")
    code = page.get_attribute("#code", "data-code")
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code)
    other = new_page(locale="en-GB")
    other.goto(base + "/me")
    other.fill("#signin-name", names[0].lower())
    other.fill("#signin-code", code)
    other.click("#signin button[type=submit]")
    other.wait_for_selector("#signed-in")
    assert other.get_attribute("#signed-in", "data-player") == names[0]
    # the code worked once: a third context is refused, with no word on whether the name exists
    third = new_page(locale="en-GB")
    third.goto(base + "/me")
    third.fill("#signin-name", names[0])
    third.fill("#signin-code", code)
    third.click("#signin button[type=submit]")
    third.wait_for_selector("#errors p")
    assert "do not match" in third.locator("#errors").inner_text()
    # deleting an account: the name is gone, the match's record keeps an anonymous seat
    last = pages[3]
    last.goto(base + "/me")
    last.fill("#delete-confirm", names[3])
    last.click("#delete-form button[type=submit]")
    last.wait_for_url(base + "/")
    try:
        urllib.request.urlopen(f"{base}/api/players/{names[3]}", timeout=10)
        raise AssertionError("the deleted player still has a profile")
    except urllib.error.HTTPError as exc:
        assert exc.code == 404
    record = api(server, f"/api/tables/{made['table']}/record")
    assert record["web"]["seats"][3]["name"] is None and record["web"]["seats"][0]["name"] == names[0]
    for p in pages + [other, third]:
        assert not p.js_errors, p.js_errors


def test_the_create_form_makes_a_rated_table(server, new_page):
    page = new_page(locale="en-GB")
    page.goto(server.base_url + "/")
    page.select_option("#c-game", "watten")
    page.select_option("#v-watten", "bavarian_4")
    page.check("#c-rated")
    page.click("#create button[type=submit]")          # bots in seats 2-4: the server says why not
    page.wait_for_selector("#errors p")
    assert "people only" in page.locator("#errors").inner_text()
    for seat in (1, 2, 3):
        page.select_option(f"#seat-{seat}", "human")
    page.click("#create button[type=submit]")
    page.wait_for_selector("#created li a")
    table = page.locator("#created li a").first.get_attribute("href").split("/t/")[1].split("?")[0]
    assert api(server, f"/api/tables/{table}")["rated"] is True
    assert not page.js_errors, page.js_errors


def test_a_name_sent_before_the_page_has_its_api_module_still_makes_the_player(server, new_page):
    """A person quicker than the page's scripts still becomes a player: the form's handler is wired when
    the page is parsed, and waits for the API module itself (held back here until after the click).  A
    handler wired only once that module had come (a top-level await) let the form go to the server as a
    plain GET, and the person stayed a guest."""
    page = new_page(service_workers="block")   # every request goes through the route below
    held = []
    page.route("**/static/api.js*", lambda route: held.append(route))
    page.goto(server.base_url + "/me", wait_until="domcontentloaded")
    name = f"Quick{random.randrange(10**6)}"
    page.fill("#become-name", name)
    page.click("#become button[type=submit]")
    page.wait_for_timeout(300)
    assert held and "?" not in page.url, page.url   # no plain submission went anywhere
    for route in held:
        route.continue_()
    page.unroute("**/static/api.js*")
    page.wait_for_selector("#signed-in")
    assert page.get_attribute("#signed-in", "data-player") == name
