"""Every page passes axe-core with 0 violations, in the browser's language, and the language is switchable."""

from __future__ import annotations

import pytest

from tests.web.browser.conftest import api, run_axe


def finished_table(server) -> str:
    """A finished Battn match with bots only is too long for a test: play a Watten hand's worth of a
    two-player Bavarian match by bots until it is over."""
    made = api(server, "/api/tables", {"game": "watten", "variant": "bavarian_2", "options": {"target": 2},
                                       "seats": ["bot:random", "bot:random"], "test": {"seed": 4}})
    return made["table"]


@pytest.mark.parametrize("locale,lang,word", [("de-DE", "de", "Schnell spielen"), ("it-IT", "it", "Partita veloce"),
                                              ("en-GB", "en", "Quick play"), ("fr-FR", "fr", "Partie rapide")])
def test_home_in_the_browsers_language_and_axe_clean(server, new_page, locale, lang, word):
    page = new_page(locale=locale)
    page.goto(server.base_url + "/")
    assert page.get_attribute("html", "lang") == lang
    assert word in page.locator("main").inner_text()
    assert run_axe(page) == []


def test_every_page_axe_clean_and_language_switch_is_remembered(server, new_page):
    page = new_page(locale="en-GB")
    table = finished_table(server)
    page.goto(server.base_url + "/")
    page.select_option("#lang-select", "it")
    page.click(".lang button")
    assert page.get_attribute("html", "lang") == "it"
    urls = ["/lobby", "/rules/watten", "/rules/barbu", "/replay", f"/replay/{table}?step=3", f"/t/{table}"]
    for _ in range(100):   # the bots finish the short match
        try:
            api(server, f"/api/tables/{table}/record")
            break
        except Exception:
            page.wait_for_timeout(100)
    for url in urls:
        page.goto(server.base_url + url)
        if url.startswith("/t/"):
            page.wait_for_selector("#table .table")
        assert page.get_attribute("html", "lang") == "it", url   # remembered by the cookie
        assert run_axe(page) == [], url
        assert not page.js_errors, page.js_errors
    page.goto(server.base_url + f"/replay/{table}?step=3")
    assert "Passo 3 di" in page.locator("main").inner_text()
    # the step's action in words ("Posto 2: gioca: ..."), not the record's text ("play LU")
    seat, action = api(server, f"/api/tables/{table}/record")["actions"][2]
    status = page.locator("main p[role=status]").inner_text()
    assert f"Posto {seat + 1}: " in status and action not in status, (status, action)
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**step=4**")
    page.select_option("#trick-step", index=1)          # the end of the second trick
    page.click("#trick-step ~ button")
    page.wait_for_url("**step=**")
    assert "Mano 1, presa 2" in page.locator("#trick-step option:checked").inner_text()
    assert run_axe(page) == []


def test_record_upload_replays(server, new_page, tmp_path):
    table = finished_table(server)
    record = None
    for _ in range(100):
        try:
            record = api(server, f"/api/tables/{table}/record")
            break
        except Exception:
            import time
            time.sleep(0.1)
    assert record is not None
    path = tmp_path / "record.json"
    import json
    path.write_text(json.dumps(record))
    page = new_page()
    page.goto(server.base_url + "/replay")
    page.set_input_files("#record-file", str(path))
    page.click("main form button[type=submit]")
    page.wait_for_url("**/replay/*")            # stored: the replay has its own address to share
    page.wait_for_selector("#table .table")
    page.click("text=Next")
    page.wait_for_url("**step=1**")
    assert "Step 1 of" in page.locator("main").inner_text()
    assert run_axe(page) == []
    # without JavaScript the form posts the file and the record is stepped in the page itself
    plain = new_page(java_script_enabled=False)
    plain.goto(server.base_url + "/replay")
    plain.set_input_files("#record-file", str(path))
    plain.click("main form button[type=submit]")
    plain.wait_for_selector("#table .table")
    assert "Step 0 of" in plain.locator("main").inner_text()
    plain.click("text=Next")
    assert "Step 1 of" in plain.locator("main").inner_text()


def test_quick_play_is_one_click_from_the_home_page(server, new_page):
    page = new_page(locale="de-DE")
    page.goto(server.base_url + "/")
    page.fill("#player-name", "Lena")
    page.dispatch_event("#player-name", "change")
    page.get_by_role("button", name="Biscambiggia chiamata spielen").click()
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#table .table")
    assert "token=" not in page.url
    assert "Du (Platz 1)" in page.locator("#table .felt").inner_text()
    assert page.locator("#table .hand li").count() == 8


def test_create_a_table_with_options_and_seats_then_join_from_the_lobby(server, new_page):
    page = new_page(locale="en-GB")
    page.goto(server.base_url + "/")
    page.select_option("#c-game", "watten")
    page.select_option("#v-watten", "bavarian_4")
    # options that do not apply to the variant are hidden; the others carry their explanation
    assert page.locator("#o-watten-schlagtausch").is_hidden()
    page.locator("#create details summary").first.click()
    assert page.locator("#h-watten-maschine").inner_text().startswith("All three Kritische")
    page.select_option("#o-watten-maschine", "on")
    page.fill("#o-watten-target", "9")
    page.select_option("#seat-1", "human")
    page.check("#c-public")
    page.click("#create button[type=submit]")
    page.wait_for_selector("#created li a")
    links = page.locator("#created li a").all_inner_texts()
    assert len(links) == 3 and "/t/" in links[0] and "token=" in links[0]   # two invite links, one watch link
    assert run_axe(page) == []
    table = links[0].split("/t/")[1].split("?")[0]
    page.locator("#created li a").first.click()          # the creator sits down in seat 1
    page.wait_for_selector("#table .table")
    # the second person's seat is free in the lobby: another browser takes it
    other = new_page(locale="fr-FR")
    other.goto(server.base_url + "/lobby")
    join = other.locator(f'#tables button[aria-label*="{table}"]')
    join.wait_for()
    assert "Watten · bavarois, 4 joueurs" in other.locator("#tables").inner_text()   # names, not identifiers
    join.click()
    other.wait_for_url("**/t/**")
    other.wait_for_selector("#table .table")
    assert "Vous (Place 2)" in other.locator("#table .felt").inner_text()


def test_a_bad_option_gets_the_engines_words(server, new_page):
    page = new_page()
    page.goto(server.base_url + "/")
    page.select_option("#c-game", "watten")
    page.locator("#create details summary").first.click()
    page.fill("#o-watten-target", "0")
    page.evaluate("document.querySelector('#o-watten-target').removeAttribute('min')")
    page.click("#create button[type=submit]")
    page.wait_for_selector("#errors p")
    assert "target" in page.locator("#errors").inner_text()


def test_dark_scheme_and_reduced_motion_pages_are_axe_clean(server, new_page):
    made = api(server, "/api/tables", {"game": "watten", "variant": "euregio",
                                       "seats": ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]})
    page = new_page(locale="de-DE", color_scheme="dark", reduced_motion="reduce")
    for url in ("/", "/lobby", made["seats"][0]["url"]):
        page.goto(server.base_url + url)
        if "/t/" in url:
            page.wait_for_selector("#table .table")
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        assert run_axe(page) == [], url
    # no transition on the cards when the reader asked for less motion
    assert page.evaluate("getComputedStyle(document.querySelector('#table .card')).transitionDuration") in ("0s", "")
