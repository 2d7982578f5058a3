"""Fixtures of the browser tests: one real ``stich serve`` (temp SQLite) and Debian's chromium
driven by Playwright's sync API (Playwright's own browser download does not work here)."""

from __future__ import annotations

import json
import os
import shutil
import urllib.request
from pathlib import Path

import pytest

from tests.web.server import ServerProcess

CHROMIUM = os.environ.get("STICH_CHROMIUM", "/usr/bin/chromium")
AXE = Path(__file__).parent / "vendor" / "axe.min.js"
SHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"


@pytest.fixture(scope="package")
def server(tmp_path_factory):
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM}")
    tmp = tmp_path_factory.mktemp("browser-server")
    srv = ServerProcess(str(tmp / "stich.sqlite3"), tmp, {"STICH_TEST_HOOKS": "1"}).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="package")
def browser(server):
    # package scope, not session: Playwright's sync API keeps an asyncio loop running in this thread
    # while it is open, and later tests (tests/web/...) call asyncio.run()
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        yield b
        b.close()


@pytest.fixture
def new_page(browser):
    """``new_page(locale="en-GB", viewport=None)`` -> a page in a fresh context (closed after the test)."""
    contexts = []

    def make(locale: str = "en-GB", viewport: dict | None = None, **kw):
        # Playwright's wait_for_function evaluates its expression with eval() in the page, which the
        # pages' Content-Security-Policy refuses: the tests bypass the policy, except test_csp.py,
        # which keeps it (bypass_csp=False) and checks that the pages break none of its rules
        kw.setdefault("bypass_csp", True)
        ctx = browser.new_context(locale=locale, viewport=viewport or {"width": 1280, "height": 900}, **kw)
        contexts.append(ctx)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.js_errors = errors
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def api(server, path: str, body: dict | None = None) -> dict:
    """A JSON call to the server (POST when ``body`` is given)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server.base_url + path, data=data, method="POST" if body is not None else "GET",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.loads(res.read())


def run_axe(page) -> list[dict]:
    """axe-core's violations on the page as it is now (every rule axe runs by default)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # evaluated through the DevTools protocol: an added <script> tag would be inline script, which
        # the pages' Content-Security-Policy refuses
        page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate("async () => (await axe.run(document)).violations.map(v => "
                           "({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.html).slice(0, 3)}))")
    return result


def screenshot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    # the cards that move (the table's FLIP) are settled first: a picture of a card in flight says nothing
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')", timeout=5000)
    page.screenshot(path=str(SHOTS / f"{name}.png"))
