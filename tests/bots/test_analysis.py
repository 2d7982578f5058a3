"""``stich analyse``: every decision of one seat evaluated from its view, JSON and a table."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import stich
from stich.bots import make_bot
from stich.bots.analysis import CONTRACT_KEYS, Unfinished, analyse, contract, decisions_of, mark, table
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
    # every decision of the seat with a choice, in order, the cuts (chance) included
    state = stich.game("watten", variant="bavarian_4", target=3).new_state(seed=11)
    choices = []
    for i, (who, text) in enumerate(rec["actions"]):
        if who == 0 and len(state.legal_actions()) > 1:
            choices.append(i)
        state.apply(text)
    assert [r["step"] for r in res["decisions"]] == choices
    for r in res["decisions"]:
        values = {a["action"]: a["value"] for a in r["alternatives"]}
        assert r["action"] in values and r["alternatives"][0]["action"] == r["best"]
        assert [a["value"] for a in r["alternatives"]] == sorted(values.values(), reverse=True)
        assert r["loss"] == pytest.approx(max(0.0, values[r["best"]] - values[r["action"]]), abs=2e-3)
        assert r["mark"] == mark(r["loss"], "watten")
        if r["by"] in ("search", "decision"):   # the page's sentence: won in how many of the worlds
            assert 0 <= r["wins"][r["action"]] <= r["worlds"] <= 6
    assert "expected points lost" in table(res)
    out = CliRunner().invoke(cli, ["analyse", str(path), "--seat", "1", "--worlds", "6", "--json"])
    assert out.exit_code == 0 and json.loads(out.output) == contract(res)
    assert set(json.loads(out.output)) == {"seat", "status", "progress", "decisions"}
    assert all(set(d) == set(CONTRACT_KEYS) for d in json.loads(out.output)["decisions"])
    bad = CliRunner().invoke(cli, ["analyse", str(path), "--seat", "9"])
    assert bad.exit_code != 0 and "seat must be 1 to 4" in bad.output
    unfinished = {k: v for k, v in rec.items() if k not in ("events", "terminal", "returns")}
    unfinished["actions"] = rec["actions"][:20]
    with pytest.raises(Unfinished):
        decisions_of(unfinished, 0)


def test_marks_by_expected_points_lost_in_the_games_unit():
    assert [mark(x, "watten") for x in (0, 0.74, 0.75, 1.24, 1.25, 1.99, 2.0, 9)] == [
        "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]
    assert [mark(x, "barbu") for x in (3.7, 3.75, 6.25, 10)] == ["good", "inaccuracy", "mistake", "blunder"]


def test_declared_decisions_are_valued_as_pimc_decides_them():
    """A decision the game declares ``DECIDED`` (here the Schlag, and Biscambiggia's bids) is
    valued by ``decide.evaluate`` - the heuristic's candidates and the action played, the later
    decisions (the dealer's trump) taken by the heuristic in the worlds - not by random rollouts
    over every legal action: the values are the ones a direct ``decide.evaluate`` gives on the
    same worlds and seeds, in points."""
    import random

    from stich.bots.analysis import _Seeds, evaluate_decision
    from stich.bots.bets import declared
    from stich.bots.heuristic import HeuristicBot
    from stich.bots.search import decide
    from stich.bots.search.betting import lean_model, world_weights
    from stich.bots.search.common import Clock, draw_worlds, fallback

    for name, variant, verb in (("watten", "bavarian_4", "schlag"), ("biscambiggia", None, "bid")):
        game = stich.game(name, variant=variant) if variant else stich.game(name)
        state = game.new_state(seed=5)
        bot = HeuristicBot(seed=1)
        while True:
            legal = [str(a) for a in state.legal_actions()]
            if sum(a.startswith(verb + " ") for a in legal) > 1:
                break
            state.apply(bot.choose(state.view(state.current_player), legal))
        view = state.view(state.current_player)
        played = legal[-1]
        res = evaluate_decision(view, legal, worlds_count=6, seed=9, played=played)
        assert res["by"] == "decision" and res["p"] is None
        decided = [a for a in legal if a.split(" ", 1)[0] in declared(name).decided]
        rng = random.Random(9)
        worlds = draw_worlds(view, rng, 6, None, lean_model())
        first = fallback(view, legal, rng)
        cands = decide.candidates(view, decided, first)
        if played not in cands:
            cands.append(played)
        assert set(res["values"]) == set(cands) and played in res["values"]
        assert len(res["values"]) <= decide.TOP + 1 < len(decided)   # not every bid / rank
        weights = world_weights(worlds, view)
        weights = [w * len(weights) / sum(weights) for w in weights]
        samples = decide.evaluate(_Seeds(rng), view, cands, worlds, weights, Clock(None, 6),
                                  value=decide.points(game, view["seat"]))
        for a, vals in samples.items():
            assert res["values"][a] == pytest.approx(sum(vals) / len(vals))
