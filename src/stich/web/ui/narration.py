"""The one door from the pages to the terminal's narration (``stich.cli.render`` and the games'
``stich.cli.<game>_text`` modules).

The browser tells events in the same words as the terminal.  Everything the pages need from that
code goes through this module, so when the narration moves (e.g. into the game packages) only the
imports below change.
"""

from __future__ import annotations

from rich.text import Text

from stich.cli.render import Names, describe_event, game_text, hand_result  # noqa: F401  (re-exported)


def plain(markup: str) -> str:
    """A Rich-markup line as plain text (``[bold]You[/bold]`` -> ``You``)."""
    try:
        return Text.from_markup(markup).plain
    except Exception:   # a line that is not valid markup is shown as it is
        return markup


def names_for(game, lang: str, seat: int | None) -> Names:
    """Card and seat names of a game in a language, ``seat`` being the reader (None: a spectator)."""
    return Names(game, lang, seat)


def event_lines(events: list[dict], names: Names) -> list[str]:
    """One plain sentence per event worth telling, in order (events with nothing to say are left out)."""
    out = []
    for ev in events:
        try:
            line = describe_event(ev, names)
        except Exception:   # a narration bug must not take the table down: show the event raw
            line = str(ev.get("type", "event"))
        if line:
            out.append(plain(line))
    return out


def game_rows(view: dict, names: Names) -> list[tuple[str, str]]:
    """The game's own state rows (Schlag, trump, stake, auction, contract ...) as plain text pairs."""
    own = game_text(names.game)
    if own is None:
        return []
    try:
        return [(plain(label), plain(value)) for label, value in own.rows(view, names)]
    except Exception:
        return []
