"""Shared helpers for the CLI tests: spawning ``stich`` under pexpect with the toy game."""

import io
import json
import os
import re
import shutil
import sys

import pexpect

import stich
from stich.i18n import translator
from stich.narration import Names

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RUNNER = os.path.join(HERE, "run_stich.py")
#: the child's import path: this checkout's stich (src) before any installed one, and the tests package
PYTHONPATH = os.pathsep.join([os.path.join(ROOT, "src"), ROOT])
PROMPT = r"Your move \[1-\d+, action, help, quit\]: "


def spawn(args, cwd, timeout=20, toy=True, path=()):
    """``stich ARGS`` in a pseudo-terminal, as a user's terminal runs it.

    ``toy``: through tests/cli/run_stich.py, which registers the fixture game first; otherwise
    the installed ``stich`` script (or ``python -m stich.cli.main`` where it is not on PATH).
    ``path``: more directories on the child's import path (a package a test wrote, with its entry point).
    """
    env = dict(os.environ, TERM="dumb", PYTHONPATH=os.pathsep.join([*path, PYTHONPATH]), COLUMNS="140",
               PYTHONIOENCODING="utf-8")
    if toy:
        cmd, argv = sys.executable, [RUNNER]
    elif shutil.which("stich"):
        cmd, argv = shutil.which("stich"), []
    else:
        cmd, argv = sys.executable, ["-m", "stich.cli.main"]
    child = pexpect.spawn(cmd, [*argv, *args], cwd=str(cwd), env=env, encoding="utf-8",
                          timeout=timeout, dimensions=(50, 140))
    child.logfile_read = child.transcript = io.StringIO()  # everything stich printed
    return child


def answer_until_end(child, answer="1", limit=5000, lang="en"):
    """Answer every prompt (in ``lang``) with ``answer`` until the match is over; returns the number of prompts."""
    prompts = 0
    tr = translator(lang)
    prompt = re.escape(tr.gettext("Your move [1-%(n)s, action, help, quit]: ")).replace(re.escape("%(n)s"), r"\d+")
    saved = re.escape(tr.gettext("Record saved to %(path)s")).replace(re.escape("%(path)s"), r"(\S+)")
    while True:
        i = child.expect([prompt, saved, pexpect.EOF])
        if i == 0:
            prompts += 1
            assert prompts < limit, "the match does not end"
            child.sendline(answer)
        elif i == 1:
            child.expect(pexpect.EOF)
            return prompts
        else:
            raise AssertionError("stich exited before the match was over:\n" + (child.before or ""))


def check_record(path):
    """The record file is a finished match that stich.replay reproduces; returns it."""
    with open(path, encoding="utf-8") as f:
        rec = json.load(f)
    assert rec["terminal"] is True
    state = stich.replay(rec)
    assert state.is_terminal()
    assert state.returns() == rec["returns"]
    assert [[s, str(a)] for s, a in state.history] == rec["actions"]
    return rec


class CardNames(Names):
    """``Names`` with the cards in ``lang`` but the reader's words (seats, labels) in English.

    The game-text tests check the sentences of each game's own text module and the cards' names in
    the game's language; the terminal's words in each language are tested in test_languages.py."""

    def __init__(self, game, lang: str = "en", human: int | None = None):
        super().__init__(game, lang, human)
        self._ = str
        self.ngettext = lambda one, many, n: one if n == 1 else many
