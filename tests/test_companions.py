"""A game's companions are declared against their roles (``stich.engine.ROLES``): a misspelled or
missing role, a companion that does not import, lacks a required member or misspells one is an
error naming the game and the role - at registration, at first use and in ``stich.testing`` - never a
silent fall back to "no companion"."""

from __future__ import annotations

import importlib
import sys
import textwrap

import pytest

import stich
from stich.engine import ROLES, CompanionError, companion, member, registry
from stich.testing import check_companions, check_game, check_score_layout

GOOD = dict.fromkeys(ROLES)


@pytest.fixture
def package(tmp_path, monkeypatch):
    """``make(name, companions, **modules)``: a game ``name`` (the toy game with ``companions``) in a
    temporary package with the given companion modules (name -> source), registered while the test runs."""
    monkeypatch.syspath_prepend(str(tmp_path))
    made = []

    def make(name: str, companions: dict, **modules: str) -> str:
        pkg = tmp_path / name
        pkg.mkdir()
        (pkg / "__init__.py").write_text(textwrap.dedent(f"""
            from tests.cli.toygame import ToyGame

            class Game(ToyGame):
                name = {name!r}
                companions = {companions!r}
        """), encoding="utf-8")
        for mod, source in modules.items():
            (pkg / f"{mod}.py").write_text(textwrap.dedent(source), encoding="utf-8")
        importlib.invalidate_caches()
        stich.engine.register(name, f"{name}:Game")
        made.append(name)
        return name

    yield make
    for name in made:
        registry._GAMES.pop(name, None)
        for key in [k for k in registry._COMPANIONS if k[0] == name]:
            del registry._COMPANIONS[key]
        for mod in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            del sys.modules[mod]


def test_every_shipped_game_declares_every_role_and_its_companions_fill_them():
    for name in ("watten", "battn", "biscambiggia", "barbu"):
        cls = stich.engine.game_class(name)
        assert set(cls.companions) == set(ROLES), name
        check_companions(cls)


def test_a_misspelled_role_is_refused_naming_the_game_and_the_role(package):
    name = package("typo_role", {**GOOD, "heuristc": "x.y"})
    with pytest.raises(CompanionError, match=r"typo_role.*'heuristc' is unknown \('heuristic' was meant\?\)"):
        stich.engine.game_class(name)


def test_a_role_left_out_is_refused_not_taken_for_none(package):
    declared = {k: v for k, v in GOOD.items() if k != "kernel"}
    name = package("no_kernel_said", declared)
    with pytest.raises(CompanionError, match=r"no_kernel_said.*does not declare 'kernel'"):
        stich.game(name)


def test_a_companion_that_does_not_import_is_an_error_not_none(package):
    name = package("gone_module", {**GOOD, "kernel": "gone_module.nothing_here"})
    with pytest.raises(CompanionError, match=r"gone_module.*'kernel' companion gone_module.nothing_here does not"):
        companion(name, "kernel")


def test_a_missing_required_member_is_an_error(package):
    name = package("no_choose", {**GOOD, "heuristic": "no_choose.heur"},
                   heur="def chose(view, legal, rng):\n    return legal[0]\n")
    with pytest.raises(CompanionError, match=r"no_choose.*'heuristic' companion.*no 'choose'"):
        companion(name, "heuristic")


def test_a_misspelled_optional_member_is_an_error_not_its_default(package):
    name = package("typo_member", {**GOOD, "bets": "typo_member.bets"}, bets='RAIS = "raise"\nACCEPT = "accept"\n')
    with pytest.raises(CompanionError, match=r"typo_member.*'bets'.*'RAIS' is no member of the role: 'RAISE' was"):
        member(name, "bets", "RAISE")


def test_members_come_together_where_the_role_says_so(package):
    name = package("half_curve", {**GOOD, "heuristic": "half_curve.heur"},
                   heur="BET_CURVE = (1, 1, 0)\ndef choose(view, legal, rng):\n    return legal[0]\n")
    with pytest.raises(CompanionError, match=r"half_curve.*'BET_CURVE' without 'bet_reading'"):
        companion(name, "heuristic")


def test_a_declared_none_reads_the_roles_defaults_and_an_undeclared_name_is_the_callers_error():
    assert companion("toy", "kernel") is None
    assert member("toy", "bets", "RAISE") is None and member("toy", "bets", "DECIDED") == frozenset()
    assert member("watten", "bets", "RAISE") == "raise"
    with pytest.raises(KeyError, match="'RAIS' is no member of the 'bets' companion role"):
        member("watten", "bets", "RAIS")
    with pytest.raises(KeyError, match="no companion role 'kernal'"):
        companion("watten", "kernal")


def test_the_conformance_kit_refuses_a_game_with_a_broken_companion(package):
    name = package("kit_broken", {**GOOD, "kernel": "kit_broken.kern"}, kern="def off(state):\n    return None\n")
    cls = stich.engine.game_class(name)
    with pytest.raises(CompanionError, match=r"kit_broken.*'kernel'.*no 'of'"):
        check_game(cls, matches=1, pairwise=False)


def test_the_kit_checks_the_declared_score_layout(package):
    """The bet arithmetic reads ``Game.scores_by`` instead of guessing from the scores' length."""
    for name in ("watten", "battn", "biscambiggia", "barbu"):
        check_score_layout(stich.engine.game_class(name))
    assert stich.game("watten", variant="bavarian_4").scores_by == "side"
    assert stich.game("watten", variant="bavarian_3").scores_by == "seat"
    cls = stich.engine.game_class(package("sides_typo", GOOD))
    cls.scores_by = "sides"
    with pytest.raises(AssertionError, match="scores_by is 'seat' or 'side', not 'sides'"):
        check_game(cls, matches=1, pairwise=False)


def test_a_built_in_games_words_are_in_its_package_and_read_when_it_loads(tmp_path):
    """A game is one package, its words too (issue #33): a built-in game's catalogues are in
    ``stich/rulesets/<game>/locale`` (its ``Game.catalogues``), read when the registry loads the game,
    as a game from another package brings its own; a variant's class from elsewhere reads its base's."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    import stich
    from stich.engine import game_class

    for name in ("watten", "battn", "biscambiggia", "barbu"):
        where = Path(game_class(name).catalogues)
        assert where == Path(stich.__file__).parent / "rulesets" / name / "locale"
        assert sorted(p.parent.parent.name for p in where.glob(f"*/LC_MESSAGES/{name}.po")) == ["de", "en", "fr", "it"]
    # a variant's class from elsewhere, with no catalogues of its own
    (tmp_path / "localwatten.py").write_text(
        "from stich.rulesets.watten import WattenGame\n\n\n"
        "class Local(WattenGame):\n    name = 'local-watten'\n    catalogues = None\n", encoding="utf-8")
    code = """if True:
        from stich.engine import game_class, register
        from stich.i18n import translator
        word = "%(card)s: bottom of the pack, not dealt"   # a word of Watten's catalogue only
        before = translator("de").gettext(word)
        register("local-watten", "localwatten:Local")
        game_class("local-watten")
        print(before == word, translator("de").gettext(word))
    """
    path = os.pathsep.join([str(Path(stich.__file__).parents[1]), str(tmp_path)])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": path})
    assert done.returncode == 0, done.stderr
    # Watten's words are read with the first class the registry loads that is Watten's or based on it
    assert done.stdout == "True %(card)s: unterste Karte, wird nicht gegeben\n", done.stdout
