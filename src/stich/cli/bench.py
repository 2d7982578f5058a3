"""``stich bench``: random-play speed of every game and variant, in one Python process.

Per game and variant, each measured for ``seconds``, through the **lean simulation path** by default
(``new_state(lean=True)``: no events or history; the loop draws from ``legal_ids()`` and applies
with ``step``, action numbers as OpenSpiel's loop uses them; the same games as the full path,
``stich.testing.check_lean``), or through the full engine with ``full=True`` (``stich bench --full``:
text actions, events and history, as the table server and the terminal play):

* **hands/s** - a fresh state from a new seed, one hand played to its end (the end is
  ``state.hand_number`` changing or the match ending) with uniformly random legal actions,
  every decision (cuts, bids, trump choices, plays) included (a game that defers its next deal
  until the state is observed does not deal it here: the loop reads only ``hand_number`` and
  ``is_terminal()``, as OpenSpiel's one-deal games deal no next hand);
* **matches/s** - whole matches the same way;
* **actions/s** - actions applied per second during the match runs.

When ``pyspiel`` (OpenSpiel) is importable the same Python loop runs over OpenSpiel's
``euchre`` and ``hearts`` (one deal each; chance nodes sampled with ``random.choice`` over
``chance_outcomes``), and each stich game's hands/s is shown as a ratio of the deals/s of the
OpenSpiel games it names in ``Game.bench_references``.

A game may fix the first action of each timed hand (``Game.bench_first_action``) so that its
hands/s time the kind of deal the reference game is, and say so in ``Game.bench_note``: e.g. a
game of several contracts times deals of its trick contracts only, everything after the
declaration random play as above.  Its matches/s are whole matches as for every game.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from dataclasses import dataclass

import stich

MAX_ACTIONS = 1_000_000  # a match longer than this is reported as an error, not measured forever


def _declared(name: str, field: str, default):
    """What the stich game ``name`` declares for ``stich bench`` (``default`` for other rows)."""
    try:
        return getattr(stich.engine.game_class(name), field)
    except stich.OptionError:
        return default


@dataclass
class Result:
    """One row of the benchmark."""

    game: str
    variant: str
    hands_per_s: float = 0.0
    matches_per_s: float | None = None
    actions_per_s: float = 0.0
    actions_per_hand: float = 0.0
    hands_per_match: float | None = None
    error: str | None = None


def play_hand(g, seed: int, rng: random.Random, first=None, lean: bool = True) -> int:
    """One hand of a fresh state of game ``g`` (``new_state(seed=seed)``) played at random by ``rng``:
    the loop :func:`bench_hands` times, and benchmarks/compiled_probe.py times without a clock; its
    actions.  ``first``, ``lean``: as :func:`bench_hands`."""
    choice = rng.choice
    state = g.new_state(seed=seed, lean=lean)
    hand = state.hand_number
    actions = 0
    if first is not None:
        state.apply(first(rng))
        actions += 1
    # the lean path takes action numbers, the full engine actions as objects: the same loop for both
    act, legal = (state.step, state.legal_ids) if lean else (state.apply, state.legal_actions)
    while state.hand_number == hand and not state.is_terminal():
        act(choice(legal()))
        actions += 1
        if actions > MAX_ACTIONS:
            raise RuntimeError(f"a hand of {g.name} did not end after {MAX_ACTIONS} actions")
    return actions


def bench_hands(g, seconds: float, rng: random.Random, first=None, lean: bool = True) -> tuple[float, float]:
    """(hands/s, actions per hand) for fresh one-hand runs of game ``g``.

    ``first(rng)``, if given, is the hand's first action (text), applied instead of a random one
    and counted like the others (``Game.bench_first_action``, see the module docstring).
    ``lean``: the lean path (action numbers), else the full engine (actions as objects)."""
    hands = actions = 0
    seed = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        seed += 1
        actions += play_hand(g, seed, rng, first, lean)
        hands += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return hands / elapsed, actions / hands


def bench_matches(g, seconds: float, rng: random.Random, lean: bool = True) -> tuple[float, float, float]:
    """(matches/s, actions/s, hands per match) for whole random matches of game ``g``."""
    choice = rng.choice
    matches = actions = hands = 0
    seed = 10_000_000
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        seed += 1
        state = g.new_state(seed=seed, lean=lean)
        n = 0
        while not state.is_terminal():
            if lean:
                state.step(choice(state.legal_ids()))
            else:
                state.apply(choice(state.legal_actions()))
            n += 1
            if n > MAX_ACTIONS:
                raise RuntimeError(f"a match of {g.name} did not end after {MAX_ACTIONS} actions")
        actions += n
        hands += state.hand_number
        matches += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return matches / elapsed, actions / elapsed, hands / matches


def bench_game(name: str, variant: str, seconds: float, seed: int = 0, game=None, lean: bool = True) -> Result:
    """Measure one game variant (errors are caught into ``Result.error``).

    ``game``: the game object to use (the slices of one target share it: a game fills its
    caches of legal-action lists as positions are met, and the steady state is what is timed)."""
    res = Result(name, variant)
    try:
        g = game if game is not None else stich.game(name, variant)
        rng = random.Random(seed)
        res.hands_per_s, res.actions_per_hand = bench_hands(g, seconds, rng, g.bench_first_action, lean)
        res.matches_per_s, res.actions_per_s, res.hands_per_match = bench_matches(g, seconds, rng, lean)
    except Exception as exc:  # a game under construction must not stop the benchmark
        res.error = f"{type(exc).__name__}: {exc}"
    return res


def play_openspiel_deal(game, choice) -> int:
    """One deal of an OpenSpiel ``game`` through the same loop as :func:`play_hand` (chance outcomes
    drawn by ``choice`` too); its players' actions."""
    state = game.new_initial_state()
    actions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(choice(state.chance_outcomes())[0])
        else:
            state.apply_action(choice(state.legal_actions()))
            actions += 1
    return actions


def bench_openspiel(name: str, seconds: float, seed: int = 0) -> Result | None:
    """Deals/s of an OpenSpiel game with the same random Python loop; None without pyspiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    res = Result(f"openspiel:{name}", "one deal")
    try:
        game = pyspiel.load_game(name)
        choice = random.Random(seed).choice
        deals = actions = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            actions += play_openspiel_deal(game, choice)
            deals += 1
            now = time.perf_counter()
            if now >= deadline:
                break
        elapsed = now - start
        res.hands_per_s = deals / elapsed
        res.actions_per_s = actions / elapsed
        res.actions_per_hand = actions / deals
    except Exception as exc:
        res.error = f"{type(exc).__name__}: {exc}"
    return res


def targets(game: str | None = None, variant: str | None = None) -> list[tuple[str, str | None, str | None]]:
    """(game, variant, load error) triples to measure.

    ValueError for an unknown game or variant, or a named game that cannot be loaded; when no
    game is named, a game that cannot be loaded (still being written) becomes an error row.
    """
    names = [game] if game else stich.engine.games()
    out = []
    for name in names:
        try:
            cls = stich.engine.game_class(name)  # OptionError (a ValueError) for unknown games
        except Exception as exc:
            if game:
                raise ValueError(str(exc) if isinstance(exc, ValueError) else
                                 f"{name} cannot be loaded: {type(exc).__name__}: {exc}") from None
            out.append((name, variant, f"cannot be loaded: {type(exc).__name__}: {exc}"))
            continue
        variants = cls.variants
        if variant:
            if variant not in variants:
                raise ValueError(f"{name} has no variant {variant!r}; its variants are: {', '.join(variants)}")
            variants = (variant,)
        out.extend((name, v, None) for v in variants)
    return out


def _pin_one_core():
    """Pin this process to one CPU; returns (core, previous affinity) or None where unsupported."""
    try:
        before = os.sched_getaffinity(0)
        core = min(before)
        os.sched_setaffinity(0, {core})
        return core, before
    except (AttributeError, OSError, ValueError):
        return None


def run_bench(game: str | None = None, variant: str | None = None, seconds: float = 2.0,
              openspiel: bool = True, console=None, pin: bool = True, rounds: int = 5,
              full: bool = False) -> list[Result]:
    """Measure and print a Rich table; returns the rows (stich games first, then OpenSpiel).

    ``pin``: run on one CPU core (restored afterwards) where the OS allows it.  ``rounds``: the
    time of each measurement is split into that many slices, taken in turn across all targets,
    and each target keeps the median of its slices, so a change in machine load during the run
    does not favour whichever target happened to run at a quiet moment (the ratios stay fair).
    ``full``: time the full engine path instead of the lean one (the module docstring).
    """
    pairs = targets(game, variant)
    pinned = _pin_one_core() if pin else None
    try:
        return _run(pairs, seconds, openspiel, console, pinned, max(1, rounds), not full)
    finally:
        if pinned:
            os.sched_setaffinity(0, pinned[1])


def _median_of(slices: list[Result]) -> Result:
    """One row from the slices of a target: the median of each rate (an error in any slice wins).

    The median rather than the best slice: on a shared or virtual machine the speed comes in
    bursts both ways, and the best of a few slices favours whichever target met a fast burst."""
    for r in slices:
        if r.error:
            return r
    out = Result(slices[0].game, slices[0].variant)
    for field in ("hands_per_s", "matches_per_s", "actions_per_s", "actions_per_hand", "hands_per_match"):
        values = [getattr(r, field) for r in slices]
        if all(v is not None for v in values):
            setattr(out, field, statistics.median(values))
    return out


def _run(pairs, seconds, openspiel, console, pinned, rounds, lean) -> list[Result]:
    from rich.table import Table

    from stich.cli.render import make_console

    console = console or make_console()
    where = f"pinned to CPU {pinned[0]}" if pinned else "one thread"
    path = "the lean path (new_state(lean=True), action numbers)" if lean else "the full engine (--full)"
    console.print(f"Random play through {path}, one Python process ({where}), {seconds:g} s per measurement "
                  f"in {rounds} interleaved slices, median slice kept ({len(pairs)} game variants"
                  f"{', plus OpenSpiel euchre and hearts' if openspiel else ''}).")
    live = [(name, v) for name, v, error in pairs if not error]
    slices: dict = {}
    os_names = []
    if openspiel:
        if bench_openspiel("euchre", 0.0) is None:
            console.print("  (pyspiel is not importable: no OpenSpiel comparison)")
        else:
            os_names = ["euchre", "hearts"]
    games = {}
    for name, v in live:
        try:
            games[(name, v)] = stich.game(name, v)
        except Exception:  # bench_game reports the error in its row
            games[(name, v)] = None
    for r in range(rounds):
        console.print(f"  round {r + 1} of {rounds} ...")
        for name, v in live:
            slices.setdefault((name, v), []).append(
                bench_game(name, v, seconds / rounds, seed=r, game=games[(name, v)], lean=lean))
        for name in os_names:
            slices.setdefault(name, []).append(bench_openspiel(name, seconds / rounds, seed=r))
    best = {key: _median_of(rows) for key, rows in slices.items()}
    results = []
    for name, v, error in pairs:
        results.append(Result(name, v or "—", error=error) if error else best[(name, v)])
    ref = {name: best[name] for name in os_names}
    results += [ref[name] for name in os_names]
    table = Table(title=f"stich bench: random play, {'lean path' if lean else 'full engine'} (single thread)")
    for col in ("game", "variant", "hands/s", "matches/s", "actions/s", "actions/hand", "hands/match",
                "× euchre", "× hearts"):
        table.add_column(col, justify="left" if col in ("game", "variant") else "right",
                         no_wrap=col in ("game", "variant"))
    euchre, hearts = ref.get("euchre"), ref.get("hearts")
    errors = []
    for r in results:
        if r.error:
            errors.append(f"[red]{r.game} {r.variant}: {r.error}[/red]")
            table.add_row(r.game, r.variant, "[red]error[/red]", "", "", "", "", "", "")
            continue

        def ratio(base, r=r):
            if base is None or base.error or not base.hands_per_s or r.game.startswith("openspiel:"):
                return ""
            return f"{r.hands_per_s / base.hands_per_s:.2f}"

        table.add_row(
            r.game, r.variant, f"{r.hands_per_s:,.0f}",
            "—" if r.matches_per_s is None else f"{r.matches_per_s:,.1f}",
            f"{r.actions_per_s:,.0f}", f"{r.actions_per_hand:.1f}",
            "—" if r.hands_per_match is None else f"{r.hands_per_match:.1f}",
            ratio(euchre), ratio(hearts) if "hearts" in _declared(r.game, "bench_references", ()) else "",
        )
    console.print(table)
    for name in dict.fromkeys(r.game for r in results if not r.error):
        note = _declared(name, "bench_note", "")
        if note:
            console.print(f"  {name} hands/s: {note}")
    for line in errors:
        console.print(line, soft_wrap=True)
    return results
