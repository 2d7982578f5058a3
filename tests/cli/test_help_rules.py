"""``help [ACTION]`` explains an action in words for the game and variant at the table; ``rules`` prints the
table's rules and points to the complete rules in the repository (docs/rules/<game>.md)."""

import os
import random

import pexpect

import stich
from stich.cli.play import options_table, resolve_input, rules_text
from stich.cli.render import action_help, make_console

from .helpers import PROMPT, ROOT, spawn

#: stich's games (the tests register fixture games of their own beside them)
GAMES = [n for n in stich.games() if type(stich.game(n)).__module__.startswith("stich.rulesets.")]


def test_every_action_of_every_game_and_variant_is_explained_with_its_rule():
    assert {"watten", "battn", "biscambiggia", "barbu"} <= set(GAMES)
    for name in GAMES:
        for variant in stich.game(name).variants:
            g = stich.game(name, variant)
            for verb in sorted({a.verb for a in g.action_space}):
                text = action_help(g, verb)
                assert text and text.startswith(verb) and "rules " in text, (name, variant, verb, text)


def test_the_text_is_the_variants_own_where_its_rules_differ():
    euregio, tyrolean = stich.game("watten", "euregio"), stich.game("watten", "tyrolean")
    assert "third agreed request" in action_help(euregio, "ask_exchange")
    assert "once a deal" in action_help(tyrolean, "ask_exchange")
    assert "only the two Ansager" in action_help(euregio, "play")
    assert "Hauptschlag" in action_help(stich.game("watten", "bavarian_4"), "play")
    assert action_help(euregio, "nonsense") is None


def _state(game, pred, variant=None, seed=3):
    state = stich.game(game, variant).new_state(seed=seed)
    rng = random.Random(seed)
    while not pred(state):
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_help_words_at_the_prompt():
    state = _state("battn", lambda s: "scheanara" in s.legal_actions())
    before = state.record()
    choice = resolve_input("help scheanara", state)
    assert choice.kind == "help" and "Scheanara?" in choice.message
    n = [str(a) for a in state.legal_actions()].index("scheanara") + 1
    assert resolve_input(f"help {n}", state).message == choice.message            # by the action's number
    assert resolve_input("? scheanara", state).message == choice.message
    general = resolve_input("help", state).message
    assert "Type the number" in general and "help scheanara" in general   # names the actions of this moment
    bad = resolve_input("help frobnicate", state)
    assert bad.kind == "error" and "orbi" in bad.message and "scheanara_pass" in bad.message
    assert resolve_input("rules", state).kind == "rules"
    assert state.record() == before


def test_help_on_an_argument_explains_its_action():
    state = _state("barbu", lambda s: any(str(a).startswith("contract") for a in s.legal_actions()))
    choice = resolve_input("help NO_LAST_TWO", state)
    assert choice.kind == "help" and choice.message.startswith("contract") and "NO_LAST_TWO" in choice.message
    assert resolve_input("help double 2,3", state).message.startswith("double SEATS")


def test_the_games_own_words_are_explained():
    from stich.cli.render import help_module, word_help

    for name in GAMES:
        g = stich.game(name)
        words = help_module(g).WORDS
        assert len(words) >= 4
        for word, text in words.items():
            assert word_help(g, word.upper()) == text and "rules " in text, (name, word)
    watten = _state("watten", lambda s: True, "euregio")
    assert "lock score" in resolve_input("help gestrichen", watten).message
    assert "both the Schlag rank and the trump suit" in resolve_input("help Rechte", watten).message
    battn = _state("battn", lambda s: True)
    assert "Schlòk card of the Trumpf suit" in resolve_input("help Il Buono", battn).message
    assert "'help critici'" in resolve_input("help", battn).message


def test_rules_text_names_the_table_and_the_repositorys_rules_file():
    g = stich.game("watten", "euregio", target=15)
    text = rules_text(g, "de")
    assert g.rules_summary() in text and "target=15" in text
    console = make_console(width=120, record=True)
    console.print(options_table(g))
    table = console.export_text()
    assert "ansage_order" in table and "simultaneous" in table and "R2" in table
    assert "docs/rules/watten.md" in text and "docs/guides/watten.de.md" in text
    assert os.path.exists(os.path.join(ROOT, "docs", "rules", "watten.md"))
    assert os.path.exists(os.path.join(ROOT, "docs", "guides", "watten.de.md"))


def test_help_and_rules_at_the_table(tmp_path):
    child = spawn(["play", "--lang", "en", "watten", "--variant", "euregio", "--seed", "3", "--bots", "random",
                   "--record", str(tmp_path / "r.json")], tmp_path, toy=False)
    child.expect(PROMPT)
    child.sendline("help ask_exchange")
    child.expect("third agreed request")
    child.expect(PROMPT)
    child.sendline("rules")
    child.expect("docs/rules/watten.md")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
