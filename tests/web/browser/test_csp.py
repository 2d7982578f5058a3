"""The pages run under their Content-Security-Policy (issue #35): chromium loads the home page and a
table page (whose socket connects and shows the deal) and reports no violation of the policy and no
script error; the policy itself forbids inline script, so this shows the pages need none."""

from __future__ import annotations

from tests.web.browser.conftest import api


def test_home_and_table_pages_break_no_csp_rule(server, new_page):
    page = new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    response = page.goto(server.base_url + "/")
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    page.wait_for_load_state("networkidle")
    made = api(server, "/api/tables", {"game": "watten", "variant": "bavarian_2", "options": {"target": 2},
                                       "seats": ["human", "bot:random"], "grace": "never"})
    page.goto(server.base_url + made["seats"][0]["url"])
    page.wait_for_selector(".table[data-seq]", timeout=15000)   # the socket (connect-src 'self') works
    page.wait_for_load_state("networkidle")
    assert page.evaluate("document.referrer") == ""
    violations = [c for c in console if "Content Security Policy" in c or "Refused to" in c]
    assert violations == [], violations
    assert page.js_errors == []
