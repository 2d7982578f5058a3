"""A club director's evening in the browser (issue #37, docs/tournaments.md "Run a tournament in the browser"):
create a tournament from the home page's link, draw round 1 with a table on paper, type its score sheet and
correct it, seeing the standings follow; at phone and laptop size, in German and English, axe-clean, no
sideways scroll, large targets, under the pages' Content-Security-Policy; nobody but the director sees the
director's key."""

from __future__ import annotations

from tests.web.browser.conftest import run_axe, screenshot

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
#: what a finger presses on these pages (a radio or check box is pressed by its label)
TARGETS = ("main button:not([hidden]), main select, main textarea, main summary, .choice label, .paper-tables label, "
           "main input:not([type=radio]):not([type=checkbox]):not([type=hidden])")


def small_targets(page) -> list[str]:
    return page.evaluate("""(sel) => [...document.querySelectorAll(sel)].filter(e => e.offsetParent)
        .map(e => [e.id || e.textContent.trim().slice(0, 30), e.getBoundingClientRect()])
        .filter(([n, r]) => r.width < 44 || r.height < 44).map(([n]) => n)""", TARGETS)


def fits_a_phone(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], page.url
    assert small_targets(page) == [], page.url


def standing(page) -> dict[str, str]:
    """Name -> score, as the standings table shows them (a bot's name with its mark left out)."""
    rows = page.locator("#standings tbody tr")
    out = {}
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        out[cells.nth(1).inner_text().split(" (")[0]] = cells.nth(2).inner_text()
    return out


def test_a_director_creates_a_tournament_and_types_a_paper_tables_result(server, new_page):
    page = new_page(locale="en-GB", viewport=LAPTOP)
    page.goto(server.base_url + "/")
    page.locator("main a[href='/tournaments/new']").click()
    page.select_option("#t-play", "watten/tyrolean")
    page.locator("form.choose-play button").click()
    page.locator("#new-tournament details summary").click()
    page.fill("#o-target", "5")   # short matches: Watten to 5
    page.fill("#t-rounds", "2")
    page.fill("#t-games", "1")
    page.fill("#t-people", "Anna\nBeat\nCilli\nDaniel")
    page.fill("#t-bots", "3")
    page.select_option("#t-level", "beginner")
    page.locator("#new-tournament button[type=submit]").click()
    # seven do not fill two tables of four: said on the form, which keeps what was typed
    page.wait_for_selector("#form-errors")
    assert "7 players and bots do not fill tables of 4: add 1" in page.locator("#form-errors").inner_text()
    assert page.input_value("#t-people") == "Anna\nBeat\nCilli\nDaniel" and page.input_value("#o-target") == "5"
    assert run_axe(page) == []
    page.fill("#t-bots", "4")
    page.locator("#new-tournament button[type=submit]").click()
    page.wait_for_url("**/tournaments/*?director=*")
    director_url = page.url
    tid, key = director_url.split("/tournaments/")[1].split("?director=")
    assert "your director's key" in page.locator(".key-note").inner_text()
    assert page.input_value("#director-link") == director_url and page.locator("[data-copy]").first.is_visible()
    links = [page.input_value(f"#link-{i}") for i in range(1, 5)]
    assert all(f"/tournaments/{tid}?token=" in u for u in links)

    page.check("#paper-1")
    page.locator(".draw-form button[type=submit]").click()
    page.wait_for_url("**#round-1")
    assert "(paper)" in page.locator("#round-1 table.round tbody tr").first.inner_text()
    sheet = page.locator("#sheet-1-1")
    sides = [sheet.locator("label").nth(i).inner_text() for i in range(2)]   # "Anna & Bot 2"
    sheet.locator("input[name=s-0-0]").fill("5")
    sheet.locator("input[name=s-0-1]").fill("2")
    sheet.locator("button[type=submit]").click()
    page.wait_for_url("**#sheet-1-1")
    won, lost = (side.split(" & ") for side in sides)
    scores = standing(page)
    assert all(scores[n] == "20" for n in won) and all(scores[n] == "0" for n in lost)

    # the director corrects it: the standings follow and the table's log shows the change
    page.locator("#sheet-1-1 summary").click()
    page.locator("#sheet-1-1 input[name=s-0-0]").fill("3")
    page.locator("#sheet-1-1 input[name=s-0-1]").fill("5")
    page.locator("#sheet-1-1 button[type=submit]").click()
    page.wait_for_load_state()
    page.locator("#sheet-1-1 summary").click()
    log = page.locator("#sheet-1-1 ul.log").inner_text()
    assert "5, 2, 5, 2 → 3, 5, 3, 5" in log and "2, 5, 2, 5" not in log.split("\n")[0]
    scores = standing(page)
    assert all(scores[n] == "20" for n in lost) and all(scores[n] == "0" for n in won)
    page.locator("#sheet-1-1 summary").click()
    page.set_viewport_size({"width": LAPTOP["width"], "height": 1200})   # the draw, the standings, the sheet
    screenshot(page, "tournament-director")
    assert run_axe(page) == []
    assert not page.js_errors, page.js_errors

    # a phone, in German, the pages' Content-Security-Policy in force: the form and the director's page fit
    # and have large targets, and their script runs (it shows the copy buttons)
    phone = new_page(locale="de-DE", viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=False)
    console: list[str] = []
    phone.on("console", lambda m: console.append(m.text))
    phone.goto(server.base_url + "/tournaments/new?play=watten/tyrolean")
    phone.locator("#new-tournament details summary").click()
    fits_a_phone(phone)
    phone.goto(director_url)
    assert phone.locator(".director h2").inner_text() == "Turnierleitung"
    assert phone.locator("[data-copy=director-link]").is_visible()
    fits_a_phone(phone)
    assert run_axe(phone) == []
    # a spectator's page and a player's: no key, nobody else's link
    for url in (f"/tournaments/{tid}", links[0].split(server.base_url)[1]):
        phone.goto(server.base_url + url)
        html = phone.content()
        assert key not in html and "director=" not in html and not any(u.split("token=")[1] in html for u in links[1:])
    assert not phone.js_errors, phone.js_errors
    assert not [c for c in console if "Content Security Policy" in c or "Refused to" in c], console
