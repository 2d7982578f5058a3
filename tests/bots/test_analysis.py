"""``stich analyse``: every decision of one seat evaluated from its view, JSON and a table."""

from __future__ import annotations

import json

from click.testing import CliRunner

import stich
from stich.bots import make_bot
from stich.bots.analysis import analyse, table
from stich.cli.main import cli


def _record(tmp_path):
    g = stich.game("watten", variant="bavarian_4", target=3)
    s = g.new_state(seed=11)
    bots = [make_bot("heuristic", seed=i) for i in range(4)]
    while not s.is_terminal():
        seat = s.current_player
        s.apply(bots[seat].choose(s.view(seat), [str(a) for a in s.legal_actions()]))
    path = tmp_path / "match.json"
    path.write_text(json.dumps(s.record()))
    return s.record(), path


def test_analyse_marks_losses_from_the_seats_view(tmp_path):
    rec, path = _record(tmp_path)
    res = analyse(rec, 0, worlds=6)
    mine = [i for i, (who, _t) in enumerate(rec["actions"]) if who == 0]
    assert res["decisions"] and all(r["index"] in mine for r in res["decisions"])
    for r in res["decisions"]:
        assert r["played"] in r["values"] and r["best"] == max(r["values"], key=r["values"].get)
        assert r["loss"] >= 0 and r["mistake"] == (r["loss"] >= 0.5)
    assert "expected points lost" in table(res)
    out = CliRunner().invoke(cli, ["analyse", str(path), "--seat", "1", "--worlds", "4", "--json", "-"])
    assert out.exit_code == 0 and json.loads(out.output)["seat"] == 0
    bad = CliRunner().invoke(cli, ["analyse", str(path), "--seat", "9"])
    assert bad.exit_code != 0 and "seat must be" in bad.output
