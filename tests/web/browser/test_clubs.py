"""A club in the browser, on a phone in German: a player makes a club, saves a preset with the form and
makes an invite link; a second person opens the link (the token in the fragment), joins, and starts a
table from the preset with one click; the first takes the other seat from the club's page.  The club's
page fits the phone's width (no sideways scrolling) and passes axe."""

from __future__ import annotations

import random

from tests.web.browser.conftest import run_axe
from tests.web.browser.test_players import become

PHONE = {"width": 390, "height": 844}


def test_a_club_on_a_phone_in_german(server, new_page):
    base = server.base_url
    run_id = random.randrange(10**6)
    anna, bert = new_page(locale="de-DE", viewport=PHONE), new_page(locale="de-DE", viewport=PHONE)
    become(anna, base, f"Anna{run_id}")
    become(bert, base, f"Bert{run_id}")
    anna.goto(base + "/clubs")
    anna.fill("#club-name", "Donnerstagsrunde am Stammtisch")
    anna.click("#new-club button[type=submit]")
    anna.wait_for_selector("#club")
    assert anna.inner_text("h1") == "Donnerstagsrunde am Stammtisch"
    # a preset from the form: Watten for two, people only, rated
    anna.fill("#preset-name", "Watten zu zweit")
    anna.select_option("#preset-variant", "watten/bavarian_2")
    anna.check("#preset-rated")
    anna.click("#new-preset button[type=submit]")
    anna.wait_for_selector("#presets [data-start]")
    assert "Gewertet" in anna.inner_text("#presets")
    anna.click("#new-invite")
    anna.wait_for_function("document.querySelector('#invite-link').dataset.url")
    link = anna.get_attribute("#invite-link", "data-url")
    assert "/join#" in link
    assert anna.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]   # the long link wraps
    # the second person joins through the link and starts a table from the preset
    bert.goto(link)
    bert.click("#join-club")
    bert.wait_for_selector("#club")
    assert bert.locator("#new-invite").count() == 0      # a member, not an admin
    bert.click("#presets [data-start]")
    bert.wait_for_url("**/t/*")
    # the first takes the other seat from the club's page
    anna.reload()
    take = anna.locator("#club-tables [data-take]")
    assert take.inner_text() == "Platz nehmen"
    assert anna.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert run_axe(anna) == []
    take.click()
    anna.wait_for_url("**/t/*?token=*")
    assert anna.url.split("?")[0] == bert.url.split("?")[0]
    assert anna.js_errors == [] and bert.js_errors == []
