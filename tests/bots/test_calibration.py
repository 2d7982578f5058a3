"""The calibration of the search's chance to win a hand (``stich.bots.search.calibration``), its
fitted table, the fit in ``benchmarks/calibrate_bets.py``, and pimc's use of it."""

from __future__ import annotations

import json
import math
import random

import pytest

import stich
from stich.bots import make_bot
from stich.bots.search import calibration
from stich.bots.search.betting import discounted
from tests.scripts import load_script


def _bench():
    return load_script("benchmarks/calibrate_bets.py")


def test_the_fitted_table_is_well_formed_and_shrinks_overconfidence():
    doc = json.loads(calibration.PATH.read_text(encoding="utf-8"))
    assert doc["fitted"], "calibration.json holds no fit"
    for e in doc["fitted"]:
        assert e["game"] in stich.games() and e["kind"] in ("raise", "answer", "go_on")
        assert e["decisions"] >= _bench().LEAST
        # measured: the worlds' p is overconfident everywhere, so every fit pulls it toward 1/2
        assert 0.0 < e["slope"] < 1.0, e
    table = calibration.fitted()
    assert len(table) == len(doc["fitted"])


def test_calibrated_is_the_logistic_formula_with_a_variant_fallback(monkeypatch):
    monkeypatch.setattr(calibration, "fitted", lambda: {("watten", "guate", "raise"): (0.5, -0.2, 0.3),
                                                        ("battn", None, "answer"): (0.4, 0.0, 0.0)})
    want = 1 / (1 + math.exp(-(0.5 * math.log(0.8 / 0.2) - 0.2)))   # per_raise is not used
    assert calibration.calibrated(0.8, {"game": "watten", "variant": "guate"}, "raise") == pytest.approx(want)
    # Battn's views say variant "standard"; a fit for any variant (None) serves them
    assert calibration.calibrated(0.5, {"game": "battn", "variant": "standard"}, "answer") == pytest.approx(0.5)
    assert calibration.calibrated(0.8, {"game": "watten", "variant": "euregio"}, "raise") is None
    # p of 0 or 1 (every world won or lost) stays finite: kept inside [EDGE, 1 - EDGE]
    assert 0.0 < calibration.calibrated(1.0, {"game": "watten", "variant": "guate"}, "raise") < 1.0


def test_the_fit_recovers_a_known_calibration():
    """Synthetic decisions whose outcomes follow logit(won) = 0.6 logit(p) - 0.3 + 0.2 raises:
    the benchmark's logistic regression finds those three numbers."""
    bench = _bench()
    rng = random.Random(4)
    rows = []
    for _ in range(6000):
        p = rng.uniform(0.02, 0.98)
        raises = rng.randrange(3)
        q = 1 / (1 + math.exp(-(0.6 * math.log(p / (1 - p)) - 0.3 + 0.2 * raises)))
        rows.append({"raw_p": p, "raises": raises, "won": 1.0 if rng.random() < q else 0.0})
    slope, intercept, per_raise = bench.fit(rows)
    assert slope == pytest.approx(0.6, abs=0.06)
    assert intercept == pytest.approx(-0.3, abs=0.1)
    assert per_raise == pytest.approx(0.2, abs=0.1)


def test_writing_a_fit_replaces_its_group_and_keeps_the_others(tmp_path, monkeypatch, capsys):
    """``--fit LOG --write`` refits the groups in the log (a variant against a new opponent) and
    leaves every other game's and variant's fit as it was."""
    bench = _bench()
    path = tmp_path / "calibration.json"
    old = [{"game": "battn", "variant": None, "kind": "raise", "slope": 0.6, "intercept": -0.5, "per_raise": 0.1,
            "decisions": 900},
           {"game": "watten", "variant": "blind", "kind": "raise", "slope": 0.63, "intercept": -0.32,
            "per_raise": 0.16, "decisions": 4835}]
    path.write_text(json.dumps({"about": "test", "fitted": old}), encoding="utf-8")
    monkeypatch.setattr(calibration, "PATH", path)
    rng = random.Random(5)
    log = tmp_path / "cal.jsonl"
    with log.open("w") as f:
        for _ in range(bench.LEAST * 4):
            p = rng.uniform(0.02, 0.98)
            q = 1 / (1 + math.exp(-(0.4 * math.log(p / (1 - p)) - 0.5)))
            f.write(json.dumps({"game": "watten", "variant": "blind", "kind": "raise", "raw_p": p, "raises": 0,
                                "won": 1.0 if rng.random() < q else 0.0, "given": False}) + "\n")
    bench.show_fit([str(log)], write=True)
    assert "written:" in capsys.readouterr().out
    got = {(e["game"], e["variant"], e["kind"]): e for e in json.loads(path.read_text())["fitted"]}
    assert set(got) == {("battn", None, "raise"), ("watten", "blind", "raise")}
    assert got[("battn", None, "raise")] == old[0]
    assert got[("watten", "blind", "raise")]["decisions"] == bench.LEAST * 4
    assert got[("watten", "blind", "raise")]["slope"] == pytest.approx(0.4, abs=0.15)


def test_pimc_bets_on_the_calibrated_chance():
    """At an answer to a raise, pimc's p is the calibrated raw p (the fit for the variant), lowered
    per raise of the opponents; with calibrate off it is the raw p lowered per raise, as before."""
    from tests.bots.test_bets import _answer_view

    state = _answer_view("watten", "guate", 3)
    seat = state.current_player
    view = state.view(seat)
    legal = [str(a) for a in state.legal_actions()]
    raises = sum(1 for who, text, _i in view["actions"]
                 if text == "raise" and state.side_of(who) != state.side_of(seat))
    assert raises >= 1
    bot = make_bot("pimc", seed=2, budget=12)
    bot.choose(view, legal)
    kind, p, _stake, _answer = bot.last_bet
    assert kind == "answer"
    fitted = calibration.calibrated(bot.last_raw_p, view, "answer")
    assert fitted is not None and p == pytest.approx(discounted(fitted, raises))
    raw = make_bot("pimc", seed=2, budget=12)
    raw.calibrate = False
    raw.choose(view, legal)
    assert raw.last_bet[1] == pytest.approx(discounted(raw.last_raw_p, raises))
