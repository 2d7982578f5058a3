"""A player's statistics per game and variant (stich.web.stats) and their bar chart (web/ui/profile.py):
wins are "won" results or first places, shares are wins over matches, the most played game first."""

from __future__ import annotations

from stich.web.stats import summarise
from stich.web.ui.profile import BAR_LABEL_W, bars


def test_counts_wins_and_shares_per_game_and_variant():
    rows = [("watten", "euregio", "won", 3), ("watten", "euregio", "lost", 1), ("barbu", "standard", "1", 1),
            ("barbu", "standard", "2", 2), ("barbu", "standard", "4", 1), ("watten", "bavarian_2", "lost", 2),
            ("biscambiggia", "standard", "3", 1)]
    assert summarise(rows) == [
        {"game": "barbu", "variant": "standard", "matches": 4, "wins": 1, "share": 0.25},
        {"game": "watten", "variant": "euregio", "matches": 4, "wins": 3, "share": 0.75},
        {"game": "watten", "variant": "bavarian_2", "matches": 2, "wins": 0, "share": 0.0},
        {"game": "biscambiggia", "variant": "standard", "matches": 1, "wins": 0, "share": 0.0}]
    assert summarise([]) == []


def test_the_chart_draws_each_share_as_a_bar_of_its_length():
    stats = summarise([("watten", "euregio", "won", 3), ("watten", "euregio", "lost", 1),
                       ("battn", "standard", "lost", 1)])
    chart = bars(stats, lambda item: item["game"])
    assert [(r["label"], r["width"], r["percent"]) for r in chart["rows"]] == [
        ("watten", 0.75 * BAR_LABEL_W, 75), ("battn", 0.0, 0)]
    assert chart["rows"][1]["y"] > chart["rows"][0]["y"] and chart["height"] >= chart["rows"][1]["y"]
