"""Every word the terminal itself prints, in German, Italian and French: a few prompts of a real match in an
80x24 terminal (pyte reads what stich printed into a pseudo-terminal) show the table's labels, the prompt,
the generic narration, the help and the resume hint in the game's language, and none of the terminal's English
words; the catalogue has every word of the terminal in every language."""

import json
import os
import re
import sys

import pexpect
import pyte
import pytest

from stich.i18n import translator
from stich.i18n.extract import messages, missing

from .helpers import PYTHONPATH

#: what the terminal itself says in English (labels, prompt, generic narration): none may be left on screen
ENGLISH = ("Your hand", "Your move", "Your legal actions", "you are Seat", "Scores", "You receive", "wins the trick",
           "You win the trick", "── Hand ", "Type 'help'", "dealer Seat", "you (Seat")
#: English words that are also the right word in a language
SAME = {"fr": {"Scores"}}


def prompt_re(lang: str) -> str:
    text = translator(lang).gettext("Your move [1-%(n)s, action, help, quit]: ")
    return re.escape(text).replace(re.escape("%(n)s"), r"(\d+)")


def play(tmp_path, lang, game, *args, answers=12):
    """The 80x24 screens before the first ``answers`` prompts (each answered ``1``), then ``help`` and
    ``quit``; returns (screens, the text after help and quit).  The deal is seeded, the random bots are
    not (their seeds come from a fresh secret), so the Watten and Battn matches are played to 99 points:
    at their own targets random raising ended one in about 15 before the twelfth prompt."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(TERM="xterm", NO_COLOR="1", PYTHONPATH=PYTHONPATH, PYTHONIOENCODING="utf-8")
    cmd = ["-m", "stich.cli.main", "play", game, "--seed", "5", "--bots", "random", "--record",
           str(tmp_path / "r.json"), *args]
    child = pexpect.spawn(sys.executable, cmd, cwd=str(tmp_path), env=env, encoding="utf-8", timeout=60,
                          dimensions=(24, 80))
    child.delaybeforesend = None
    screen = pyte.Screen(80, 24)
    stream = pyte.Stream(screen)
    shots = []
    prompt = prompt_re(lang)
    for _ in range(answers):
        child.expect(prompt)
        stream.feed(child.before + child.after)
        shots.append("\n".join(line.rstrip() for line in screen.display))
        child.sendline("1")
        stream.feed("\r\n")
    child.expect(prompt)
    child.sendline("help")
    child.expect(prompt)
    said = child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    return shots, said + child.before


LANGS = [
    ("de", "watten", ["--variant", "bavarian_4", "-o", "target=99"],
     ("Deine Karten", "Stich", "Punkte", "du bist Platz 1 von 4", "Deine erlaubten Aktionen:", "Dein Zug [1-"),
     ("Tippe die Nummer einer Aktion", "Unfertige Partie gespeichert in", "Weiter mit: ")),
    ("it", "battn", ["-o", "target=99"],
     ("La tua mano", "Presa", "Punteggi", "sei il posto 1 di 4", "Le tue azioni permesse:", "La tua mossa [1-"),
     ("Scrivi il numero di un'azione", "Partita non finita salvata in", "Per continuare: ")),
    ("fr", "barbu", [], ("Votre main", "Pli", "Scores", "vous êtes la place 1 sur 4", "Vos actions permises :",
                         "Votre coup [1-"),
     ("Tapez le numéro d'une action", "Partie inachevée enregistrée dans", "Pour continuer : ")),
]


@pytest.mark.parametrize(("lang", "game", "args", "labels", "lines"), LANGS, ids=[x[0] for x in LANGS])
def test_the_game_language_is_the_terminals_language(tmp_path, lang, game, args, labels, lines):
    shots, said = play(tmp_path, lang, game, *args)   # no --lang: the game's own language
    assert len(shots) == 12
    every = "\n".join(shots)
    for label in labels:
        assert label in every, f"{label!r} is not on any screen:\n{shots[-1]}"
    for i, text in enumerate(shots):
        for english in set(ENGLISH) - SAME.get(lang, set()):
            assert english not in text, f"screen {i}: {english!r} left in English:\n{text}"
    for line in lines:
        assert line in said, said
    assert json.loads((tmp_path / "r.json").read_text())["cli"]["lang"] == lang


def test_lang_chooses_the_language_of_the_table(tmp_path):
    shots, said = play(tmp_path, "it", "watten", "--variant", "bavarian_4", "-o", "target=99", "--lang", "it",
                       answers=3)
    assert "La tua mano" in shots[0] and "Deine Karten" not in shots[0]
    shots, said = play(tmp_path, "en", "barbu", "--lang", "en", answers=3)
    assert "Your hand" in shots[0] and "Votre main" not in shots[0]


def test_the_generic_narration_and_result_are_translated():
    import stich
    from stich.cli.render import match_result_text
    from stich.narration import Names, describe_event

    g = stich.game("watten", "bavarian_4")
    de, fr = Names(g, "de", 0), Names(g, "fr", 0)
    assert describe_event({"type": "deal", "seat": 0, "cards": ["EO"]}, de) == "Du bekommst: EO (Eichel-Ober)"
    assert "Platz 2 macht den Stich" in describe_event({"type": "trick", "winner": 1}, de)
    assert "Spiel 2 · Geber Platz 3" in describe_event({"type": "hand_start", "hand": 2, "dealer": 2}, de)
    view = {"scores": [15, 5]}
    assert match_result_text(view, [1, -1, 1, -1], de) == "Ihr gewinnt 15:5: du und Platz 3"   # 2nd person plural
    assert match_result_text(view, [1, -1, 1, -1], fr) == "Vous et Place 3 gagnez 15:5"
    assert match_result_text(view, [-1, 1, -1, 1], de) == "Platz 2 und Platz 4 gewinnen 5:15; du verlierst"
    assert match_result_text(view, [-1, 1, -1, 1], fr) == "Place 2 et Place 4 gagnent 5:15 ; vous perdez"


@pytest.mark.parametrize("lang", ["de", "it", "fr"])
def test_every_word_of_the_terminal_is_in_the_catalogue(lang):
    assert len(messages("cli")) > 100
    assert missing(lang, "cli") == []
    tr = translator(lang)
    for m in messages("cli"):   # a translator may reorder, never drop, a placeholder
        assert sorted(re.findall(r"%\(\w+\)s", m)) == sorted(re.findall(r"%\(\w+\)s", tr.gettext(m))), m


def test_replay_speaks_the_language_too():
    import io
    import random

    import stich
    from stich.cli.render import make_console
    from stich.cli.replay import replay_record

    state = stich.game("watten", "bavarian_4").new_state(seed=2)
    rng = random.Random(2)
    while state.hand_number < 2:
        state.apply(rng.choice(state.legal_actions()))
    console = make_console(file=io.StringIO(), width=200)
    replay_record(state.record(), seat=0, console=console)   # no lang: the game's, German
    out = console.file.getvalue()
    assert "Sicht: Platz 1" in out and "Du bekommst: " in out and "Endstellung" in out and "Deine Karten" in out
    assert "── Spiel 1 · Geber Platz 4 ──" in out and "Die Aufzeichnung endet vor dem Ende der Partie" in out
    for english in ("seen by", "You receive", "Final position", "Your hand", "── Hand", "The record ends"):
        assert english not in out, english
