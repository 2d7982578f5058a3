"""The bot interface extensions the tables rely on: budgets, make_bot with budgets, registry loading."""

import pytest
from click.testing import CliRunner

from stich.bots import Bot, Budget, RandomBot, base, bot_names, make_bot, register_bot
from stich.cli.main import cli


@pytest.mark.parametrize(("text", "seconds", "iterations"), [
    ("1s", 1.0, None), ("0.5s", 0.5, None), ("250ms", 0.25, None), ("2 s", 2.0, None), (".5", 0.5, None),
    ("800", None, 800), ("800it", None, 800), (800, None, 800), (1.5, 1.5, None), (None, None, None),
])
def test_budget_parse(text, seconds, iterations):
    b = Budget.parse(text)
    assert (b.seconds, b.iterations) == (seconds, iterations)
    assert Budget.parse(str(b)) == b if b else str(b) == "default"


@pytest.mark.parametrize("bad", ["fast", "0s", "-1", "1.5it", "0", True, "1m"])
def test_bad_budgets_are_clear_errors(bad):
    with pytest.raises(ValueError, match="budget|iterations|positive"):
        Budget.parse(bad)


def test_budget_helpers():
    b = Budget.parse("800")
    assert not b.done(0.0, 799) and b.done(0.0, 800) and b.deadline() is None
    assert Budget().done(0.0, 1000) and not Budget().done(0.0, 10, default_iterations=11)
    t = Budget.parse("1s")
    assert t.deadline(10.0) == 11.0 and t.done(-5.0, 0)


def test_make_bot_passes_budgets_old_and_new_style():
    assert make_bot("random", seed=1, budget="1s").budget.seconds == 1.0
    assert not make_bot("random", seed=1).budget

    class Old(Bot):
        def __init__(self, seed=None):  # written before budgets existed
            super().__init__(seed)

        def choose(self, view, legal):
            return legal[0]

    register_bot("old-style", Old)
    try:
        assert make_bot("old-style", seed=2, budget="300").budget.iterations == 300
        assert not make_bot("old-style", seed=2).budget
    finally:
        base._BOTS.pop("old-style")
    with pytest.raises(ValueError):
        make_bot("random", budget="soon")
    assert RandomBot(seed=3, budget=0.2).budget.seconds == 0.2


def test_reserved_bot_names_are_refused():
    for name in ("cmd:x", "a,b", "a@1s", " "):
        with pytest.raises(ValueError):
            register_bot(name, RandomBot)


def test_bots_command_lists_the_bots():
    result = CliRunner().invoke(cli, ["bots"])
    assert result.exit_code == 0, result.output
    assert "random" in result.output and "(default)" in result.output and "cmd:PROGRAM" in result.output
    assert set(bot_names()) >= {"random"}
