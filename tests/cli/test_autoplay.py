"""Nothing to choose, nothing asked: forced moves play themselves (with a line saying so), ``cut`` alone
cuts at random, and ``--no-autoplay`` / ``autoplay off`` bring every prompt back."""

import json
import random
import re

import pexpect

import stich
from stich.cli.play import forced_action, resolve_input

from .helpers import PROMPT, answer_until_end, check_record, spawn


def _first(game, pred, seed=7, **kw):
    """The first state of a random-play match of ``game`` where ``pred(state)`` holds."""
    state = stich.game(game, **kw).new_state(seed=seed)
    rng = random.Random(seed)
    while not pred(state):
        assert not state.is_terminal(), "no such state in this match"
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_a_single_legal_action_is_forced_and_a_choice_is_not():
    forced = _first("barbu", lambda s: len(s.legal_actions()) == 1)
    assert forced_action(forced) == str(forced.legal_actions()[0])
    free = _first("barbu", lambda s: len(s.legal_actions()) > 1)
    assert forced_action(free) is None


def test_the_barbu_callers_doubling_pass_and_the_domino_pass_are_forced():
    def caller_doubling(s):
        v = s.view(s.current_player)
        return v.get("contract") and s.current_player == v.get("caller") and not s.view(0).get("trick") \
            and s.legal_actions() == ["pass"]
    assert forced_action(_first("barbu", caller_doubling)) == "pass"
    domino = _first("barbu", lambda s: s.view(0).get("layout") and s.legal_actions() == ["pass"], seed=3)
    assert forced_action(domino) == "pass"


def test_cut_alone_cuts_at_random_among_the_legal_cuts():
    state = _first("watten", lambda s: any(str(a).startswith("cut ") for a in s.legal_actions()),
                   variant="bavarian_4")
    cuts = {str(a) for a in state.legal_actions() if str(a).startswith("cut ")}
    chosen = {resolve_input("cut", state, rng=random.Random(i)).action for i in range(30)}
    assert chosen <= cuts and len(chosen) > 3
    assert resolve_input("cut 5", state).action == "cut 5"      # a named cut is still that cut


def test_battn_cut_alone_is_a_random_cut_not_cut_done():
    state = _first("battn", lambda s: "cut_done" in s.legal_actions())
    for i in range(10):
        choice = resolve_input("cut", state, rng=random.Random(i))
        assert choice.kind == "action" and choice.action.startswith("cut ") and choice.action != "cut_done"


def test_autoplay_commands_are_understood():
    state = _first("barbu", lambda s: True)
    assert resolve_input("autoplay off", state).kind == "autoplay"
    assert resolve_input("autoplay off", state).message == "off"
    assert resolve_input("autoplay on", state).message == "on"
    assert resolve_input("autoplay maybe", state).kind == "error"


def test_a_barbu_match_asks_only_real_choices_and_says_what_it_played(tmp_path):
    child = spawn(["play", "--lang", "en", "barbu", "--seat", "2", "--seed", "4", "--bots", "random"], tmp_path,
                  timeout=60, toy=False)
    child.delaybeforesend = None
    for _ in range(60):   # two or three deals, one of them a domino (seed 4)
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    log = child.transcript.getvalue()
    rec = json.loads((tmp_path / "stich-barbu-4.json").read_text())
    state = stich.game("barbu").new_state(seed=4)
    real = 0
    for seat, text in rec["actions"]:
        real += seat == 1 and len(state.legal_actions()) > 1
        state.apply(text)
    assert real == 60 < sum(seat == 1 for seat, _ in rec["actions"])
    assert "your only legal action" in log
    assert re.search(r"wins? the trick with \S+ \([^)]*\): the highest of the suit led", log)   # and why


def test_no_autoplay_and_autoplay_off_ask_every_time(tmp_path):
    child = spawn(["play", "toy", "--seed", "5", "--bots", "random", "--no-autoplay"], tmp_path)
    prompts = answer_until_end(child)
    rec = check_record(tmp_path / "stich-toy-5.json")
    assert prompts == sum(seat == 0 for seat, _ in rec["actions"])
    assert "only legal action" not in child.transcript.getvalue()

    child = spawn(["play", "toy", "--seed", "5", "--bots", "random", "--record", str(tmp_path / "b.json")],
                  tmp_path)
    child.expect(PROMPT)
    # the bots' seeds are secret (one way from the match's key), so moves may play themselves
    # before the first prompt; none may after 'autoplay off'
    played_for_you = child.transcript.getvalue().count("(your only legal action, played for you)")
    child.sendline("autoplay off")
    child.expect("Autoplay is off")
    mark = len(child.transcript.getvalue())
    prompts = 1 + answer_until_end(child)
    rec = check_record(tmp_path / "b.json")
    assert "only legal action" not in child.transcript.getvalue()[mark:]
    assert prompts - 1 + played_for_you == sum(seat == 0 for seat, _ in rec["actions"])
