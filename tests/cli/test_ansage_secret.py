"""The hidden Ansage (Euregio E.4, Blind Watten T3) stays secret after the hand: no rule makes Schlag and
trump public then, so a player who is not an Ansager is told that, with the rule, and never the cards."""

import re

import pexpect

import stich
from stich.narration import Names
from stich.rulesets.watten.text import hand_end_note

from .helpers import PROMPT, spawn


def test_the_note_is_for_a_player_who_did_not_learn_the_ansage_only():
    g = stich.game("watten", "euregio")
    note = hand_end_note({"schlag": None, "trump": None}, Names(g, "en", 1))
    assert "secret" in note and "E.4" in note
    note = hand_end_note({"schlag": None, "trump": None}, Names(g, "de", 1))   # in the reader's language
    assert "geheim" in note and "E.4" in note and "die beiden anderen Spieler" in note
    assert hand_end_note({"schlag": "O", "trump": "H"}, Names(g, "de", 0)) is None
    assert "T3" in hand_end_note({"schlag": None, "trump": None}, Names(stich.game("watten", "blind"), "de", 1))
    assert hand_end_note({"schlag": None, "trump": None}, Names(stich.game("watten", "bavarian_4"), "de", 1)) is None


def test_a_blind_player_reads_at_the_end_of_the_hand_that_the_ansage_stays_secret(tmp_path):
    # seed 3: hand 1 is dealt by seat 4, forehand is seat 1; seat 2 is one of the two blind players
    child = spawn(["play", "--lang", "en", "watten", "--variant", "euregio", "--seed", "3", "--seat", "2",
                   "--bots", "random", "--record", str(tmp_path / "r.json")], tmp_path, toy=False)
    while child.expect([PROMPT, r"Ansage stays secret"]) == 0:
        child.sendline("1")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    log = child.transcript.getvalue()
    hand1 = log[log.index("Hand 1"):log.index("Ansage stays secret")]
    assert "Hand 2" not in hand1 and "E.4" in log[log.index("Ansage stays secret"):][:200]   # said as hand 1 ends
    assert "wins the hand" in hand1 or "win the hand" in hand1
    assert not re.search(r"Ansage is revealed|Schlag\s+\S+ \(", hand1)   # Seat 2 never saw the Schlag
    # the bots' seeds are secret, so hand 1 may end in a fold before any trick: no trick, nothing to explain
    assert not re.search(r"wins? the trick with .*: ", hand1)   # no reason: the seat does not know it
