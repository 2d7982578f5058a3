"""The bots' levels on the rating scale (stich.web.botscale, measured by benchmarks/bot_ratings.py): every
rating key of the installed games has its levels, best first, each with the number of matches it was
rated over; the floor (random moves) is below every level, and an unknown key has no bots."""

from __future__ import annotations

from stich.web import botscale, ratings


def test_every_key_has_its_levels_best_first():
    for key in ratings.keys():
        scale = botscale.for_key(key)
        values = [b["rating"] for b in scale["bots"]]
        assert len(values) >= 3 and values == sorted(values, reverse=True), key
        assert all(b["matches"] > 0 and 0 < b["deviation"] < 350 for b in scale["bots"]), key
        assert scale["bots"][-1]["bot"] == "random", key
        assert len(scale["measured"]) == 10 and scale["variant"], key
    assert botscale.for_key("chess") == {"bots": []}
