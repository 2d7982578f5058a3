"""The table server names no game: what a game allows at a live table (signals between partners, who
the partner is) is the game's declaration (``Game.signal_words``, ``signals_refused``, ``partner``),
so a new game package gets signals without a change to ``stich.web``.  Docstrings may name a game as
an example; code and comments may not."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

import stich
from stich.engine import Game
from stich.web.spec import BadRequest, parse_settings, signals_refusal

WEB = Path(stich.__file__).parent / "web"
GAMES = re.compile(r"watten|battn|biscambiggia|barbu", re.IGNORECASE)


def _docstring_lines(tree: ast.AST) -> set[int]:
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                lines.update(range(body[0].lineno, body[0].end_lineno + 1))
    return lines


@pytest.mark.parametrize("path", sorted(WEB.glob("*.py")), ids=lambda p: p.name)
def test_web_modules_name_no_game_outside_docstrings(path):
    source = path.read_text()
    docs = _docstring_lines(ast.parse(source))
    found = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.start[0] in docs:
            continue
        if GAMES.search(tok.string):
            found.append(f"{path.name}:{tok.start[0]}: {tok.string}")
    assert not found, found


def test_the_declarations_keep_the_rules_and_their_words():
    bav, eur, two, barbu = (stich.game("watten", "bavarian_4"), stich.game("watten", "euregio"),
                            stich.game("watten", "bavarian_2"), stich.game("barbu"))
    assert bav.signals_refused() is None and stich.game("watten", "tyrolean").signals_refused() is None
    assert [bav.partner(s) for s in range(4)] == [2, 3, 0, 1]
    assert two.partner(0) is None
    assert signals_refusal(eur) == "signals (Deuten) are forbidden in euregio Watten (rules §2.S)"
    assert signals_refusal(stich.game("watten", "blind")).startswith("signals (Deuten) are forbidden in blind")
    only4 = ("signals (Deuten) are a Watten custom between partners: only four-player Watten tables can allow "
             "them")
    assert signals_refusal(two) == only4
    assert signals_refusal(barbu) == only4  # a game without signals: where they exist
    # every game the project ships other than Watten declares none, and no fixed partner to signal to
    for name in ("battn", "biscambiggia", "barbu"):
        g = stich.game(name)
        assert g.signal_words == () and g.partner(0) is None
    assert Game.signals_refused(barbu) == "Barbu has no signals between partners"
    with pytest.raises(BadRequest, match="forbidden in euregio"):
        parse_settings({"signals": "on"}, eur)
    assert parse_settings({"signals": "on"}, bav)["signals"] == "on"
