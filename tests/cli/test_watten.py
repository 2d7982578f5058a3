"""Whole Watten matches through ``stich play`` in a pseudo-terminal.

These are the only tests that may skip: while the watten module cannot yet make a game.
"""

import pytest
from click.testing import CliRunner

import stich
from stich.cli.main import cli

from .helpers import answer_until_end, check_record, spawn


def watten_available(variant):
    try:
        stich.game("watten", variant=variant).new_state(seed=1).legal_actions()
    except Exception:
        return False
    return True


@pytest.mark.parametrize("variant", [
    pytest.param(v, marks=pytest.mark.skipif(not watten_available(v), reason=f"watten {v} is not available"))
    for v in ("bavarian_4", "euregio")
])
def test_full_watten_match_answering_every_prompt(tmp_path, variant):
    child = spawn(["play", "watten", "--variant", variant, "--seed", "1", "--bots", "random"], tmp_path, timeout=30,
                  toy=False)
    prompts = answer_until_end(child, lang="de")   # German by default: the table and its card names
    assert prompts > 5
    log = child.transcript.getvalue()
    assert "Partie vorbei." in log
    assert any(name in log for name in ("Herz", "Schellen", "Eichel", "Laub"))  # German card names by default
    rec = check_record(tmp_path / "stich-watten-1.json")
    assert rec["game"] == "watten" and rec["variant"] == variant and rec["seed"] == 1
    assert rec["cli"]["lang"] == "de"
    shown = CliRunner().invoke(cli, ["replay", str(tmp_path / "stich-watten-1.json"), "--all", "--seat", "1"])
    assert shown.exit_code == 0, shown.output
    assert "Du bekommst" in shown.output and "Partie vorbei" in shown.output
