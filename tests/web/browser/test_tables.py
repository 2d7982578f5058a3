"""The table pages in a real browser against a real ``stich serve``: Watten with four people,
Biscambiggia with five, Barbu against bots by keyboard only, a Battn turn, reload, spectators, phone."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import websockets

import stich
from tests.web.browser.conftest import api, run_axe, screenshot
from tests.web.browser.helpers import act, open_table, play_until, seq

PHONE = {"width": 390, "height": 844}


def create(server, game, variant, seats, seed=None, **extra):
    body = {"game": game, "variant": variant, "seats": seats, **extra}
    if seed is not None:
        body["test"] = {"seed": seed}
    return api(server, "/api/tables", body)


def result_shown(page) -> bool:
    return page.locator("#table [data-hand-result]").count() > 0


def test_watten_four_people_by_invite_links_play_a_hand(server, new_page):
    made = create(server, "watten", "euregio", ["human"] * 4, seed=11)
    pages = []
    for s in made["seats"]:
        page = new_page(locale=["de-DE", "it-IT", "en-GB", "fr-FR"][s["seat"]])
        pages.append(open_table(page, s["url"], server.base_url))
    # each page greets its reader in the browser's language and names the reader's seat
    assert "Du (Platz 1)" in pages[0].locator("#table .felt").inner_text()
    assert "Tu (Posto 2)" in pages[1].locator("#table .felt").inner_text()
    assert "Vous (Place 4)" in pages[3].locator("#table .felt").inner_text()
    play_until(pages, lambda: pages[0].locator("#table [data-trick]:not(.gathered) li").count() >= 3)
    play_until(pages, lambda: all(result_shown(p) for p in pages))
    text = pages[0].locator("#table [data-hand-result]").inner_text()
    assert "win the hand" in text or "wins the hand" in text or "win" in text
    for p in pages:
        assert not p.js_errors, p.js_errors
        assert run_axe(p) == []


def test_barbu_deal_against_bots_keyboard_only(server, new_page):
    made = create(server, "barbu", "standard", ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"], seed=3)
    page = open_table(new_page(locale="fr-FR"), made["seats"][0]["url"], server.base_url)

    def keyboard_act() -> bool:
        if page.locator('.table[data-turn="me"]').count() == 0:
            return False
        before = seq(page)
        keyed = page.locator("#table button.play[data-key]")
        if keyed.count():
            page.keyboard.press(keyed.first.get_attribute("data-key"))
        else:   # Tab to the first action button, as a keyboard user does, and press Enter
            page.locator("#table").focus()
            for _ in range(60):
                page.keyboard.press("Tab")
                if page.evaluate("document.activeElement.matches('#table .actions button')"):
                    break
            else:
                active = page.evaluate("document.activeElement.outerHTML.slice(0, 200)")
                raise AssertionError(f"no action button reachable with Tab (focus ends on {active})")
            page.keyboard.press("Enter")
        page.wait_for_function(f"+document.querySelector('.table').dataset.seq > {before}", timeout=10000)
        return True

    deadline_rows = lambda: page.locator("#table .sheet tbody tr").count() >= 1   # noqa: E731
    import time
    end = time.time() + 90
    shot = False
    while not deadline_rows():
        if not shot and page.locator("#table [data-trick]:not(.gathered) li").count() >= 2:
            screenshot(page, "barbu")
            shot = True
        assert time.time() < end, "the Barbu deal did not end"
        if not keyboard_act():
            page.wait_for_timeout(50)
    # the score sheet has the deal, and the visible focus is drawn (outline on the focused element)
    assert page.locator("#table .sheet tbody tr").count() == 1
    assert "Feuille de marque" in page.locator("#table .sheet summary").inner_text()
    assert run_axe(page) == []
    assert not page.js_errors, page.js_errors


def test_battn_turn(server, new_page):
    made = create(server, "battn", "standard", ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"], seed=2)
    page = open_table(new_page(locale="it-IT"), made["seats"][0]["url"], server.base_url)
    start = page.locator("#log li").count()
    play_until([page], lambda: page.locator("#log li").count() > start + 8)
    assert "Presa" in page.locator("#table #trick-h").inner_text()
    assert run_axe(page) == []


def test_reload_mid_trick_returns_to_the_same_seat(server, new_page):
    made = create(server, "watten", "euregio", ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"], seed=7)
    seat0 = made["seats"][0]
    page = open_table(new_page(), seat0["url"], server.base_url)
    play_until([page], lambda: page.locator("#table [data-trick]:not(.gathered) li").count() >= 1
               and page.locator('.table[data-turn="me"]').count() > 0, timeout=60)
    hand = page.locator("#table .hand").inner_text()
    trick = page.locator("#table [data-trick]").inner_text()
    assert "token=" not in page.url   # the token is kept by the browser, not shown in the address
    page.goto(f"{server.base_url}/t/{made['table']}")   # a plain link: the seat comes back from localStorage
    page.wait_for_selector("#table .table")
    assert "You (Seat 1)" in page.locator("#table .felt").inner_text()
    assert page.locator("#table .hand").inner_text() == hand
    assert page.locator("#table [data-trick]").inner_text() == trick
    assert act(page)


def _hands_over_json(server, table, seats):
    async def one(token):
        url = server.ws_url + f"/ws/tables/{table}?token={token}&format=json"
        async with websockets.connect(url) as ws:
            while True:
                msg = json.loads(await ws.recv())
                if msg["type"] == "state":
                    return msg["view"]["hand"]

    async def all_():
        return await asyncio.gather(*(one(s["token"]) for s in seats if s.get("token")))

    with ThreadPoolExecutor(1) as pool:   # Playwright's sync API holds this thread's event loop
        return pool.submit(asyncio.run, all_()).result(30)


def test_spectator_page_has_no_hidden_card(server, new_page):
    made = create(server, "barbu", "standard", ["human", "human", "bot:heuristic", "bot:heuristic"], seed=9)
    hands = _hands_over_json(server, made["table"], made["seats"])
    assert all(len(h) == 13 for h in hands)
    page = open_table(new_page(locale="fr-FR"), made["watch"], server.base_url)
    deck = stich.game("barbu").deck
    text = page.locator("body").inner_text()
    html = page.content()
    assert page.locator("#table .hand").count() == 0
    for hand in hands:
        for code in hand:
            name = deck.long_name(deck.parse(code), "fr")
            assert name not in text, f"the spectator page shows {name}"
            assert f"play {code}\"" not in html and f"\"{name}\"" not in html
    assert page.locator("#table .back").count() > 0
    # backs: no text, no alt, no data attribute: only their class
    assert page.evaluate("[...document.querySelectorAll('.back')].every(b => !b.textContent && "
                         "b.getAttributeNames().join() === 'class')")
    assert run_axe(page) == []


def test_phone_viewport_no_horizontal_scroll(server, new_page):
    made = api(server, "/api/tables", {"game": "barbu", "variant": "standard",
                                       "seats": ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"]})
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True, locale="de-DE")
    for url in ("/", "/lobby", "/rules/watten", "/replay", made["seats"][0]["url"]):
        page.goto(server.base_url + url)
        if url.startswith("/t/"):
            page.wait_for_selector("#table .table")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{url} scrolls sideways ({width}px)"
    # the leaderboard's games stay reachable on a phone (they were hidden with the table's key help)
    page.goto(server.base_url + "/leaderboard")
    assert page.locator("main nav a[href^='/leaderboard?key=']").first.is_visible()
    page.goto(server.base_url + made["seats"][0]["url"])
    page.wait_for_selector("#table .table")
    small = page.evaluate("""[...document.querySelectorAll('#table button, #table select, #table summary')]
        .filter(e => e.offsetParent).map(e => e.getBoundingClientRect())
        .filter(r => r.width < 44 || r.height < 44).length""")
    assert small == 0
    # the hand is in the lower part of the screen, in reach of the thumb
    box = page.locator("#table .hand").bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"] and box["y"] > PHONE["height"] / 2
    screenshot(page, "barbu-phone")
    # a 1366×768 laptop, the commonest: the thirteen cards are in the window on arrival too
    laptop = new_page(viewport={"width": 1366, "height": 768}, locale="de-DE")
    laptop.goto(server.base_url + made["seats"][0]["url"])
    laptop.wait_for_selector("#table .hand .card")
    # the page scrolls (or not: the hand may fit) in the animation frame after a frame with the cards,
    # and again after a later frame (the declarer's contracts above the hand) pushed the hand down
    laptop.wait_for_function("""() => { const r = document.querySelector('#table .hand').getBoundingClientRect();
        return r.top > 0 && r.bottom <= innerHeight; }""", timeout=15000)   # frames come late on a loaded machine
    # the felt is not scrolled away (its top may be, when a declarer's contracts make the play too tall)
    felt = laptop.locator("#table .felt").bounding_box()
    assert felt["y"] + felt["height"] > 200


def test_names_and_chat_are_shown_as_text_never_as_markup(server, new_page):
    made = create(server, "watten", "euregio", ["human", "human", "bot:heuristic", "bot:heuristic"])
    evil = '<img src=x onerror="window.owned=1">'
    a = new_page()
    a.goto(server.base_url + "/")
    name = "<i>Anna</i>"   # names have at most 40 characters
    a.evaluate(f"localStorage.setItem('stich.name', {json.dumps(name)})")
    open_table(a, made["seats"][0]["url"], server.base_url)
    b = open_table(new_page(), made["seats"][1]["url"], server.base_url)
    b.wait_for_function("document.querySelector('#table .felt').textContent.includes('Anna')", timeout=10000)
    assert name in b.locator("#table .felt").inner_text()       # the name, letter for letter
    assert b.locator("#table .felt i").count() == 0
    a.fill("#chat-text", "hi " + evil)
    a.press("#chat-text", "Enter")
    b.wait_for_function("document.querySelector('#chat-log').textContent.includes('hi')", timeout=10000)
    assert ("hi " + evil) in b.locator("#chat-log").inner_text()
    assert b.locator("#table img, #chat-log img").count() == 0
    assert not b.evaluate("window.owned === 1") and not a.evaluate("window.owned === 1")


def test_turn_timer_counts_down_and_the_watch_link_shows_the_spectators_view(server, new_page):
    made = create(server, "barbu", "standard", ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"],
                  timer="relaxed")
    page = open_table(new_page(), made["seats"][0]["url"], server.base_url)
    page.wait_for_selector("#clock:not([hidden])", timeout=10000)
    assert "s left to act" in page.locator("#clock").inner_text()
    page.click("#watch-link")
    page.wait_for_selector("#table .table")
    assert page.locator("#table .hand").count() == 0 and "You (" not in page.locator("#table .felt").inner_text()


def test_a_forged_token_gets_the_spectators_view_and_says_why(server, new_page):
    made = create(server, "battn", "standard", ["human", "bot:heuristic", "bot:heuristic", "bot:heuristic"])
    page = new_page()
    page.goto(f"{server.base_url}/t/{made['table']}?token=forged-token-of-nobody")
    page.wait_for_selector("#table .table")
    assert page.locator("#table .hand").count() == 0          # no seat, no hand
    assert page.locator("#errors").inner_text().strip() != ""  # and the page says the link was refused
    assert page.evaluate(f"localStorage.getItem('stich.seat.{made['table']}')") is None
