"""Driving the table page the way a person does: read whose turn it is, press a button."""

from __future__ import annotations

import time

#: actions a test player avoids when another is offered (they only prolong the hand)
AVOID = ("raise", "ask_exchange", "ask_swap", "challenge", "misraise", "svista", "orbi ", "scheanara ")
PREFER_FIRST = ("pass", "accept", "hold", "orbi_pass", "scheanara_pass", "refuse_exchange", "refuse_swap",
                "cut_done", "x_decline")


def seq(page) -> int:
    return int(page.get_attribute(".table", "data-seq") or -1)


def my_turn(page) -> bool:
    return page.locator('.table[data-turn="me"]').count() > 0


def choose(page):
    """The button (or drop-down form) a steady test player presses now, or None."""
    cards = page.locator("#table button.play")
    if cards.count():
        return cards.first
    buttons = page.locator("#table .actions button[data-action]")
    actions = [buttons.nth(i).get_attribute("data-action") for i in range(buttons.count())]
    for want in PREFER_FIRST:
        if want in actions:
            return buttons.nth(actions.index(want))
    for i, a in enumerate(actions):
        if not any(a.startswith(v) for v in AVOID):
            return buttons.nth(i)
    if actions:
        return buttons.first
    form = page.locator("#table form.choose button")
    if form.count():
        return form.first
    # Barbu's doubles as check boxes with no pass (the caller must be doubled): the required box is ticked
    seats = page.locator("#table form.choose-set")
    return seats.locator("button").first if seats.count() else None


def act(page, timeout: float = 10.0) -> bool:
    """Press one button if it is this page's turn and wait for the table to change; False if not its turn."""
    if not my_turn(page):
        return False
    target = choose(page)
    if target is None:
        return False
    before = seq(page)
    target.click()
    deadline = time.time() + timeout
    while time.time() < deadline:
        if seq(page) > before:
            return True
        page.wait_for_timeout(30)
    raise AssertionError(f"the table did not change after pressing a button (seq {before}); "
                         f"errors: {page.locator('#errors').inner_text()}")


def play_until(pages, done, timeout: float = 90.0, idle=None) -> None:
    """Let every page act on its turn until ``done()`` holds."""
    deadline = time.time() + timeout
    while not done():
        if time.time() > deadline:
            raise AssertionError("the game did not get there in time")
        acted = False
        for p in pages:
            acted = act(p) or acted
        if not acted:
            pages[0].wait_for_timeout(50)


def open_table(page, url: str, base: str):
    page.goto(base + url)
    page.wait_for_selector("#table .table", timeout=15000)
    return page
