"""Every stich game passes the public conformance kit, ``stich.testing.check_game``: random matches
end, replay exactly and are zero-sum; refusals change nothing; views do not depend on unseen cards;
hidden actions stay hidden; the perft counts equal the golden ones in tests/golden/."""

from __future__ import annotations

from pathlib import Path

import pytest

import stich
from stich.engine import game_class
from stich.testing import check_game

GOLDEN = Path(__file__).parent / "golden"
GAMES = ["watten", "battn", "biscambiggia", "barbu"]


@pytest.mark.parametrize("name", GAMES)
def test_game_passes_the_conformance_kit(name):
    assert name in stich.games()
    report = check_game(game_class(name), GOLDEN / f"perft-{name}.json")
    assert report["perft_counts"] == 4 * len(game_class(name).variants)
    assert report["view_comparisons"] >= 2 * len(game_class(name).variants)


def test_a_changed_move_generation_changes_a_perft_count(tmp_path):
    """The golden counts catch a change: one count off by one fails the kit, with the position."""
    import json

    data = json.loads((GOLDEN / "perft-barbu.json").read_text())
    key = next(iter(data["perft"]["standard"]))
    data["perft"]["standard"][key] += 1
    bad = tmp_path / "perft-barbu.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(AssertionError, match=r"perft barbu standard \(seed 1"):
        check_game(game_class("barbu"), bad, matches=1)


def test_a_game_without_golden_counts_is_told_how_to_write_them(tmp_path):
    with pytest.raises(AssertionError, match="write_golden"):
        check_game(game_class("barbu"), tmp_path / "none.json", matches=1)
