"""The import graph of ``stich``: imports point down the layers (cards -> engine -> roles -> games ->
bots -> apps) and no module imports itself back through others (no cycle).  Lazy imports inside
functions count as well: they are dependencies all the same."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"

#: module name prefixes by layer, lowest first (the longest matching prefix decides)
LAYERS = (
    ("cards", ("stich.errors", "stich.cards")),
    ("engine", ("stich.engine", "stich")),   # the package itself only re-exports the engine
    # what a game's companions build on (the heuristic's helpers, the kernel base, the encoders'
    # blocks): below the games, so a game's package holds its companions without the bots above
    ("roles", ("stich.roles",)),
    # the words a match is told in (stich.narration) serve every app, so they sit below them all
    ("games", ("stich.rulesets", "stich.narration")),
    ("bots", ("stich.bots", "stich.encoding", "stich.protocol")),
    ("apps", ("stich.cli", "stich.arena", "stich.openspiel", "stich.pettingzoo", "stich.testing", "stich.vector",
              "stich.web")),
)


def layer(module: str) -> int:
    best, rank = -1, None
    for i, (_name, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best:
                best, rank = len(p), i
    assert rank is not None, f"{module} is in no layer: add it to LAYERS"
    return rank


def modules() -> dict[str, Path]:
    out = {}
    for path in (SRC / "stich").rglob("*.py"):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The stich modules ``name`` imports (``from a import b`` counts ``a.b`` when that is a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = []
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            for a in node.names:
                sub = f"{base}.{a.name}"
                found.add(sub if sub in known else base)
    return {m for m in found if m == "stich" or m.startswith("stich.")} - {name}


def graph() -> dict[str, set[str]]:
    mods = modules()
    return {name: imports(name, path, set(mods)) for name, path in mods.items()}


def test_imports_point_down_the_layers():
    wrong = sorted(f"{a} ({LAYERS[layer(a)][0]}) imports {b} ({LAYERS[layer(b)][0]})"
                   for a, deps in graph().items() for b in deps if layer(b) > layer(a))
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``g``: its strongly connected components of more than one node, sorted
    (Tarjan's algorithm)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in g.get(v, ()):
            if w not in g:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle():
    found = cycles(graph())
    assert not found, f"import cycles: {found}"


def area(module: str) -> str:
    """The area a module belongs to: its top-level subpackage or module under ``stich`` (``stich.cli``,
    ``stich.protocol``), the package ``stich`` itself being one of its own."""
    return ".".join(module.split(".")[:2])


def area_tangles(g: dict[str, set[str]]) -> list[str]:
    """The areas of the module graph ``g`` that import each other, directly or through other areas, each
    with the module imports that tie them together."""
    between = {}   # (area, area) -> the module imports that make that edge
    for a, deps in g.items():
        for b in deps:
            if area(a) != area(b):
                between.setdefault((area(a), area(b)), []).append(f"{a} -> {b}")
    areas = {}
    for a, b in between:
        areas.setdefault(a, set()).add(b)
        areas.setdefault(b, set())
    return [" <-> ".join(tangle) + ":\n    " + "\n    ".join(
                sorted(e for (a, b), imps in between.items() if a in tangle and b in tangle for e in imps))
            for tangle in cycles(areas)]


def test_no_import_cycle_between_areas():
    """Two areas that import each other, directly or through others, are one tangle even when no single
    module cycles (``stich.web.ui.narration`` -> ``stich.cli.render`` while ``stich.cli.main`` ->
    ``stich.web.app``): an area's modules may only lean on areas that never lean back."""
    wrong = area_tangles(graph())
    assert not wrong, "import cycles between areas:\n" + "\n".join(wrong)


def test_an_area_cycle_without_a_module_cycle_is_found():
    """The check above is not vacuous: areas tied in a ring through a third, no module importing itself back."""
    g = {"stich.a.x": {"stich.b"}, "stich.b": {"stich.c.y"}, "stich.c.y": {"stich.a.z"}, "stich.a.z": set(),
         "stich.d": {"stich.a.x"}}
    assert not cycles(g)
    assert area_tangles(g) == ["stich.a <-> stich.b <-> stich.c:\n    stich.a.x -> stich.b\n    stich.b -> stich.c.y"
                               "\n    stich.c.y -> stich.a.z"]


def test_the_graph_sees_real_imports():
    g = graph()
    assert "stich.engine.core" in g["stich.rulesets.watten.game"] or "stich.engine" in g["stich.rulesets.watten.game"]
    assert "stich.protocol" in g["stich.bots.external"] and "stich.bots.base" in g["stich.bots.external"]


#: the built-in games: the packages of ``stich.rulesets`` (a new one joins the check below by being there)
BUILT_IN = sorted(p.name for p in (SRC / "stich" / "rulesets").iterdir()
                  if (p / "__init__.py").is_file())


def named_after_a_game(names, games=BUILT_IN) -> list[str]:
    """The module names of ``names`` with a part named after one of ``games`` (``watten``,
    ``watten_words``) that do not lie in that game's own package ``stich.rulesets.<game>``."""
    out = []
    for name in sorted(names):
        for game in games:
            if any(game in part for part in name.split(".")) and not (
                    name == f"stich.rulesets.{game}" or name.startswith(f"stich.rulesets.{game}.")):
                out.append(f"{name} (after {game})")
    return out


def test_no_module_outside_a_games_package_is_named_after_it():
    """A game is one package (issue #33): its rules, heuristic, kernel, encoding, words and page live
    under ``stich.rulesets.<game>``; the generic layers (engine, roles, bots, encoding, web, cli...)
    hold only mechanisms, so no module elsewhere is named after a built-in game."""
    assert {"watten", "battn", "biscambiggia", "barbu"} <= set(BUILT_IN)
    wrong = named_after_a_game(modules())
    assert not wrong, "modules named after a game outside its package:\n" + "\n".join(wrong)


def test_a_module_named_after_a_game_is_found():
    """The check above is not vacuous: the old places of a game's companions are found, its own are not."""
    assert named_after_a_game(["stich.bots.heuristic.watten", "stich.encoding.barbu", "stich.i18n.battn_words",
                               "stich.rulesets.watten.heuristic", "stich.rulesets.barbu", "stich.bots.search"],
                              games=["watten", "battn", "barbu"]) == [
        "stich.bots.heuristic.watten (after watten)", "stich.encoding.barbu (after barbu)",
        "stich.i18n.battn_words (after battn)"]
