"""The ``stich`` command: ``stich games``, ``stich play``, ``stich replay``, ``stich bench``."""

from __future__ import annotations

import sys

import click
from rich.markup import escape

import stich
from stich.bots import bot_names
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
@click.option("--lang", type=click.Choice(LANGS), help="Language of card names (default per game).")
@click.option("--bots", help="Bot for the other seats, or a comma list, one per other seat "
              f"(default random; bots: {', '.join(bot_names())}).")
@click.option("--record", "record_path", type=click.Path(dir_okay=False), help="Where to save the record.")
@click.option("--resume", type=click.Path(exists=True, dir_okay=False), help="Continue a saved, unfinished match.")
def play_cmd(game, variant, seat, seed, options, lang, bots, record_path, resume):
    """Play a whole match of GAME against bots in the terminal."""
    from stich.cli.play import start_match

    console = make_console()
    try:
        match = start_match(game, variant, seat, seed, options, lang, bots, record_path, resume, console)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if match.state.is_terminal():
        console.print("This match is already over.")
        match.finish()
        return
    try:
        match.run()
    except KeyboardInterrupt:
        console.print("")
        match.save(final=False)
    except Exception as exc:  # a game or bot bug: keep the record that reproduces it
        try:
            match.save(final=False)
        except Exception:
            pass
        raise click.ClickException(f"the match stopped on an error: {type(exc).__name__}: {exc}") from exc


@cli.command("replay")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--seat", type=int, help="Show the game as this seat (1-based) saw it; default: the spectator.")
@click.option("--step/--all", default=True, help="Pause after each action (Enter advances) or print everything.")
@click.option("--lang", type=click.Choice(LANGS), help="Language of card names (default per game).")
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


@cli.command("bench")
@click.option("--game", "-g", help="Only this game (default: all).")
@click.option("--variant", "-v", help="Only this variant.")
@click.option("--seconds", "-s", type=float, default=2.0, show_default=True, help="Seconds per measurement.")
@click.option("--no-openspiel", is_flag=True, help="Skip the OpenSpiel euchre/hearts comparison.")
def bench_cmd(game, variant, seconds, no_openspiel):
    """Random-play speed: hands/s, matches/s, actions/s (vs OpenSpiel when installed)."""
    from stich.cli.bench import run_bench

    if seconds <= 0:
        raise click.UsageError("--seconds must be positive")
    try:
        run_bench(game, variant, seconds, openspiel=not no_openspiel, console=make_console())
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


def main(argv=None):
    """Entry point of the ``stich`` script."""
    return cli.main(args=argv, prog_name="stich")


if __name__ == "__main__":
    sys.exit(main())
