"""The table fits an 80x24 terminal: before every prompt the whole hand, the table's title and every legal
action are on the screen (a real terminal emulator, pyte, reads what stich printed into a pseudo-terminal
of that size); suits are coloured on a colour terminal and not under NO_COLOR."""

import json
import os
import re
import sys

import pexpect
import pyte
import pytest

import stich
from stich.cli.words import is_raise_poll  # a raise poll is passed without a prompt
from stich.i18n import translator

from .helpers import PYTHONPATH

PROMPT = r"Your move \[1-(\d+), action, help, quit\]: "
GAMES = [("watten", "euregio", 3, "en"), ("watten", "bavarian_4", 5, "en"), ("watten", "bavarian_3", 2, "en"),
         ("watten", "tyrolean", 4, "en"), ("watten", "blind", 6, "en"), ("battn", None, 3, "en"),
         ("biscambiggia", None, 3, "en"), ("barbu", None, 4, "en"),
         # the games' own languages, whose words are longer: they fit too
         ("watten", "bavarian_4", 5, "de"), ("battn", None, 3, "it"), ("biscambiggia", None, 3, "it"),
         ("barbu", None, 4, "fr")]


def localised(msgid: str, lang: str, **groups) -> str:
    """A regular expression for a translated msgid, each ``%(name)s`` matching ``groups[name]``."""
    text = re.escape(translator(lang).gettext(msgid))
    for name, pattern in groups.items():
        text = text.replace(re.escape(f"%({name})s"), pattern)
    return text


def spawn_terminal(args, cwd, extra=None):
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update(TERM="xterm-256color", PYTHONPATH=PYTHONPATH, PYTHONIOENCODING="utf-8", **(extra or {}))
    child = pexpect.spawn(sys.executable, ["-m", "stich.cli.main", *args], cwd=str(cwd), env=env,
                          encoding="utf-8", timeout=60, dimensions=(24, 80))
    child.delaybeforesend = None
    return child


def screens_before_prompts(child, prompts, prompt=PROMPT):
    """The 80x24 screen at each of the first ``prompts`` prompts (each answered with 1), then quit (or the
    match is over before)."""
    screen = pyte.Screen(80, 24)
    stream = pyte.Stream(screen)
    shots = []
    while child.expect([prompt, pexpect.EOF]) == 0:
        if len(shots) == prompts:
            child.sendline("quit")
            child.expect(pexpect.EOF)
            break
        stream.feed(child.before + child.after)
        shots.append(([line.rstrip() for line in screen.display], int(child.match.group(1))))
        child.sendline("1")
        stream.feed("\r\n")
    return shots


@pytest.mark.parametrize(("game", "variant", "seed", "lang"), GAMES,
                         ids=[f"{g}-{v or 'standard'}-{lang}" for g, v, _, lang in GAMES])
def test_the_hand_the_table_and_every_action_fit_in_80x24(tmp_path, game, variant, seed, lang):
    args = ["play", "--lang", lang, game, "--seed", str(seed), "--bots", "random", "--record", str(tmp_path / "r.json")]
    child = spawn_terminal(args + (["--variant", variant] if variant else []), tmp_path)
    prompt = localised("Your move [1-%(n)s, action, help, quit]: ", lang, n=r"(\d+)")
    shots = screens_before_prompts(child, 30, prompt)   # several hands
    rec = json.loads((tmp_path / "r.json").read_text())
    state = stich.game(game, variant).new_state(seed=seed)
    asked = []
    for seat, text in rec["actions"]:
        if seat == 0 and len(state.legal_actions()) > 1 and not is_raise_poll(state.legal_actions()):
            asked.append(state.view(0))
        state.apply(text)
    # the bots are seeded from a secret key per match: a match may end sooner than 10 prompts
    assert (len(shots) >= 10 or (rec["terminal"] and len(shots) >= 3)) and len(asked) >= len(shots) - 1
    for (lines, n), view in zip(shots, asked, strict=False):
        text = "\n".join(lines)
        assert re.search(localised("you are Seat %(seat)s of %(n)s", lang, seat="1", n=r"\d"), text), text  # title
        start = translator(lang).gettext("Your move [1-%(n)s, action, help, quit]: ").split("[")[0]
        assert lines[-1].startswith(start) or lines[-2].startswith(start), text
        words = set(re.findall(r"[\w-]+", text))
        assert set(view["hand"]) <= words, f"the hand {view['hand']} is not all on screen:\n{text}"
        for i in range(1, n + 1):
            assert re.search(rf"(^|\s){i}\) \S", text), f"action {i} of {n} is not on screen:\n{text}"


def test_suits_are_coloured_on_a_colour_terminal_and_plain_under_no_color(tmp_path):
    args = ["play", "--lang", "en", "barbu", "--seed", "4", "--bots", "random", "--record", str(tmp_path / "r.json")]
    child = spawn_terminal(args, tmp_path)
    child.expect(PROMPT)
    coloured = child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert re.search(r"\x1b\[31m[HD](\d+|[JQKA])\x1b\[0m", coloured)   # hearts and diamonds in red
    child = spawn_terminal(args[:-2] + ["--record", str(tmp_path / "s.json")], tmp_path, extra={"NO_COLOR": "1"})
    child.expect(PROMPT)
    plain = child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert not re.search(r"\x1b\[[0-9;]*3[1-7]m|\x1b\[[0-9;]*38;[25];", plain)   # no colour at all
