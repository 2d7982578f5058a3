"""The table as a table (issue #34): the seats around the felt, the trick in front of who played it, the
trick that closed a hand staying on the felt with the hand's summary and the game's score sheet, and
the markup contract outside tests rely on (docs/browser.md) - in Watten with four people, Biscambiggia
with five, Battn and Barbu against bots, on a laptop and on a phone."""

from __future__ import annotations

import time

from tests.web.browser.conftest import api, run_axe, screenshot
from tests.web.browser.helpers import act, open_table, open_tables

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


def create(server, game, variant, seats, seed=None, **extra):
    body = {"game": game, "variant": variant, "seats": seats, **extra}
    if seed is not None:
        body["test"] = {"seed": seed}
    return api(server, "/api/tables", body)


def seat_boxes(page) -> dict[int, dict]:
    """Each seat's area on the felt: seat -> its bounding box (the trick's cards carry data-seat too)."""
    # read in one turn of the page's script: between separate reads a new frame (the bots play on)
    # can replace the fragment and a box read from the old one is gone (None)
    return {int(k): v for k, v in page.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll('#table [data-seat]:not([data-card])')].map(e => {
            const r = e.getBoundingClientRect();
            return [e.dataset.seat, {x: r.x, y: r.y, width: r.width, height: r.height}]; }))""").items()}


def assert_four_around_the_felt(page, me: int) -> None:
    """The reader lowest, the partner (opposite seat) highest, the opponents to the left and the right."""
    boxes = seat_boxes(page)
    assert sorted(boxes) == [0, 1, 2, 3]
    assert page.get_attribute(f"#table [data-seat='{me}']:not([data-card])", "data-me") is not None
    bottom = lambda b: b["y"] + b["height"]   # noqa: E731
    middle = lambda b: b["x"] + b["width"] / 2   # noqa: E731
    partner, rivals = (me + 2) % 4, [(me + 1) % 4, (me + 3) % 4]
    assert max(boxes, key=lambda s: bottom(boxes[s])) == me
    assert boxes[me]["y"] > max(boxes[s]["y"] for s in boxes if s != me)
    assert min(boxes, key=lambda s: boxes[s]["y"]) == partner
    xs = sorted(rivals, key=lambda s: middle(boxes[s]))
    assert middle(boxes[xs[0]]) < middle(boxes[partner]) < middle(boxes[xs[1]])
    # Watten numbers its seats clockwise: the next seat sits on the reader's left
    assert xs[0] == (me + 1) % 4


def check_contract(page) -> None:
    """Every playable card and legal control carries data-action, the cards data-card; a card outside the
    reader's hand and the felt's trick or layout has no data-card (backs name nothing)."""
    info = page.evaluate("""() => {
        const t = document.querySelector('#table');
        const hand = t.querySelector('[data-hand]');
        const plays = [...t.querySelectorAll('button.play')];
        return {
          plays: plays.map(b => [b.dataset.card, b.dataset.action, !!hand && hand.contains(b)]),
          stray: [...t.querySelectorAll('[data-card]')]
            .filter(e => !e.closest('[data-hand], [data-trick]')).length,
          trick: [...t.querySelectorAll('[data-trick] [data-card]')].every(e => e.dataset.seat !== undefined),
          backs: [...t.querySelectorAll('.back, .backs')].every(e => !e.hasAttribute('data-card') && !e.textContent),
          handCards: hand ? [...hand.querySelectorAll('[data-card]')].map(e => e.dataset.card) : [],
        }; }""")
    for card, action, in_hand in info["plays"]:
        assert card and action == f"play {card}" and in_hand, (card, action)
    assert info["stray"] == 0 and info["trick"] and info["backs"], info
    return info["handCards"]


def step_until(pages, done, timeout: float = 120.0) -> None:
    """One action at a time, checking ``done()`` after each: the moment between two actions (the trick
    that closed a hand, before the next lead) is not stepped over.  The pages are asked from the one
    after the last to act (the next on turn, mostly): a page asked is a round trip to the browser."""
    end = time.time() + timeout
    first = 0
    while not done():
        assert time.time() < end, "the game did not get there in time"
        for i in range(len(pages)):
            k = (first + i) % len(pages)
            if act(pages[k]):
                first = k + 1
                if k != 0:   # done() reads the first page: it must have seen this action before the next
                    # one (a loaded machine let the next player act first, and the page showed two cards)
                    seq = pages[k].evaluate("() => +document.querySelector('.table').getAttribute('data-seq')")
                    pages[0].wait_for_function("""(seq) => { const t = document.querySelector('.table');
                        return t && +(t.getAttribute('data-seq') || -1) >= seq; }""", arg=seq, timeout=15000)
                break
        else:
            pages[0].wait_for_timeout(40)


def felt_counts(page) -> dict:
    """How many cards the open trick holds and whether a hand's result is shown, in one round trip."""
    return page.evaluate("""() => ({
        trick: document.querySelectorAll('#table [data-trick]:not(.gathered) [data-card]').length,
        result: document.querySelectorAll('#table [data-hand-result]').length > 0})""")


def closing_trick(page) -> dict:
    return page.evaluate("""() => { const t = document.querySelector('#table [data-trick]');
        return {winner: t.dataset.winner, gathered: t.classList.contains('gathered'),
                cards: [...t.querySelectorAll('[data-card]')].map(e => [e.dataset.card, +e.dataset.seat])}; }""")


def test_watten_four_people_see_the_deciding_trick_stay_with_the_hands_summary(server, new_page):
    made = create(server, "watten", "euregio", ["human"] * 4, seed=11)
    looks = [({"viewport": LAPTOP, "locale": "de-DE"}), ({"viewport": PHONE, "locale": "it-IT", "is_mobile": True,
             "has_touch": True}), ({"viewport": LAPTOP, "locale": "en-GB"}), ({"viewport": PHONE, "locale": "fr-FR"})]
    # as in the Biscambiggia test below: the first page moves its cards, the others ask for less motion
    pages = open_tables([new_page(**looks[s["seat"]], **({} if s["seat"] == 0 else {"reduced_motion": "reduce"}))
                         for s in made["seats"]], [s["url"] for s in made["seats"]], server.base_url)
    for s, p in enumerate(pages):
        assert_four_around_the_felt(p, s)
    hands = [set(check_contract(p)) for p in pages]
    assert all(not (a & b) for i, a in enumerate(hands) for b in hands[i + 1:])   # each page its own cards
    # a spectator on a phone: seat 1 at the bottom, no hand, no action
    watcher = open_table(new_page(viewport=PHONE), made["watch"], server.base_url)
    boxes = seat_boxes(watcher)
    assert max(boxes, key=lambda s: boxes[s]["y"]) == 0 and min(boxes, key=lambda s: boxes[s]["y"]) == 2
    assert watcher.locator("#table [data-hand], #table [data-action]").count() == 0

    shot = False

    def hand_over() -> bool:
        nonlocal shot
        if not shot and pages[0].locator("#table [data-trick]:not(.gathered) [data-card]").count() >= 3:
            check_contract(pages[0])
            screenshot(pages[0], "watten")
            screenshot(pages[1], "watten-phone")
            shot = True
        return pages[0].locator("#table [data-hand-result]").count() > 0 and closing_trick(pages[0])["gathered"]

    step_until(pages, hand_over)
    # the hand is over and the next is dealt: every page still shows the trick that decided it, each
    # card on the side of who played it, with its winner, and the hand's summary with the board
    for p in pages:
        p.wait_for_selector("#table [data-hand-result]")
        trick = closing_trick(p)
        assert trick["gathered"] and sorted(s for _c, s in trick["cards"]) == [0, 1, 2, 3], trick
        assert trick["winner"] is not None
        assert p.locator("#table [data-hand-result] .board").count() == 1
        assert p.locator("#table .won-by").inner_text().strip()
    assert "gewinnt" in pages[0].locator("#table [data-hand-result]").inner_text() or \
        "gewinnen" in pages[0].locator("#table [data-hand-result]").inner_text()
    assert pages[0].locator("#table [data-hand-result] .strokes i").count() == 2   # 2 points: two strokes
    screenshot(pages[0], "watten-hand-end")
    screenshot(pages[3], "watten-hand-end-phone")
    assert run_axe(pages[1]) == []
    decided = closing_trick(pages[0])
    # it stays until the next hand's first card: then only that card is on the felt
    step_until(pages, lambda: pages[0].locator("#table [data-trick]:not(.gathered) [data-card]").count() >= 1)
    now = closing_trick(pages[0])
    assert len(now["cards"]) == 1 and not set(map(tuple, now["cards"])) & set(map(tuple, decided["cards"]))
    # the summary moved beside the felt, the sheet has the hand's row
    assert pages[0].locator(".col-side [data-hand-result]").count() == 1
    assert pages[0].locator("#sheet tbody tr").count() == 1
    for p in pages:
        assert not p.js_errors, p.js_errors


def test_biscambiggia_five_people_play_a_hand_to_its_marks(server, new_page):
    made = create(server, "biscambiggia", "standard", ["human"] * 5, seed=5)
    # the first page moves its cards (FLIP, its script's errors checked below); the others ask for
    # less motion: a card that is still moving is clicked only when it stops, and five pages waiting
    # for that at every card doubled the test's time (their pictures wait for the cards to settle anyway)
    pages = open_tables([new_page(locale="it-IT", viewport=PHONE if s["seat"] == 1 else LAPTOP,
                                  **({} if s["seat"] == 0 else {"reduced_motion": "reduce"})) for s in made["seats"]],
                        [s["url"] for s in made["seats"]], server.base_url)
    # five around the felt: the reader lowest, the others above; the next seat on the right (counter-clockwise)
    boxes = seat_boxes(pages[0])
    assert sorted(boxes) == [0, 1, 2, 3, 4] and max(boxes, key=lambda s: boxes[s]["y"]) == 0
    assert boxes[1]["x"] > boxes[0]["x"] > boxes[4]["x"]
    shot = False

    def over() -> bool:
        nonlocal shot
        now = felt_counts(pages[0])
        if not shot and now["trick"] >= 3:
            screenshot(pages[0], "biscambiggia")
            screenshot(pages[1], "biscambiggia-phone")
            shot = True
        return now["result"]

    step_until(pages, over, timeout=240)
    trick = closing_trick(pages[0])
    assert trick["gathered"] and sorted(s for _c, s in trick["cards"]) == [0, 1, 2, 3, 4], trick
    # the marche: each seat's balance on the board, zero-sum, and the hand's row on the sheet
    cells = pages[0].locator("#table [data-hand-result] .board td strong")
    marks = [int(cells.nth(i).inner_text()) for i in range(cells.count())]
    assert len(marks) == 5 and sum(marks) == 0 and any(marks), marks
    assert pages[0].locator("#sheet tbody tr").count() == 1
    screenshot(pages[0], "biscambiggia-hand-end")
    check_contract(pages[2])
    assert run_axe(pages[0]) == []
    for p in pages:
        assert not p.js_errors, p.js_errors


def test_battn_against_bots_reaches_the_segnapunti(server, new_page):
    made = create(server, "battn", "standard", ["human", "bot:club", "bot:club", "bot:club"], seed=2, bot_delay=0.2)
    page = open_table(new_page(locale="it-IT", viewport=LAPTOP), made["seats"][0]["url"], server.base_url)
    phone = open_table(new_page(locale="de-DE", viewport=PHONE), made["watch"], server.base_url)
    assert_four_partner_opposite(page)
    shot = False
    end = time.time() + 120
    while page.locator("#table [data-hand-result]").count() == 0:
        assert time.time() < end, "the turn did not end"
        if not shot and page.locator("#table [data-trick]:not(.gathered) [data-card]").count() >= 2:
            screenshot(page, "battn")
            screenshot(phone, "battn-phone")
            shot = True
        check_contract(page)
        if not act(page):
            page.wait_for_timeout(40)
    board = page.locator("#table [data-hand-result] .board")
    assert board.locator("th").count() == 2 and "Noi" in board.inner_text() and "Voi" in board.inner_text()
    page.locator("#sheet summary").click()
    assert page.locator("#sheet .sheet-segnapunti tbody tr").count() >= 1
    assert run_axe(page) == []
    assert not page.js_errors, page.js_errors


def assert_four_partner_opposite(page) -> None:
    boxes = seat_boxes(page)
    assert max(boxes, key=lambda s: boxes[s]["y"] + boxes[s]["height"]) == 0
    assert min(boxes, key=lambda s: boxes[s]["y"]) == 2
    # Battn numbers its seats counter-clockwise: the next seat sits on the reader's right
    assert boxes[1]["x"] > boxes[2]["x"] > boxes[3]["x"]


def test_barbu_against_bots_reaches_its_sheet(server, new_page):
    made = create(server, "barbu", "standard", ["human", "bot:club", "bot:club", "bot:club"], seed=3, bot_delay=0.2)
    page = open_table(new_page(locale="fr-FR", viewport=LAPTOP), made["seats"][0]["url"], server.base_url)
    assert_four_around_the_felt(page, 0)
    end = time.time() + 150
    while page.locator("#table [data-hand-result]").count() == 0:
        assert time.time() < end, "the deal did not end"
        check_contract(page)
        if not act(page):
            page.wait_for_timeout(40)
    result = page.locator("#table [data-hand-result]")
    assert result.locator(".board td").count() == 4
    assert "1/28" in page.locator("#sheet summary").inner_text()
    screenshot(page, "barbu-hand-end")
    assert run_axe(page) == []
    assert not page.js_errors, page.js_errors


def test_the_replay_labels_each_trick_by_its_hand_and_shows_the_end_of_a_hand(server, new_page):
    made = create(server, "watten", "euregio", ["bot:club"] * 4, seed=6, options={"target": 7})
    table = made["table"]
    page = new_page(locale="en-GB")
    for _ in range(300):   # the bots play the match to its end
        try:
            api(server, f"/api/tables/{table}/record")
            break
        except Exception:
            page.wait_for_timeout(100)
    page.goto(server.base_url + f"/replay/{table}")
    options = page.locator("#trick-step option")
    labels = [options.nth(i).inner_text() for i in range(options.count())]
    steps = [int(options.nth(i).get_attribute("value")) for i in range(options.count())]
    # per hand: tricks 1, 2, 3 ... then its end; hands in order from 1
    hand, trick = 1, 0
    for text in labels:
        if text == f"Hand {hand}, the end":
            hand, trick = hand + 1, 0
            continue
        trick += 1
        assert text == f"Hand {hand}, trick {trick}", (labels, text)
    assert hand > 2
    end = labels.index("Hand 1, the end")
    page.goto(server.base_url + f"/replay/{table}?step={steps[end]}")
    assert page.locator("#table [data-hand-result]").count() == 1
    assert "hand 1" in page.locator("#table .info h3").inner_text()   # not the next hand yet
    screenshot(page, "replay-hand-end")
    trick = closing_trick(page)
    if labels[end - 1].startswith("Hand 1, trick") and steps[end - 1] == steps[end]:
        assert trick["gathered"] and len(trick["cards"]) == 4     # the hand was decided by this trick
    assert run_axe(page) == []
