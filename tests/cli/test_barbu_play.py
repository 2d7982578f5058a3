"""A whole 28-deal Barbu match through ``stich play`` in a pseudo-terminal, as the README shows it."""

import stich

from .helpers import answer_until_end, check_record, spawn


def test_full_barbu_match_in_french_answering_every_prompt(tmp_path):
    child = spawn(["play", "barbu", "--seat", "2", "--lang", "fr", "--seed", "4", "--bots", "random",
                   "--no-autoplay"], tmp_path,
                  timeout=60, toy=False)
    child.delaybeforesend = None   # some 400 prompts: pexpect's 50 ms pause before each would dominate
    prompts = answer_until_end(child, lang="fr")
    log = child.transcript.getvalue()
    assert "Partie terminée." in log and "Vous recevez" in log and "Votre coup" in log   # the terminal's words
    assert "the caller (deal" in log and " declares " in log and "Deal 28 (" in log      # the game's, in words
    assert any(name in log for name in ("de cœur", "de carreau", "de trèfle", "de pique"))   # French card names
    rec = check_record(tmp_path / "stich-barbu-4.json")
    assert rec["game"] == "barbu" and rec["seed"] == 4 and rec["cli"]["seat"] == 1
    state = stich.replay(rec)
    assert state.is_terminal() and state.hand_number == 28 and sum(state.returns()) == 0
    mine = [text for seat, text in rec["actions"] if seat == 1]
    assert prompts == len(mine)   # every one of seat 2's 28 deals of decisions was asked at the prompt
    assert sum(text.startswith("contract") for text in mine) == 7   # seat 2 called seven deals
