"""The pages run under their Content-Security-Policy (issue #35): chromium, with the policy in force,
loads the home page, the lobby, the upload and rules pages and a table page (whose socket connects,
shows the deal and takes a card played by a click) and reports no violation of the policy and no
script error; the policy itself forbids inline script, so this shows the pages need none."""

from __future__ import annotations

from tests.web.browser.conftest import api
from tests.web.browser.helpers import choose, my_turn, seq


def test_the_pages_break_no_csp_rule(server, new_page):
    page = new_page(bypass_csp=False)
    console: list[str] = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    response = page.goto(server.base_url + "/")
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    page.wait_for_load_state("networkidle")
    for path in ("/lobby", "/replay", "/rules/watten"):
        page.goto(server.base_url + path)
        page.wait_for_load_state("networkidle")
    made = api(server, "/api/tables", {"game": "watten", "variant": "bavarian_2", "options": {"target": 2},
                                       "seats": ["human", "bot:random"], "grace": "never"})
    page.goto(server.base_url + made["seats"][0]["url"])
    page.wait_for_selector(".table[data-seq]", timeout=15000)   # the socket (connect-src 'self') works
    assert page.evaluate("document.referrer") == ""
    for _ in range(100):                                         # the page's own handlers run
        if my_turn(page):
            break
        page.wait_for_timeout(100)
    before = seq(page)
    choose(page).click()
    for _ in range(100):
        if seq(page) > before:
            break
        page.wait_for_timeout(100)
    assert seq(page) > before
    violations = [c for c in console if "Content Security Policy" in c or "Refused to" in c]
    assert violations == [], violations
    assert page.js_errors == []
