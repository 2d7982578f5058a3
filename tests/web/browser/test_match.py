"""A whole quick match in the browser, the bot levels of the forms, and the large and dark screens."""

from __future__ import annotations

import re
import time

from tests.web.browser.conftest import api, run_axe, screenshot
from tests.web.browser.helpers import act, open_table

UHD = {"width": 3840, "height": 2160}
PHONE = {"width": 390, "height": 844}


def test_quick_play_and_the_create_form_offer_the_bot_levels(server, new_page):
    page = new_page(locale="it-IT")
    page.goto(server.base_url + "/")
    # four levels, weakest first, each with its one line in the reader's language
    levels = page.locator('#quick-level input[name="level"]')
    assert [levels.nth(i).get_attribute("value") for i in range(levels.count())] == ["beginner", "club", "strong",
                                                                                      "max"]
    assert page.is_checked("#level-strong")                                  # quick play's strength so far
    assert "Immediato" in page.locator("label[for=level-club]").inner_text()
    assert page.locator("#level-help-max").inner_text() in page.locator("#levels-help").inner_text()
    # the choice is remembered in this browser and sent with quick play, with a pause for the bots
    page.locator("label[for=level-club]").click()
    page.reload()
    assert page.is_checked("#level-club")
    page.get_by_role("button", name="Gioca a Watten").click()
    page.wait_for_url("**/t/**")
    table = re.search(r"/t/([^/?#]+)", page.url).group(1)
    meta = api(server, f"/api/tables/{table}")
    assert [s.get("bot") for s in meta["seats"]] == [None, "club", "club", "club"]
    assert meta["settings"]["bot_delay"] == 1.0
    page.wait_for_selector("#table .table")
    assert page.locator("#table .felt").inner_text().count("bot · da circolo") == 3   # each bot's level
    # the create form: a level per seat; seats past the variant's count are not on the form at all
    page.goto(server.base_url + "/")
    page.select_option("#c-game", "watten")
    page.select_option("#v-watten", "bavarian_3")
    assert page.locator("#seat-2").is_visible() and not page.locator("#seat-3").is_visible()
    assert page.input_value("#seat-1") == "bot:strong"
    page.select_option("#seat-1", "bot:beginner")
    page.select_option("#seat-2", "bot:max")
    page.select_option("#c-bot-delay", "0")
    assert "principiante" in page.locator("#seat-1 option:checked").inner_text()
    page.click("#create button[type=submit]")
    page.wait_for_selector("#created li a")
    table = page.locator("#created li a").first.get_attribute("href").split("/t/")[1].split("?")[0]
    meta = api(server, f"/api/tables/{table}")
    assert [s.get("bot") for s in meta["seats"]] == [None, "beginner", "max"]
    assert meta["settings"]["bot_delay"] == 0.0
    assert run_axe(page) == []
    assert not page.js_errors, page.js_errors


def test_a_quick_match_against_bots_to_its_end(server, new_page):
    # Watten Euregio to 5 points: a few hands; the page is played with the mouse, as a person does
    # a short pause for the bots (0.3 s a move): with none, a trick a bot won and led from at once
    # could leave the felt before the page was looked at, and a run saw no gathered trick at all
    made = api(server, "/api/quickplay", {"game": "watten", "variant": "euregio", "options": {"target": 5},
                                          "bot": "club", "bot_delay": 0.3})
    page = open_table(new_page(locale="de-DE"), made["url"], server.base_url)
    saw_gathered = double_clicked = False
    end = time.time() + 120
    while page.locator("#winner").count() == 0:
        assert time.time() < end, "the match did not end"
        # the trick just won stays on the felt, with who won it (read at once: the page changes under us)
        gathered = page.evaluate("""() => { const t = document.querySelector('#table [data-trick].gathered');
            const by = document.querySelector('#table .won-by');
            return t ? [t.querySelectorAll('li').length, by?.textContent] : [0]; }""")
        if gathered[0] == 4:
            # by a seat ("Gewonnen von Platz 2") or by the reader, in the reader's own words
            assert gathered[1].startswith(("Gewonnen von ", "Du hast ihn gewonnen")), gathered
            if not saw_gathered:   # the last trick on demand: key L opens it (and it stays open)
                page.keyboard.press("l")
                page.wait_for_selector("#last-trick[open] .played li", timeout=5000)
                assert page.locator("#last-trick .played li").count() == 4
                assert page.evaluate("document.activeElement.matches('#last-trick summary')")
            saw_gathered = True
        cards = page.locator('.table[data-turn="me"] button.play')
        if not double_clicked and cards.count() >= 2:
            # two quick clicks are one decision: the second finds the table's controls waiting
            before = int(page.get_attribute(".table", "data-seq"))
            page.evaluate("() => { const b = document.querySelectorAll('#table button.play'); "
                          "b[0].click(); b[1].click(); }")
            page.wait_for_function(f"+document.querySelector('.table').dataset.seq > {before}", timeout=10000)
            page.wait_for_timeout(300)
            assert page.locator("#errors").inner_text().strip() == ""
            double_clicked = True
        elif not act(page):
            page.wait_for_timeout(40)
    assert saw_gathered and double_clicked
    assert page.locator("#turn").inner_text() == "Die Partie ist vorbei."
    # who won: the side with the higher score, as the score table says; then a replay and a new game
    scores = page.locator("#table .scores tr")
    rows = [scores.nth(i).inner_text().split("\t") for i in range(scores.count())]
    best = max(rows, key=lambda r: int(r[-1]))
    assert page.locator("#winner").inner_text() == f"{best[0].strip()} gewinnt die Partie ({best[-1].strip()})."
    assert int(best[-1]) >= 5
    assert page.locator('#table .actions button, #table button.play').count() == 0   # nothing left to decide
    screenshot(page, "watten-match-end")
    assert run_axe(page) == []
    page.click("text=Wiederholung ansehen")
    page.wait_for_url(f"**/replay/{made['table']}")
    assert page.locator("main h1").count() == 1
    assert not page.js_errors, page.js_errors


def test_an_opened_summary_keeps_the_focus_while_the_bots_move(server, new_page):
    """Each frame renders the table anew; a keyboard user on the last trick's summary (it has no id
    of its own) stays there through the frames of the bots' moves (a second's pause each here)."""
    made = api(server, "/api/quickplay", {"game": "watten", "variant": "euregio", "bot": "club", "bot_delay": 1.0})
    page = open_table(new_page(), made["url"], server.base_url)
    end = time.time() + 60
    while True:
        # at once, so that no frame comes in between: on a bot's turn, focus the summary and read the seq
        before = page.evaluate("""() => { const t = document.querySelector('.table');
            if (!t || t.dataset.turn === 'me' || document.querySelector('#winner')) return null;
            document.querySelector('#last-trick summary').focus(); return +t.dataset.seq; }""")
        if before is not None:
            break
        assert time.time() < end and not page.locator("#winner").count(), "no bot's turn came"
        if not act(page):
            page.wait_for_timeout(40)
    page.wait_for_function(f"+document.querySelector('.table').dataset.seq > {before}", timeout=10000)
    assert page.evaluate("document.activeElement.matches('#last-trick summary')")
    assert not page.js_errors, page.js_errors


def test_large_screen_and_laptop_layouts(server, new_page):
    made = api(server, "/api/tables", {"game": "barbu", "variant": "standard", "test": {"seed": 3},
                                       "seats": ["human", "bot:club", "bot:club", "bot:club"]})
    sizes = {}
    for name, viewport in (("4k", UHD), ("laptop", {"width": 1366, "height": 768})):
        page = new_page(viewport=viewport, locale="fr-FR")
        open_table(page, made["seats"][0]["url"], server.base_url)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], name
        main = page.locator("#table .col-main").bounding_box()
        side = page.locator("#table .col-side").bounding_box()
        assert side["x"] >= main["x"] + main["width"], name        # two columns: the play, then the story
        card = page.locator("#table .hand .card").first.bounding_box()
        sizes[name] = (card["width"], page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)"))
        if name == "4k":
            assert run_axe(page) == []
    # the 4K screen gets larger type and larger cards than the laptop, and uses its width
    assert sizes["4k"][0] > sizes["laptop"][0] * 1.5 and sizes["4k"][1] > sizes["laptop"][1]


def test_home_on_a_phone_has_large_targets_and_no_sideways_scroll(server, new_page):
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
    page.goto(server.base_url + "/")
    page.locator("#create details summary").first.click()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    targets = ("main button, main select, main input:not([type=radio]):not([type=checkbox]), main summary, "
               "main label[for^=level-]")    # a radio is chosen by its label, the large target
    seen, small = page.evaluate("""(sel) => {
        const els = [...document.querySelectorAll(sel)].filter(e => e.offsetParent);
        return [els.length, els.map(e => [e.id || e.textContent.trim().slice(0, 30), e.getBoundingClientRect()])
        .filter(([n, r]) => r.width < 44 || r.height < 44).map(([n]) => n)]; }""", targets)
    assert seen > 20 and small == []


def test_barbu_doubles_are_chosen_as_seats_with_one_ok(server, new_page):
    # seed 5: another seat calls, and seat 1 may double any set of the three others (seven combinations)
    made = api(server, "/api/tables", {"game": "barbu", "variant": "standard", "test": {"seed": 5},
                                       "seats": ["human", "bot:club", "bot:club", "bot:club"]})
    page = open_table(new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR"),
                      made["seats"][0]["url"], server.base_url)
    form = page.locator("#table form.choose-set")
    form.wait_for(timeout=15000)
    boxes = form.locator("input[type=checkbox]")
    assert boxes.count() == 3 and form.locator("legend").inner_text() == "contrer"
    screenshot(page, "barbu-doubles-phone")
    assert page.locator("#table .actions button[data-action^=double]").count() == 0   # no button per set
    # nothing ticked: a clear word, and the table does not change
    before = int(page.get_attribute(".table", "data-seq"))
    form.locator("button").click()
    page.wait_for_selector("#errors p")
    assert "au moins une place" in page.locator("#errors").inner_text()
    assert int(page.get_attribute(".table", "data-seq")) == before
    # two seats by their labels (large targets on the phone), then OK: one action, "double a,b"
    labels = form.locator("label.pick")
    assert all(labels.nth(i).bounding_box()["height"] >= 44 for i in range(labels.count()))
    labels.nth(0).click()
    labels.nth(2).click()
    form.locator("button").click()
    page.wait_for_function(f"+document.querySelector('.table').dataset.seq > {before}", timeout=10000)
    assert page.locator("#table form.choose-set").count() == 0
    assert page.locator("#errors").inner_text().strip() == ""
    assert run_axe(page) == []
