"""``stich arena``: bots against bots, with a progress bar, a results table and an optional plot."""

from __future__ import annotations

import json
import time

from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from stich.arena.runner import Arena, default_out, derive, parse_bots, run_arena
from stich.arena.stats import pairwise_table, results_table, summarize
from stich.bots import bot_class


def preflight(arena: Arena, budget) -> None:
    """Shake hands with every outside (cmd:) bot once before the arena starts: fail fast, not per match."""
    from stich.arena.table import private_view
    from stich.bots.external import ExternalBot
    from stich.protocol import ProtocolError

    view = None
    for entrant in arena.bots:
        if not entrant.spec.startswith("cmd:"):
            continue
        if view is None:
            import stich.engine

            g = stich.engine.game(arena.game, arena.variant, **arena.options)
            state = g.new_state(seed=derive(arena.seed, "check"))  # a deal of its own: the hello shows a hand
            view = private_view(state, 0)
        try:
            ExternalBot(entrant.spec[4:], budget=entrant.budget).check(view)
        except ProtocolError as exc:
            raise ValueError(f"the outside bot {entrant.label} cannot play: {exc}") from None


def arena_command(game, variant, options: dict, bots, games, duplicate, jobs, budget, seed, out, ray, plot,
                  timeout, progress, as_json, console, err_console) -> dict:
    """Run an arena from command-line values and print the results; returns the summary dict.

    Raises ValueError for bad arguments."""
    arena = Arena(game, parse_bots(bots, budget), games=games, variant=variant, options=options,
                  duplicate=duplicate, seed=seed, timeout=timeout)
    out = out or default_out(arena)
    arena.resume_seed(out)  # without --seed: the secret base seed the file was started with
    preflight(arena, budget)
    total = len(arena.schedule())
    start = time.perf_counter()
    seeding = f"base seed {arena.seed}" if seed is not None else "secret base seed (kept in the results file)"
    err_console.print(f"Arena: {escape(arena.game)} ({escape(arena.variant)}), {len(arena.bots)} bots, "
                      f"{games} matches per pair{', each in every seating (duplicate)' if duplicate else ''} "
                      f"→ {total} matches; {seeding}; results in {escape(out)}"
                      + (f"; Ray: {escape(ray)}" if ray else f"; {jobs or 'all'} jobs"))
    already = []
    if progress:
        bar = Progress(TextColumn("[bold]matches"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                       TextColumn("eta"), TimeRemainingColumn(), console=err_console, transient=False,
                       auto_refresh=False)  # no refresh thread while worker processes fork
        task = bar.add_task("arena", total=total)
    else:
        bar = task = None
    try:
        if bar:
            bar.start()

        def on_progress(done, _total):
            if not already:
                already.append(done)
                if done:
                    err_console.print(f"Resuming: {done} of {total} matches are already in {escape(out)}")
            if bar:
                bar.update(task, completed=done)
                bar.refresh()

        records = run_arena(arena, out=out, jobs=jobs, ray=ray, progress=on_progress)
    finally:
        if bar:
            bar.stop()
    elapsed = time.perf_counter() - start
    summary = summarize(records, [b.label for b in arena.bots])
    faults_seen = len(summary.faults)
    data = summary.as_dict() | {"game": arena.game, "variant": arena.variant, "out": out,
                                "seconds": round(elapsed, 2)}
    if as_json:
        console.print_json(json.dumps(data))
    else:
        title = (f"{arena.game} ({arena.variant}) · {summary.deals} deals · {summary.matches} matches"
                 f"{' · duplicate' if duplicate else ''}")
        cheats = [b.label for b in arena.bots if not b.spec.startswith("cmd:") and bot_class(b.spec).sees_everything]
        console.print(results_table(summary, title=title, cheats=cheats))
        if cheats:
            console.print(f"[red]{escape(', '.join(cheats))} sees every card (cheats by design): an upper bound "
                          "for comparison, not a fair result.[/red]")
        if len(arena.bots) >= 3:
            console.print(pairwise_table(summary))
        if faults_seen:
            console.print(f"[red]{faults_seen} bot faults[/red] (the table played a random legal action "
                          "instead for each); by bot and kind, with the first message:")
            groups: dict = {}
            for f in summary.faults:
                groups.setdefault((f["bot"], f["kind"]), []).append(f)
            for (who, kind), items in groups.items():
                first = items[0]
                console.print(f"  {escape(who)}: {len(items)} × {escape(kind)}; first in match {escape(first['key'])}, "
                              f"seat {first['seat'] + 1}, action #{first['move']}: {escape(first['error'])}",
                              soft_wrap=True)
        console.print(f"{summary.matches} matches in {elapsed:.1f}s; results in {escape(out)}")
    if plot:
        from stich.arena.plot import plot_summary

        plot_summary(summary, plot, title=f"{arena.game} ({arena.variant})")
        err_console.print(f"Plot saved to {escape(plot)}")
    return data
