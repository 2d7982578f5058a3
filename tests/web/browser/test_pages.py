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
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**step=4**")


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
    page.wait_for_selector("#table .table")
    assert "Step 0 of" in page.locator("main").inner_text()
    page.click("text=Next")
    assert "Step 1 of" in page.locator("main").inner_text()
    assert run_axe(page) == []
