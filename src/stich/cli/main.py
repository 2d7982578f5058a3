"""The ``stich`` command: ``games``, ``play``, ``replay``, ``bench``, ``arena``, ``engine``, ``serve`` and
``bot-worker``."""

from __future__ import annotations

import os
import sys

import click
from rich.markup import escape

import stich
from stich.cli.help_texts import RegistryHelpOption, language_defaults, raise_poll_games, search_worlds
from stich.cli.render import LANGS, make_console


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(stich.__version__, prog_name="stich")
def cli():
    """stich: traditional trick-taking card games of the Alps, Italy and France."""


@cli.command("games")
def games_cmd():
    """List the games, their variants and options."""
    from rich.table import Table

    console = make_console()
    names = stich.engine.games()
    if not names:
        console.print("No games are installed.")
        return
    for name in names:
        try:
            cls = stich.engine.game_class(name)
        except Exception as exc:  # a game under construction must not break the listing
            console.print(f"[bold]{name}[/bold]: [red]cannot be loaded: {exc}[/red]")
            continue
        parts = []
        for v in cls.variants:
            try:
                players = f"{stich.game(name, v).num_players} players"
            except Exception as exc:
                players = f"[red]cannot be made: {escape(str(exc))}[/red]"
            parts.append(f"  {v}{' (default)' if v == cls.default_variant else ''}: {players}")
        console.print(f"[bold]{name}[/bold] — {escape(cls.title or name)}; variants:")
        console.print("\n".join(parts))
        if not cls.option_specs:
            continue
        table = Table(show_header=True, header_style="bold")
        for col in ("option", "values", "default", "variants", "rule"):
            table.add_column(col)
        for spec in cls.option_specs:
            values = "whole number" + (f" ≥ {spec.minimum}" if spec.minimum is not None else "") \
                if spec.values is int else " | ".join(map(str, spec.values))
            if isinstance(spec.default, dict):
                default = ", ".join(f"{k}: {v}" for k, v in spec.default.items())
            else:
                default = str(spec.default)
            rule = " — ".join(x for x in (spec.rule, spec.help) if x)
            table.add_row(spec.name, values, default, ", ".join(spec.variants) if spec.variants else "all", rule)
        console.print(table)


@cli.command("play")
@click.argument("game", required=False)
@click.option("--variant", "-v", help="The variant (see 'stich games').")
@click.option("--seat", type=int, help="Your seat, 1-based (default 1).")
@click.option("--seed", type=int, help="Seed of the deal (default: random).")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE", help="A rule option; repeatable.")
@click.option("--lang", type=click.Choice(LANGS), cls=RegistryHelpOption, help_from=lambda: "Language of the table, "
              f"its words and card names (default per game: {language_defaults()}).")
@click.option("--bots", help="Bot for the other seats, or a comma list, one per other seat: a bot name "
              "or cmd:PROGRAM (default: the best available bot; 'stich bots' lists them).")
@click.option("--budget", cls=RegistryHelpOption, help_from=lambda: "Thinking budget of the bots and hints: seconds "
              f"('1s', '250ms') or iterations ('800'); default: each bot's own ({search_worlds()}).")
@click.option("--hints", is_flag=True, help="Show what the default bot would play before each of your moves.")
@click.option("--no-autoplay", is_flag=True, help="Ask even when you have only one legal action (by default a "
              "forced move plays itself, with a line saying so).")
@click.option("--auto", "standing", type=click.Choice(["pass", "ask"]), default="pass", show_default=True,
              cls=RegistryHelpOption, help_from=lambda: f"Raise polls (pass or raise during play, in "
              f"{raise_poll_games()}): pass them without a prompt, or ask every time, also for decisions out of "
              "turn ('auto raise' at a prompt raises at your next chance).")
@click.option("--record", "record_path", type=click.Path(dir_okay=False), help="Where to save the record.")
@click.option("--resume", type=click.Path(exists=True, dir_okay=False), help="Continue a saved, unfinished match.")
def play_cmd(game, variant, seat, seed, options, lang, bots, budget, hints, no_autoplay, standing, record_path,
             resume):
    """Play a whole match of GAME against bots in the terminal."""
    from stich.cli.play import Stopped, start_match

    console = make_console()
    try:
        match = start_match(game, variant, seat, seed, options, lang, bots, record_path, resume, console,
                            budget=budget, hints=hints, autoplay=not no_autoplay, standing=standing)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if match.state.is_terminal():
        console.print(match._("This match is already over."))
        match.finish()
        match.close()
        return
    match.catch_signals()
    try:
        match.run()
    except KeyboardInterrupt:
        console.print("")
        match.save(final=False)
    except Stopped as stop:  # SIGTERM or SIGHUP: save first; the terminal may be gone
        match.save(final=False, quiet=True)
        try:
            match.say(match._("Stopped by signal %(n)s.") % {"n": stop.signum})
            match.save(final=False)
        except Exception:  # noqa: BLE001 - the record is saved; the message is a courtesy
            pass
        sys.exit(128 + stop.signum)
    except Exception as exc:  # a game or bot bug: keep the record that reproduces it
        try:
            match.save(final=False)
        except Exception:
            pass
        raise click.ClickException(f"the match stopped on an error: {type(exc).__name__}: {exc}") from exc
    finally:
        match.release_signals()
        match.close()


@cli.command("replay")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--seat", type=int, help="Show the game as this seat (1-based) saw it; default: the spectator.")
@click.option("--step/--all", default=True, help="Pause after each action (Enter advances) or print everything.")
@click.option("--lang", type=click.Choice(LANGS), help="Language of the replay's words and card names (default per "
              "game).")
def replay_cmd(file, seat, step, lang):
    """Show a saved game FILE step by step."""
    from stich.cli.replay import load_record, replay_record

    console = make_console()
    try:
        rec = load_record(file)
        replay_record(rec, None if seat is None else seat - 1, step=step, lang=lang, console=console)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    except (EOFError, KeyboardInterrupt):
        console.print("")


@cli.command("analyse")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--seat", type=int, required=True, help="The player to analyse (1-based).")
@click.option("--worlds", type=click.IntRange(1, 1000), default=24, show_default=True,
              help="Sampled worlds per decision.")
@click.option("--json", "json_path", is_flag=False, flag_value="-",
              help="Print the analysis as JSON (the server's GET /api/tables/ID/analysis answer), not the table; "
                   "--json PATH writes it to PATH and prints the table.")
def analyse_cmd(file, seat, worlds, json_path):
    """Mark where the player in SEAT lost expected points in the saved match FILE."""
    import json

    from stich.bots.analysis import analyse, contract, table
    from stich.cli.replay import load_record

    try:
        record = load_record(file)
        players = stich.replay(record).game.num_players
        if not 1 <= seat <= players:
            raise click.BadParameter(f"seat must be 1 to {players}, not {seat}", param_hint="--seat")
        result = analyse(record, seat - 1, worlds=worlds)
    except (ValueError, stich.StichError) as exc:
        raise click.ClickException(str(exc)) from None
    if json_path == "-":
        click.echo(json.dumps(contract(result)))
        return
    if json_path:
        with open(json_path, "w", encoding="utf-8") as f:
            json.dump(contract(result), f)
    click.echo(table(result))


@cli.command("bench")
@click.option("--game", "-g", help="Only this game (default: all).")
@click.option("--variant", "-v", help="Only this variant.")
@click.option("--seconds", "-s", type=float, default=2.0, show_default=True, help="Seconds per measurement.")
@click.option("--rounds", "-r", type=int, default=5, show_default=True,
              help="Interleaved slices per measurement; the median slice counts (fair ratios under load).")
@click.option("--no-openspiel", is_flag=True, help="Skip the OpenSpiel euchre/hearts comparison.")
@click.option("--full", is_flag=True,
              help="Time the full engine (events, history, text actions) instead of the lean simulation path.")
def bench_cmd(game, variant, seconds, rounds, no_openspiel, full):
    """Random-play speed: hands/s, matches/s, actions/s (vs OpenSpiel when installed)."""
    from stich.cli.bench import run_bench

    if seconds <= 0:
        raise click.UsageError("--seconds must be positive")
    if rounds < 1:
        raise click.UsageError("--rounds must be at least 1")
    try:
        run_bench(game, variant, seconds, openspiel=not no_openspiel, console=make_console(), rounds=rounds,
                  full=full)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


@cli.command("bots")
def bots_cmd():
    """List the bots: names for --bots, and which one plays by default."""
    from stich.bots import bot_class, bot_names, default_bot_name
    from stich.bots.base import LOAD_ERRORS

    console = make_console()
    best = default_bot_name()
    for name in bot_names():
        cls = bot_class(name)
        doc = " ".join((cls.__doc__ or "").strip().split("\n\n")[0].split()).replace("``", "")
        line = f"[bold]{escape(name)}[/bold]{' (default)' if name == best else ''}: {escape(doc)}"
        if cls.sees_everything:
            line += " [red]" + escape("[sees every card]") + "[/red]"
        console.print(line, soft_wrap=True)
    console.print("cmd:PROGRAM ARGS: an outside program speaking the stich-bot protocol (docs/protocol.md)")
    for mod, err in LOAD_ERRORS.items():
        console.print(f"[red]stich.bots.{escape(mod)} could not be loaded: {escape(err)}[/red]", soft_wrap=True)


@cli.command("arena")
@click.argument("game")
@click.option("--variant", "-v", help="The variant (see 'stich games').")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE", help="A rule option; repeatable.")
@click.option("--bots", "-b", required=True, metavar="A,B[,C...]",
              help="Two or more bots, comma-separated: registered names (optionally NAME@BUDGET, e.g. ismcts@2s) "
              "or cmd:PROGRAM for outside programs speaking the stich-bot protocol.")
@click.option("--games", "-n", type=int, default=10, show_default=True,
              help="Matches per pair of bots, each from its own deal and played to its end (with --duplicate, "
              "each is replayed in every seating).")
@click.option("--duplicate", is_flag=True, help="Replay every match's deal in every seating, so deal luck cancels.")
@click.option("--jobs", "-j", type=int, help="Worker processes (default: all cores; 1 = no subprocesses).")
@click.option("--budget", help="Thinking budget per decision for bots without their own @BUDGET: '1s', '250ms', "
              "'800' (iterations).")
@click.option("--seed", type=int, help="Base seed: deals and bot seeds derive from it (default: a secret random one, "
              "kept in the results file; a bot that knew it could compute every deal).")
@click.option("--out", type=click.Path(dir_okay=False), help="Results file, JSON lines, one per match; rerunning "
              "skips the matches already in it (default stich-arena-GAME-VARIANT-BOTS.jsonl).")
@click.option("--ray", metavar="auto|local|ADDRESS", help="Run on Ray: 'auto' joins the running cluster, 'local' "
              "starts one here, or a cluster address (pip install 'stich[ray]').")
@click.option("--plot", type=click.Path(dir_okay=False), help="Save a PNG chart of the results (matplotlib).")
@click.option("--timeout", type=float, help="Seconds an outside (cmd:) bot may take per answer (default: budget + 10).")
@click.option("--progress/--no-progress", default=True, help="Show a progress bar on stderr.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON instead of tables.")
def arena_cmd(game, variant, options, bots, games, duplicate, jobs, budget, seed, out, ray, plot, timeout,
              progress, as_json):
    """Play bots against each other in GAME and report win rates, points per hand and ratings."""
    from stich.cli.arena import arena_command
    from stich.cli.play import parse_options

    if jobs is not None and jobs < 1:
        raise click.UsageError("--jobs must be at least 1")
    console = make_console()
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = make_console(width=160)  # the results table is wide
    err = make_console(stderr=True)
    try:
        arena_command(game, variant, parse_options(options), bots, games, duplicate, jobs, budget, seed, out, ray,
                      plot, timeout, progress, as_json, console, err)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    except KeyboardInterrupt:
        err.print("Interrupted; the finished matches are saved: run the same command again to resume.")
        sys.exit(130)


@cli.command("engine")
@click.option("--bot", "bot_name", default="random", show_default=True, help="The stich bot that answers.")
@click.option("--seed", type=int, help="Seed of the bot (default: the seed in each hello message).")
@click.option("--budget", help="Thinking budget per decision: '1s', '250ms', '800' (default: the hello's budget).")
def engine_cmd(bot_name, seed, budget):
    """Speak the stich-bot protocol on stdin/stdout with a stich bot (see docs/protocol.md)."""
    from stich.bots import make_bot
    from stich.bots.base import Budget
    from stich.bots.serve import serve

    try:
        make_bot(bot_name)
        Budget.parse(budget)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    sys.exit(serve(bot_name, seed=seed, budget=budget))


REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: every interface).")
@click.option("--port", type=int, default=8000, show_default=True, help="Port to listen on (0: any free port).")
@click.option("--db", default="stich.sqlite3", show_default=True,
              help="The database: a SQLite file (created if missing) or a postgresql://USER@HOST:PORT/DB URL.")
@click.option("--bot-workers", type=int, help="Worker processes that think for bots (default: the cores, at most 4; "
              "0: threads).")
@click.option("--log-level", type=click.Choice(["debug", "info", "warning", "error"]), default="info",
              show_default=True, help="Log level of the JSON log lines on stderr.")
@click.option("--redis", "redis_url", metavar="URL", help="redis://HOST:PORT: run as one of several processes "
              "sharing the database (Postgres) and the tables (docs/scaling.md).")
@click.option("--bot-queue", type=click.Choice(["local", "redis"]), default="local", show_default=True,
              help="Where bots think: local (this process's --bot-workers pool) or redis (stich bot-worker "
              "processes fed through --redis; --bot-workers then sizes the fallback pool, default 1).")
@click.option("--metrics-address", metavar="HOST:PORT", help="Serve /metrics (and /healthz, /readyz) on this "
              "address only, not on the players' port (docs/web-protocol.md, 'Health and metrics').")
def serve_cmd(host, port, db, bot_workers, log_level, redis_url, bot_queue, metrics_address):
    """Serve tables online: play in the browser with friends and bots (see docs/web-protocol.md)."""
    try:
        from stich.web.serve import serve
    except ImportError as exc:
        raise click.ClickException(f"the server needs the web extra: pip install 'stich[web]' ({exc})") from None
    try:
        from stich.web.settings import redis_prefix

        redis_prefix()            # a bad STICH_REDIS_PREFIX too
        from stich.web.collector import full_collection_every
        from stich.web.quotas import Limits
        from stich.web.serve import metrics_address as parse_metrics_address
        from stich.web.store import database_url

        database_url(db)
        full_collection_every()   # a bad STICH_GC_SECONDS is one line before anything starts
        Limits.from_env()         # and so is a bad limit (STICH_TABLES_PER_ADDRESS ...)
        metrics = parse_metrics_address(metrics_address) if metrics_address else None
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if bot_workers is not None and bot_workers < 0:
        raise click.UsageError("--bot-workers must be 0 or more")
    from stich.web.serve import DatabaseError

    try:
        if redis_url is not None and not redis_url.startswith(REDIS_SCHEMES):
            raise click.UsageError(f"--redis takes a redis:// URL, not {redis_url!r}")
        if bot_queue == "redis" and redis_url is None:
            raise click.UsageError("--bot-queue redis needs --redis URL (the queue the bot workers read)")
        serve(host=host, port=port, db=db, bot_workers=bot_workers, log_level=log_level, redis=redis_url,
              bot_queue=bot_queue, metrics=metrics)
    except DatabaseError as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


@cli.command("bot-worker")
@click.option("--redis", "redis_url", metavar="URL", required=True,
              help="redis://HOST:PORT: the Redis of the servers started with --bot-queue redis.")
@click.option("--processes", type=int, help="Worker processes, each thinking for one bot at a time "
              "(default: the cores).")
@click.option("--log-level", type=click.Choice(["debug", "info", "warning", "error"]), default="info",
              show_default=True, help="Log level of the JSON log lines on stderr (debug: one line per job).")
def bot_worker_cmd(redis_url, processes, log_level):
    """Think for the bots of every `stich serve --bot-queue redis` (see docs/scaling.md, "Bot workers")."""
    try:
        from stich.web.settings import redis_prefix

        redis_prefix()   # STICH_REDIS_PREFIX names the queue: the servers' own (one line if bad)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        from stich.web.botworker import WorkerError, run
    except ImportError as exc:
        raise click.ClickException(f"bot workers need the web extra: pip install 'stich[web]' ({exc})") from None
    if not redis_url.startswith(REDIS_SCHEMES):
        raise click.UsageError(f"--redis takes a redis:// URL, not {redis_url!r}")
    if processes is not None and processes < 1:
        raise click.UsageError("--processes must be 1 or more")
    try:
        sys.exit(run(redis_url, processes or os.cpu_count() or 1, log_level))
    except WorkerError as exc:
        raise click.ClickException(str(exc)) from None


def main(argv=None):
    """Entry point of the ``stich`` script."""
    return cli.main(args=argv, prog_name="stich")


if __name__ == "__main__":
    sys.exit(main())
