"""Every stich game passes the public conformance kit, ``stich.testing.check_game``: random matches
end, replay exactly and are zero-sum; refusals change nothing; views do not depend on unseen cards;
hidden actions stay hidden; the perft counts equal the golden ones in tests/golden/."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import stich
from stich.engine import OptionError, game_class
from stich.testing import PERFT_OPTION_SETS, check_game, option_values, pairwise_options

GOLDEN = Path(__file__).parent / "golden"
GAMES = ["watten", "battn", "biscambiggia", "barbu"]


@pytest.mark.parametrize("name", GAMES)
def test_game_passes_the_conformance_kit(name):
    assert name in stich.games()
    report = check_game(game_class(name), GOLDEN / f"perft-{name}.json")
    variants = len(game_class(name).variants)
    assert report["perft_counts"] == 4 * variants * (1 + PERFT_OPTION_SETS)   # defaults and option sets
    assert report["pairwise_matches"] >= 2 * variants
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
        check_game(game_class("barbu"), bad, matches=1, pairwise=False)


def test_a_game_without_golden_counts_is_told_how_to_write_them(tmp_path):
    with pytest.raises(AssertionError, match="write_golden"):
        check_game(game_class("barbu"), tmp_path / "none.json", matches=1, pairwise=False)


def test_a_changed_option_set_count_fails_with_its_options(tmp_path):
    """The option sets' golden counts catch a change too, and the failure names the options."""
    import json

    data = json.loads((GOLDEN / "perft-watten.json").read_text())
    entry = data["perft_options"]["tyrolean"][0]
    key = next(iter(entry["perft"]))
    entry["perft"][key] += 1
    bad = tmp_path / "perft-watten.json"
    bad.write_text(json.dumps(data))
    first = next(iter(entry["options"]))
    with pytest.raises(AssertionError, match=rf"perft watten tyrolean with {first}=.*\(seed 1"):
        check_game(game_class("watten"), bad, matches=1, pairwise=False)


@pytest.mark.parametrize("name", GAMES)
def test_the_pairwise_sets_hold_every_pair_the_rules_allow(name):
    """Counted again from outside the generator: every pair of option values stands in some
    assignment, or the game refuses that pair; every assignment makes a game."""
    cls = game_class(name)
    for variant in cls.variants:
        configs, refused = pairwise_options(cls, variant)
        values = {s.name: option_values(s, variant) for s in cls.option_specs if s.applies_to(variant)}
        for options in configs:
            cls.options_for(variant, **options)     # raises where the options contradict each other
        names = list(values)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                for va, vb in itertools.product(values[a], values[b]):
                    held = any(o[a] == va and o[b] == vb for o in configs)
                    if not held:
                        assert (a, va, b, vb) in refused, f"{name} {variant}: {a}={va}, {b}={vb} never played"
                        with pytest.raises(OptionError, match="contradict each other"):
                            cls.options_for(variant, **{a: va, b: vb})
