"""Would compiled kernels bring ``stich bench`` to OpenSpiel's C++ euchre (issue #39)?  Two probes.

1. ``same-source``: the hot modules of the lean path (the engine's ``core``, ``internals`` and
   ``actions``, each game's state modules) compiled by Cython from the unchanged Python source (a
   copy of ``src`` in a temporary folder), against the pure modules: child processes of each build
   in turn play a fixed number of hands of every game variant through ``stich bench``'s loop and
   of OpenSpiel's euchre and hearts, and report CPU seconds per hand (on a busy machine the CPU time
   of fixed work moves less than wall-clock rates); each also plays whole random matches per
   variant, whose digest (every list of legal action numbers, the returns) must be the same for
   both builds.
2. ``native``: a typed extension type of Biscambiggia's lean match written for the probe
   (``compiled_probe_biscambiggia.pyx``: standard options only, a second implementation of the
   rules), first checked against the engine position by position over random matches (the legal
   action numbers, the seat on turn, the hand number, the returns), then timed through the bench
   loop against euchre and the engine's lean path in one process (CPU time of fixed work, in turn).

Neither build is part of stich: Cython is not one of its dependencies.  Install it where the
probe runs (``pip install cython``; a C compiler and Python's headers are needed) and OpenSpiel
for the reference (``pip install '.[openspiel]'``):

    python benchmarks/compiled_probe.py [same-source|native|both] [--runs 10] [--hands 400] [--matches 210]

On 2 busy shared cores the compilation took 2-8 minutes, the runs 3, the native probe 1.

The figures of 2026-11-28 are in docs/research.md ("Speed of the learning interfaces").
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"

# What the lean loop spends its time in (cProfile of `stich bench`'s loop, every game): the engine's
# step/legal_ids, the games' _legal_actions/_apply and what they call.
HOT = [
    "stich/engine/core.py", "stich/engine/internals.py", "stich/engine/actions.py",
    "stich/rulesets/watten/state.py", "stich/rulesets/watten/deal.py", "stich/rulesets/watten/play.py",
    "stich/rulesets/battn/state.py", "stich/rulesets/biscambiggia/state.py", "stich/rulesets/barbu/state.py",
]


def _cythonize(sources: list[str], where: Path) -> None:
    """Compile ``sources`` (paths under ``where``) in place, in a child process (setuptools' argv)."""
    script = (
        "import sys\n"
        "from setuptools import setup\n"
        "from Cython.Build import cythonize\n"
        f"setup(ext_modules=cythonize({sources!r}, language_level=3, quiet=True,\n"
        "      compiler_directives={'annotation_typing': False, 'binding': True}),\n"
        "      script_args=['build_ext', '--inplace', '--build-temp', 'build-tmp'])\n"
    )
    subprocess.run([sys.executable, "-c", script], cwd=where, check=True, stdout=subprocess.DEVNULL)


def build_same_source(tmp: Path) -> Path:
    """A copy of ``src`` with the hot modules compiled next to their sources; returns its folder."""
    out = tmp / "src"
    shutil.copytree(SRC, out, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    # Cython 3.3 crashes ("Compiler crash in MarkParallelAssignments") on Barbu's unrolled deal, a
    # 13-name unpacking of a list slice inside a loop over a tuple; unpacking a list() of the slice
    # compiles, and is the same statement for Python.
    barbu = out / "stich/rulesets/barbu/state.py"
    text = barbu.read_text()
    old = "c12 = perm[i:i + 13]"
    if old not in text:
        raise SystemExit(f"{barbu}: the line this probe works around has changed; update the probe")
    barbu.write_text(text.replace(old, "c12 = list(perm[i:i + 13])"))
    started = time.perf_counter()
    _cythonize(HOT, out)
    print(f"compiled {len(HOT)} modules with Cython in {time.perf_counter() - started:.0f} s", flush=True)
    return out


_CHILD = """
import hashlib, json, random, sys, time
sys.path.insert(0, sys.argv[1])
import stich, stich.engine.core
from compiled_probe import _euchre_deals, _hands
n = int(sys.argv[2])
out = {"compiled": stich.engine.core.__file__.endswith(".so"), "cpu": {}, "digest": {}}
for name in sorted(stich.games()):
    for variant in stich.engine.game_class(name).variants:
        g = stich.game(name, variant)
        digest, choice = hashlib.sha256(), random.Random(1).choice
        for seed in range(10):   # whole matches
            state = g.new_state(seed=seed, lean=True)
            while not state.is_terminal():
                ids = state.legal_ids()
                digest.update(repr((ids, state.current_player, state.hand_number)).encode())
                state.step(choice(ids))
            digest.update(repr(state.returns()).encode())
        out["digest"][f"{name} {variant}"] = digest.hexdigest()
        _hands(g, 30)   # warm the game's caches
        started = time.process_time()
        _hands(g, n)
        out["cpu"][f"{name} {variant}"] = (time.process_time() - started) / n
for ref in ("euchre", "hearts"):
    _euchre_deals(30, game=ref)
    started = time.process_time()
    _euchre_deals(n, game=ref)
    out["cpu"][ref] = (time.process_time() - started) / n
print(json.dumps(out))
"""


def same_source(runs: int, hands: int) -> None:
    """The pure and the compiled build in turn, ``runs`` times each, a child process per run: CPU
    seconds per hand of fixed work (the same seeds and choices), each game over the reference
    measured in the same child."""
    with tempfile.TemporaryDirectory(prefix="stich-compiled-") as tmp:
        compiled = build_same_source(Path(tmp))
        cpu: dict[str, list[dict]] = {"pure": [], "compiled": []}
        digests: dict[str, list[str]] = {}
        for run in range(runs):
            order = (("pure", SRC), ("compiled", compiled))
            for label, path in order if run % 2 == 0 else order[::-1]:
                env = dict(os.environ, PYTHONPATH=str(path))
                done = subprocess.run([sys.executable, "-c", _CHILD, str(HERE), str(hands)], env=env, check=True,
                                      capture_output=True, text=True)
                result = json.loads(done.stdout.strip().splitlines()[-1])
                if result["compiled"] != (label == "compiled"):
                    raise SystemExit(f"the {label} run imported the wrong build of stich.engine.core")
                cpu[label].append(result["cpu"])
                digests.setdefault(json.dumps(result["digest"], sort_keys=True), []).append(label)
            print(f"  run {run + 1} of {runs} done", flush=True)
    if len(digests) != 1:
        raise SystemExit("the compiled build plays other games than the pure one (the digests of random play differ)")
    print("both builds played the same random matches (10 per variant, every list of legal actions and the returns)")
    print(f"\n{'game':25s} {'pure: x ref':>12s} {'compiled: x ref':>16s} {'compiled / pure':>16s}")
    for key in cpu["pure"][0]:
        if key in ("euchre", "hearts"):
            continue
        ref = "hearts" if key.startswith("barbu") else "euchre"
        pure = statistics.median(r[ref] / r[key] for r in cpu["pure"])
        comp = statistics.median(r[ref] / r[key] for r in cpu["compiled"])
        gain = statistics.median(p[key] / c[key] for p, c in zip(cpu["pure"], cpu["compiled"], strict=True))
        print(f"{key:25s} {pure:12.2f} {comp:16.2f} {gain:15.2f}x")
    print("(x ref: hands per CPU second over OpenSpiel euchre's deals, hearts' for barbu, in the same child; "
          "medians over the runs)")


def native(matches: int, slices: int) -> None:
    import stich
    with tempfile.TemporaryDirectory(prefix="stich-native-") as tmp:
        shutil.copy(HERE / "compiled_probe_biscambiggia.pyx", Path(tmp) / "bisc_probe.pyx")
        _cythonize(["bisc_probe.pyx"], Path(tmp))
        sys.path.insert(0, tmp)
        from bisc_probe import BiscambiggiaProbe
    g = stich.game("biscambiggia")

    # the same game as the engine, position by position
    rng = random.Random(2026)
    positions = 0
    started = time.perf_counter()
    for _ in range(matches):
        seed = rng.randrange(2**40)
        a, b = g.new_state(seed=seed, lean=True), BiscambiggiaProbe(g, seed)
        while True:
            la, lb = a.legal_ids(), b.legal_ids()
            if (la, a.current_player, a.hand_number, a.is_terminal()) != (lb, b.current_player, b.hand_number,
                                                                           b.is_terminal()):
                raise SystemExit(f"seed {seed}: the probe and the engine differ after {a.actions_taken} actions")
            positions += 1
            if a.is_terminal():
                break
            x = rng.choice(la)
            a.step(x)
            b.step(x)
        if a.returns() != b.returns():
            raise SystemExit(f"seed {seed}: returns {b.returns()} against the engine's {a.returns()}")
    print(f"native probe: {positions:,} positions of {matches} matches the same as the engine "
          f"({time.perf_counter() - started:.0f} s)")

    class ProbeGame:   # what _hands asks of a game
        def new_state(self, seed, lean=True):
            return BiscambiggiaProbe(g, seed)

    probe = ProbeGame()
    # CPU time of a fixed number of hands (deals for euchre) in turn, per slice: on a busy machine
    # the CPU seconds of a fixed piece of work move less than the hands done in a wall-clock second
    rows: dict[str, list[float]] = {"euchre": [], "engine": [], "probe": []}
    for r in range(slices + 1):
        for key, play in (("euchre", _euchre_deals), ("engine", lambda n: _hands(g, n)),
                          ("probe", lambda n: _hands(probe, n))):
            started = time.process_time()
            play(300)
            if r:   # the first slice warms the caches
                rows[key].append(300 / (time.process_time() - started))
    med = {k: statistics.median(v) for k, v in rows.items()}
    per = [p / e for p, e in zip(rows["probe"], rows["euchre"], strict=True)]
    print(f"hands per CPU second, median of {slices} slices of 300 hands: euchre {med['euchre']:,.0f}; engine's lean "
          f"path {med['engine']:,.0f} ({med['engine'] / med['euchre']:.2f}x euchre); native probe {med['probe']:,.0f} "
          f"({statistics.median(per):.2f}x euchre, {med['probe'] / med['engine']:.1f}x the engine); "
          f"probe/euchre per slice {min(per):.2f}-{max(per):.2f}")


def _hands(g, n: int, seed: int = 0) -> None:
    """``n`` hands of ``g`` from new states through ``stich bench``'s loop (play_hand, without the
    clock; the game's ``bench_first_action`` too: Barbu's hands are deals of a trick contract)."""
    from stich.cli.bench import play_hand

    rng = random.Random(seed)
    first = getattr(g, "bench_first_action", None)
    for s in range(1, n + 1):
        play_hand(g, s, rng, first)


def _euchre_deals(n: int, seed: int = 0, game: str = "euchre") -> None:
    """``n`` deals of OpenSpiel's ``game`` through the same loop (stich.cli.bench.play_openspiel_deal)."""
    import pyspiel

    from stich.cli.bench import play_openspiel_deal

    game = pyspiel.load_game(game)
    choice = random.Random(seed).choice
    for _ in range(n):
        play_openspiel_deal(game, choice)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("what", nargs="?", default="both", choices=("same-source", "native", "both"))
    p.add_argument("--runs", type=int, default=10, help="runs of each build, in turn")
    p.add_argument("--hands", type=int, default=400, help="hands of each game variant per run")
    p.add_argument("--matches", type=int, default=210, help="matches of the native probe's check (~500 positions each)")
    p.add_argument("--slices", type=int, default=9, help="timed slices of the native probe (300 hands each)")
    a = p.parse_args()
    try:
        import Cython  # noqa: F401
    except ImportError:
        raise SystemExit("this probe needs Cython (pip install cython) and a C compiler; "
                         "stich itself does not") from None
    if a.what in ("same-source", "both"):
        same_source(a.runs, a.hands)
    if a.what in ("native", "both"):
        native(a.matches, a.slices)
