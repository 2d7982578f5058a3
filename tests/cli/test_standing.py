"""A standing decision instead of pointless prompts (#13): a raise poll (pass or raise, before each opponent's
card in Battn) is passed without a prompt; ``auto raise`` raises at the next moment the rules allow, on turn or
out of turn; ``--auto ask`` asks at every poll and every decision out of turn (with ``wait``)."""

import json
import random

import pexpect

import stich
from stich.cli.play import resolve_input
from stich.cli.words import is_raise_poll

from .helpers import PROMPT, spawn


def _battn(tmp_path, *args):
    return spawn(["play", "battn", "--lang", "en", "--seed", "5", "--bots", "random", "--record",
                  str(tmp_path / "r.json"), *args], tmp_path, timeout=60, toy=False)


def _record(tmp_path):
    rec = json.loads((tmp_path / "r.json").read_text())
    return rec, stich.game("battn").new_state(seed=rec["seed"], **(rec.get("setup") or {}))


def test_raise_polls_are_passed_without_a_prompt(tmp_path):
    child = _battn(tmp_path)
    prompts = 0
    while child.expect([PROMPT, pexpect.EOF]) == 0:   # up to 40 answers, or the match's end
        if prompts == 40:
            child.sendline("quit")
            child.expect(pexpect.EOF)
            break
        prompts += 1
        child.sendline("1")
    rec, state = _record(tmp_path)
    polls = choices = 0
    for seat, text in rec["actions"]:
        legal = state.legal_actions(0)
        if seat == 0 and state.current_player == 0 and is_raise_poll(legal):
            polls += 1
            assert text == "pass"          # the standing answer
        elif state.current_player == 0 and len(legal) > 1:
            choices += 1                   # a real choice: asked
        state.apply(text, seat=seat)
    assert polls >= 3, "no raise poll in these prompts: the test proves nothing"
    assert choices == prompts              # every prompt was a real choice, and every real choice was asked
    assert "(auto pass: 'auto ask' to be asked, 'auto raise' to raise at your next chance)" \
        in child.transcript.getvalue()


def test_auto_raise_raises_at_the_next_chance_once(tmp_path):
    child = _battn(tmp_path)
    child.expect(PROMPT)   # the cut: raising is not legal yet, so the order waits
    child.sendline("auto raise")
    child.expect(PROMPT)
    assert "Standing orders: raise polls: you pass them; at your next chance: raise." in child.before
    child.sendline("1")
    for _ in range(60):
        if child.expect([PROMPT, pexpect.EOF]) == 1:
            break
        if "your standing order: raise at your next chance" in child.transcript.getvalue():
            child.sendline("quit")
            child.expect(pexpect.EOF)
            break
        child.sendline("1")
    rec, state = _record(tmp_path)
    raises = [i for i, (seat, text) in enumerate(rec["actions"]) if seat == 0 and text == "raise"]
    assert raises, "the armed raise was never taken"
    for i, (seat, text) in enumerate(rec["actions"]):   # (no raise is legal before the first prompt)
        verbs = {a.verb for a in state.legal_actions(0)}
        # the order never answers the other side's raise (that is always asked): a re-raise offered
        # beside accept is not the chance it waits for
        if "raise" in verbs and "accept" not in verbs:
            assert (seat, text) == (0, "raise"), f"action {i}: raise was legal for seat 1 but {seat + 1}:{text} came"
            break
        state.apply(text, seat=seat)
    assert child.transcript.getvalue().count("your standing order: raise") == 1   # once: the order is spent


def test_auto_ask_asks_at_polls_and_out_of_turn_with_wait(tmp_path):
    child = _battn(tmp_path, "--auto", "ask")
    seen_poll = seen_out = False
    for _ in range(80):
        child.expect(PROMPT)
        screen = child.before
        if "You may act out of turn:" in screen:
            seen_out = True
            assert ") wait" in screen
            child.sendline("wait")
            continue
        if ") pass" in screen and ") raise" in screen and ") play" not in screen:
            seen_poll = True
        if seen_poll and seen_out:
            break
        child.sendline("1")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert seen_poll and seen_out


def test_an_armed_raise_waits_while_the_other_side_s_raise_is_to_be_answered():
    from stich.cli.words import Standing

    g = stich.game("watten", "bavarian_4")
    state = g.new_state(seed=1)
    rng = random.Random(1)
    while not {"accept", "fold", "raise"} <= {a.verb for a in state.legal_actions()}:
        state.apply(rng.choice(state.legal_actions()))
    order = Standing(armed={"raise"})
    assert order.due(state.legal_actions()) is None and order.armed == {"raise"}   # asked, not answered
    answerer = state.current_player
    state.apply("accept")
    # PR-W3: who accepted may raise again before the next card, out of turn: now the order is taken, once
    assert "raise" in [str(a) for a in state.legal_actions(answerer)] and state.current_player != answerer
    assert order.due(state.legal_actions(answerer)) == "raise" and order.armed == set()
    assert order.due(state.legal_actions(answerer)) is None


def test_auto_commands_are_understood():
    state = stich.game("battn").new_state(seed=5)
    rng = random.Random(5)
    while not is_raise_poll(state.legal_actions()):
        state.apply(rng.choice(state.legal_actions()))
    for text, order in (("auto", ""), ("auto pass", "pass"), ("auto ask", "ask"), ("AUTO RAISE", "raise"),
                        ("auto bieten", "raise"), ("auto off", "off")):
        choice = resolve_input(text, state)
        assert (choice.kind, choice.message) == ("auto", order), text
    assert resolve_input("auto fold", state).kind == "error"   # an answer to a raise is always asked
    bad = resolve_input("auto sometimes", state)
    assert bad.kind == "error" and "'auto ACTION'" in bad.message and "raise" in bad.message
