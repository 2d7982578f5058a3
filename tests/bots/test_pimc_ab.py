"""``benchmarks/pimc_ab.py``'s ``pimc-old``: the default bot as it was when issue #17 was filed
(the heuristic's decisions, worlds by replay with the heuristic opponent model, playouts through
the engine), the baseline of the strength runs in ``docs/search.md``."""

from __future__ import annotations

import json

import pytest

import stich
from stich.bots import base, bets
from stich.bots.search import fastplay
from stich.engine import worlds
from tests.scripts import load_script


@pytest.fixture
def bench():
    mod = load_script("benchmarks/pimc_ab.py", "stich_bench_pimc_ab")
    yield mod
    for name in ("pimc-old", "pimc-engine", "pimc-model"):
        base._BOTS.pop(name, None)


def _card_decision(seed=11):
    """A Bavarian 4 state where the seat to act chooses among several cards."""
    state = stich.game("watten", variant="bavarian_4").new_state(seed=seed)
    while True:
        legal = [str(a) for a in state.legal_actions()]
        if len(legal) > 1 and all(a.startswith("play") for a in legal):
            return state, legal
        state.apply(legal[-1] if legal[0].startswith("cut") else legal[0])


def test_pimc_old_plays_with_the_fast_paths_off_and_puts_them_back(bench, monkeypatch):
    bot = base.make_bot("pimc-old", seed=3, budget=4)
    assert bot.decisions == "heuristic" and bot.opponent_model
    seen = []
    kernel = fastplay.kernel

    def spy(state):
        seen.append((fastplay.ENABLED, worlds.REDEAL))
        return kernel(state)

    monkeypatch.setattr(fastplay, "kernel", spy)
    state, legal = _card_decision()
    choice = bot.choose(json.loads(json.dumps(state.view(state.current_player))), legal)
    assert choice in legal
    assert seen and set(seen) == {(False, False)}      # no re-dealt worlds, no kernel playouts
    assert (fastplay.ENABLED, worlds.REDEAL) == (True, True)

    seen.clear()   # the default bot, asked the same, does use them
    base.make_bot("pimc", seed=3, budget=4).choose(json.loads(json.dumps(state.view(state.current_player))), legal)
    assert (True, True) in seen


def test_hand_roles_splits_the_edge_by_role_and_cause():
    """``benchmarks/hand_roles.py``: the first hand of Bavarian 3 four times on one deal; the bot's
    edge per role, and a changed winner with the same bets (the duo's seats as one) is card play."""
    roles = load_script("benchmarks/hand_roles.py", "stich_bench_hand_roles")
    try:
        def row(kinds, bets, gain):
            return {"seed": 1, "bot": "b", "opponent": "o", "kinds": kinds, "forehand": 0, "bets": bets, "gain": gain}
        bets = ["0:schlag A", "0:trump E", "2:raise", "0:accept"]
        rows = [row(["o", "o", "o"], bets, [0, 3, 3]),
                row(["b", "o", "o"], bets, [0, 3, 3]),                                       # solo: the same
                row(["o", "b", "o"], ["0:schlag A", "0:trump E", "1:raise", "0:accept"], [3, 0, 0]),
                row(["o", "o", "b"], bets + ["0:raise", "2:fold"], [0, 3, 3])]
        got = roles.tally(rows)
        assert got[("b", "o", "solo", "all")] == [0.0]
        assert got[("b", "o", "duo", "same bets, winner changed")] == [-3.0]     # 0 - 3/2 against 3 - 3/2
        assert got[("b", "o", "duo", "bets differ")] == [0.0]
        assert roles.flips(rows) == [(1, 1, "b", "o")]                        # the duo's flipped hand
        part = roles.first_difference(90000, 1, "pimc", "pimc-old", "2", "2", worlds=6)
        assert part["seat"] == 1 and part["opponent_choice"] != part["bot_choice"]
        for values in (part["sampled"], part["true"]):
            assert set(values) == {part["opponent_choice"], part["bot_choice"]}
            assert all(-10 < v < 10 for v in values.values())
        real = roles.one_seed((90000, "pimc", "pimc-old", "2", "1"))
        assert len(real) == 4 and all(r["forehand"] in (0, 1, 2) and r["bets"][0].split(":")[1].startswith("schlag")
                                      for r in real)
        assert sum(real[0]["gain"]) > 0
    finally:
        for name in ("pimc-old", "pimc-engine", "pimc-model"):
            base._BOTS.pop(name, None)


def test_three_player_results_also_count_the_match_result_alone(capsys):
    """``search_vs_heuristic.py`` with three players: a seat's duplicate result is the match
    result, then the final lead; beside it the seats finished first by either bot and the match
    results alone, which the lead does not decide."""
    svh = load_script("benchmarks/search_vs_heuristic.py", "stich_bench_svh")
    played = {("o", "o", "o"): ([1.0, -0.5, -0.5], [15, 9, 3]),
              ("b", "o", "o"): ([-0.5, 1.0, -0.5], [11, 15, 2]),      # seat 0: won with o, lost with b
              ("o", "b", "o"): ([1.0, -0.5, -0.5], [15, 12, 3]),      # seat 1: lost both, by 3 not 6
              ("o", "o", "b"): ([-0.5, -0.5, 1.0], [8, 9, 15])}       # seat 2: won with b
    results, firsts = svh.duplicate_results(3, "b", "o", played.get)
    assert results == [0.0, 1.0, 1.0]
    assert firsts == [(0.0, 1.0), (0.0, 0.0), (1.0, 0.0)]
    svh.print_result("watten:bavarian_3", results, firsts, {}, "b", "o", 0)
    out = capsys.readouterr().out
    assert "finished first, ties shared: 33.3% of 3, o in the same seats 33.3%" in out
    assert "the match result alone: 1 won, 1 lost, 1 the same" in out
    # the same match result decided by the final lead: seat 1 lost both, its lead the larger with b
    assert "where both lost, its final lead the larger 1, the smaller 0, equal 0" in out
    assert "where both won, the larger 0, the smaller 0, equal 0" in out


def test_free_rolls_marks_the_raises_that_risk_nothing_more_of_the_match(tmp_path):
    """``benchmarks/free_rolls.py``: a raise is a free roll where the hand lost at the present
    stake already loses the match; the logged matches replay exactly, and the report splits the
    benchmark's result by whether the match ended with such a hand."""
    fr = load_script("benchmarks/free_rolls.py", "stich_bench_free_rolls")
    try:
        race = bets.Score.race
        # to 11: at 0 against 8 and 6 a lost hand hands one of them the match at any stake
        assert fr.free_roll(race(0, [8, 6], [], 11), 2)
        assert not fr.free_roll(race(0, [0, 0], [], 11), 2)          # a fresh match
        assert fr.free_roll(race(6, [8, 6], [], 11), 3)              # lost for 3 or 4: 11 and 9 against 6
        assert not fr.free_roll(race(6, [8, 6], [], 11), 2)          # lost for 2 (10 and 8): still a chance
        svh = fr.svh
        log = tmp_path / "log.jsonl"
        svh.one_seed(("watten", "bavarian_3", True, 5, "pimc", "heuristic", "4", {}, str(log), None))
        rows = list(svh.json_lines([log]))
        pairs = fr.tested_matches(rows)
        assert len(rows) == 4 and len(pairs) == 3 and {row["kinds"].index("pimc") for row, _ in pairs} == {0, 1, 2}
        marked = [fr.replay(row) for row, _ref in pairs]
        assert all(m["same"] for m in marked)
        assert all(0 <= m["free_won"] <= m["free_hands"] for m in marked)
        lines = fr.report(pairs, marked)
        assert lines[0] == "replayed 3 matches, 3 the same as the log"
        ended = sum(m["ended_free"] for m in marked)
        assert (f"ended with its free roll: {ended} matches" in lines[2]) == (ended > 0)
        # a log whose final score the replay does not reproduce is left out, not miscounted
        forged = dict(pairs[0][0], scores=[99, 0, 0])
        assert fr.report([(forged, pairs[0][1])], [fr.replay(forged)])[0] == "replayed 1 matches, 0 the same as the log"
    finally:
        for name in ("pimc-old", "pimc-engine", "pimc-model"):
            base._BOTS.pop(name, None)


def test_one_bot_cannot_have_two_budgets(capsys):
    """``--opponent-budget`` is given by bot name: with the same name on both sides it used to be
    dropped without a word, and the bot played itself at ``--budget`` (a 50.0 % that meant nothing)."""
    svh = load_script("benchmarks/search_vs_heuristic.py", "stich_bench_svh")
    with pytest.raises(SystemExit) as exc:
        svh.main(["--bot", "pimc", "--opponent", "pimc", "--budget", "8", "--opponent-budget", "16", "battn"])
    assert exc.value.code == 2
    assert "--bots pimc@8,pimc@16" in capsys.readouterr().err
