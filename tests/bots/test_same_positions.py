"""benchmarks/same_positions.py: the same positions for two versions, timed or counted."""

from __future__ import annotations

import json

from tests.scripts import load_script


def test_positions_dump_and_time_with_the_default_bot(tmp_path, capsys):
    bench = load_script("benchmarks/same_positions.py")
    assert bench.main(["dump", str(tmp_path), "watten:bavarian_4", "-n", "6"]) == 0
    pos = json.loads((tmp_path / "watten_bavarian_4.json").read_text())
    assert len(pos) == 6
    for view, legal in pos:
        assert view["seat"] == view["current_player"] and len(legal) > 1
        assert not legal[0].startswith("cut")
    assert bench.main(["time", str(tmp_path), "watten:bavarian_4", "-n", "4", "--reps", "2"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("watten:bavarian_4") and "4 positions" in line
    rates = [float(x) for x in line.split("positions")[1].split("decisions/s")[0].split()]
    assert len(rates) == 2 and all(r > 0 for r in rates)
    assert bench.main(["time", str(tmp_path), "watten:bavarian_4", "--reps", "0"]) == 0
    assert "6 positions   decisions/s" in capsys.readouterr().out   # nothing decided: the fixed cost
