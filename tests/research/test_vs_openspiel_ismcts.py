"""benchmarks/vs_openspiel_ismcts.py on a tiny setting: output shape, duplicate pairing, reproducibility."""

from __future__ import annotations

import json

import pytest

from tests.scripts import load_script

pytest.importorskip("pyspiel")
pytest.importorskip("open_spiel.python.algorithms.ismcts")


def _load():
    return load_script("benchmarks/vs_openspiel_ismcts.py")


def _run(mod, tmp_path, name, capsys, *extra):
    log = tmp_path / name
    assert mod.main(["-n", "2", "--seed", "11", "--budget", "3", "--simulations", "3",
                     "--log", str(log), *extra, "watten:bavarian_4"]) == 0
    out = capsys.readouterr().out
    return out, [json.loads(line) for line in log.read_text().splitlines()]


def test_duplicate_hands_swap_the_sides_on_the_same_deal(tmp_path, capsys):
    mod = _load()
    out, rows = _run(mod, tmp_path, "a.jsonl", capsys)
    line = next(x for x in out.splitlines() if x.startswith("watten:bavarian_4"))
    for part in ("pimc win", "95% CI", "deals   2 (equal ", "hands   4", "think pimc", "ismcts", "simulations 3",
                 "return/hand/seat pimc"):
        assert part in line, (part, line)
    assert len(rows) == 4
    for seed in (11, 12):
        a, b = [r for r in rows if r["seed"] == seed]
        assert a["kinds"] == ["pimc", "ismcts", "pimc", "ismcts"]
        assert b["kinds"] == ["ismcts", "pimc", "ismcts", "pimc"]
        assert a["deal"] == b["deal"]                       # same dealer, engine seed and pack
        assert sorted(a["deal"]["pack"]) == list(range(len(a["deal"]["pack"])))
        for r in (a, b):
            assert abs(sum(r["returns"])) < 1e-9            # one zero-sum hand
            assert set(r["think"]) == {"pimc", "ismcts"} and r["faults"] == 0
    # the two seeds are different deals
    assert rows[0]["deal"] != rows[2]["deal"]
    # --tally reads the log back to the same line
    mod.main(["--tally", str(tmp_path / "a.jsonl")])
    again = capsys.readouterr().out
    assert "pimc win" in again and "deals   2 (equal " in again and "hands   4" in again


def test_runs_are_reproducible(tmp_path, capsys):
    mod = _load()
    _, first = _run(mod, tmp_path, "a.jsonl", capsys)
    _, second = _run(mod, tmp_path, "b.jsonl", capsys)
    assert [(r["deal"], r["returns"], r["decisions"]) for r in first] == \
        [(r["deal"], r["returns"], r["decisions"]) for r in second]


def test_comparison_counts_the_same_seats():
    mod = _load()
    a, b = mod.seat_plans(4)
    # pimc's side got +0.2 on seats {0, 2}; ISMCTS got +0.1 there on the swapped hand: a pimc win
    assert mod.compare(4, {a: [0.1, -0.1, 0.1, -0.1], b: [0.05, -0.05, 0.05, -0.05]}) == [1.0]
    assert mod.compare(4, {a: [0.1, -0.1, 0.1, -0.1], b: [0.1, -0.1, 0.1, -0.1]}) == [0.5]
    assert mod.compare(4, {a: [-0.1, 0.1, -0.1, 0.1], b: [0.1, -0.1, 0.1, -0.1]}) == [0.0]
    assert mod.compare(4, {a: [0.1, -0.1, 0.1, -0.1]}) == []     # a cut-off pair is left out
    plans = mod.seat_plans(5)
    assert plans[0] == ("ismcts",) * 5 and plans[3] == ("ismcts", "ismcts", "pimc", "ismcts", "ismcts")
    hands = {p: [0.0] * 5 for p in plans}
    hands[plans[3]] = [-0.2, 0.0, 0.2, 0.0, 0.0]
    assert mod.compare(5, hands) == [0.5, 0.5, 1.0, 0.5, 0.5]


def test_unknown_game_is_refused(capsys):
    mod = _load()
    with pytest.raises(SystemExit):
        mod.main(["-n", "1", "nosuchgame"])
    assert "no game matches nosuchgame" in capsys.readouterr().err


def test_several_hands_make_one_comparison(tmp_path, capsys):
    """``--hands K``: a comparison is K hands on their own deals, the seats' returns summed (a
    Biscambiggia match is ten hands); the tally sums them again and leaves a cut-off one out."""
    mod = _load()
    log = tmp_path / "m.jsonl"
    assert mod.main(["-n", "1", "--seed", "11", "--hands", "2", "--budget", "3", "--simulations", "3",
                     "--log", str(log), "watten:bavarian_4"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("watten:bavarian_4"))
    rows = [json.loads(x) for x in log.read_text().splitlines()]
    assert [(r["seed"], r["hand"], r["hands"]) for r in rows] == [(11, 0, 2), (11, 1, 2)] * 2
    assert rows[0]["deal"] != rows[1]["deal"] and rows[0]["deal"] == rows[2]["deal"]   # duplicate per hand
    assert mod.hand_seed(11, 1, 2) == 1101 and mod.hand_seed(11, 0, 1) == 11
    assert "deals   1 (equal " in line and "hands   4" in line
    mod.main(["--tally", str(log)])
    again = capsys.readouterr().out
    assert "2 hands per comparison" in again and line.split("pimc win")[1][:8] in again
    log.write_text("\n".join(json.dumps(r) for r in rows[:3]) + "\n")     # the last hand cut off
    mod.main(["--tally", str(log)])
    assert "no complete comparison" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        mod.main(["--hands", "0", "watten:bavarian_4"])
