"""benchmarks/stopping_rules.py: the stopping rules it measures stop where they claim to, and no earlier."""

from __future__ import annotations

from tests.scripts import load_script

bench = load_script("benchmarks/stopping_rules.py")


def test_a_fixed_budget_reads_exactly_its_worlds_and_picks_the_best_mean():
    rows = [[1.0, 0.0], [0.0, 3.0]] * 8   # card 1 leads over the 16 worlds, card 0 after the first
    assert bench.run_rule(rows, "fixed", 0, 16, 16) == (1, 16)
    assert bench.run_rule(rows, "fixed", 0, 1, 1) == (0, 1)
    assert bench.run_rule(rows, "fixed", 0, 32, 32) == (1, 16)   # never more worlds than there are


def test_the_paired_test_stops_at_the_first_look_only_when_the_leader_is_clear():
    clear = [[2.0 + 0.1 * (i % 3), 0.0, 1.0] for i in range(16)]
    assert bench.run_rule(clear, "z", 2.0, 6, 16) == (0, 6)
    close = [[1.0 if i % 2 else -1.0, -1.0 if i % 2 else 1.0] for i in range(16)]
    assert bench.run_rule(close, "z", 2.0, 6, 16) == (0, 16)   # a coin toss: the whole budget
    # a card that wins big in one world of eight looks worse in every one of the first six: the rule
    # stops there and drops it - the heavy tail that makes these rules lose to a fixed budget
    rare = [[0.0, 8.0 if i % 8 == 7 else -0.5] for i in range(16)]
    assert bench.run_rule(rare, "z", 2.0, 6, 16) == (0, 6)
    assert bench.run_rule(rare, "fixed", 0, 16, 16) == (1, 16)


def test_cards_equal_in_every_world_so_far_stop_at_once_and_the_first_is_played():
    same = [[1.0, 1.0, 1.0]] * 6 + [[0.0, 4.0, 0.0]] * 10
    assert bench.run_rule(same, "z", 2.0, 6, 16) == (0, 6)   # the trap the measurement exposes


def test_the_expected_loss_rule_stops_once_the_loss_is_under_its_bound():
    clear = [[2.0 + 0.1 * (i % 3), 0.0] for i in range(16)]
    assert bench.run_rule(clear, "loss", 0.01, 8, 24) == (0, 8)
    close = [[1.0 if i % 2 else -1.0, -1.0 if i % 2 else 1.0] for i in range(16)]
    assert bench.run_rule(close, "loss", 0.01, 8, 24) == (0, 16)   # a coin toss: read to the cap's worlds


def test_the_benchmark_runs_on_real_decisions(capsys):
    assert bench.main(["-n", "2", "--worlds", "4", "--truth", "4", "watten:bavarian_4"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("watten:bavarian_4: 2 card decisions")
    rows = {line.split("worlds")[0].strip(): line for line in out[1:]}
    assert len(rows) == len(bench.RULES)
    assert "worlds  4.00" in rows["fixed 16"]   # a budget beyond the worlds there are reads them all
