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


#: what a steady test player presses, as (selector, index), read in one turn of the page's script (one
#: round trip, where a locator per question took five or more; between separate reads a new frame
#: could also replace the table): a card to play; else the first preferred action, else the first
#: not avoided, else any; else the drop-down form's button; else Barbu's doubles, which are check
#: boxes with no pass (the caller must be doubled): the required box is ticked
_PICK = """([prefer, avoid]) => {
  const table = document.querySelector('.table');
  const state = {seq: table ? +(table.getAttribute('data-seq') || -1) : -1,
                 turn: !!document.querySelector('.table[data-turn="me"]'), pick: null};
  const all = (sel) => [...document.querySelectorAll(sel)];
  const BUTTONS = '#table .actions button[data-action]';
  const actions = all(BUTTONS).map(b => b.getAttribute('data-action'));
  let i;
  if (all('#table button.play').length) state.pick = ['#table button.play', 0];
  else if (prefer.some(w => (i = actions.indexOf(w)) >= 0)) state.pick = [BUTTONS, i];
  else if ((i = actions.findIndex(a => !avoid.some(v => a.startsWith(v)))) >= 0) state.pick = [BUTTONS, i];
  else if (actions.length) state.pick = [BUTTONS, 0];
  else if (all('#table form.choose button').length) state.pick = ['#table form.choose button', 0];
  else if (all('#table form.choose-set button').length) state.pick = ['#table form.choose-set button', 0];
  return state;
}"""


def _look(page) -> dict:
    """``{"seq", "turn", "pick": (selector, index) or None}`` of the page as it is now."""
    return page.evaluate(_PICK, [list(PREFER_FIRST), list(AVOID)])


def choose(page):
    """The button (or drop-down form) a steady test player presses now, or None."""
    pick = _look(page)["pick"]
    return None if pick is None else page.locator(pick[0]).nth(pick[1])


def act(page, timeout: float = 10.0) -> bool:
    """Press one button if it is this page's turn and wait for the table to change; False if not its turn."""
    look = _look(page)
    if not look["turn"] or look["pick"] is None:
        return False
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # (as conftest.py: on first use)

    before = look["seq"]
    page.locator(look["pick"][0]).nth(look["pick"][1]).click()
    # waited for in the page (it checks at each frame), not asked from here every 30 ms: a round trip each
    try:
        page.wait_for_function("""(before) => { const t = document.querySelector('.table');
            return t && +(t.getAttribute('data-seq') || -1) > before; }""", arg=before, timeout=timeout * 1000)
    except PlaywrightTimeoutError:
        raise AssertionError(f"the table did not change after pressing a button (seq {before}); "
                             f"errors: {page.locator('#errors').inner_text()}") from None
    return True


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


def open_tables(pages, urls, base: str) -> list:
    """``open_table`` for several pages at once: each starts loading before any is waited for, so a
    page's load does not wait for the one before it (five people's pages took five loads in a row)."""
    for page, url in zip(pages, urls, strict=True):
        page.goto(base + url, wait_until="commit")
    for page in pages:
        page.wait_for_selector("#table .table", timeout=15000)
    return list(pages)
