"""A game's score sheet, as its players keep it, built from the match's events.

One row per scored hand (a result event and the ``scores`` event after it): the points each column got
and the running totals.  The columns are the score's: the two sides of a partnership game (the reader's
side "Us", the other "Them", as a board is headed), else each seat.  How the sheet looks is the game's
page's ``SHEET``:

- ``"strokes"``: Watten's board, the points as strokes in groups of five; a side at its lock is struck
  through (the page's ``struck(game, total)``);
- ``"segnapunti"``: Battn's, each new total written under the old ones, the old ones crossed out;
- ``"marks"``: Biscambiggia's marche paid and received, each seat's balance;
- ``"deals"``: Barbu's sheet, caller and contract of each of the match's deals (``DEALS_PER_PLAYER``).

Nothing here knows a game by name; ``sheet_rows(events)`` of a page may pick the result events that
make rows (the default: every result event).
"""

from __future__ import annotations

from stich.engine import member
from stich.web.ui.cards import face
from stich.web.ui.felt import RESULT_TYPES

STYLES = ("strokes", "segnapunti", "marks", "deals")
#: strokes in a group (four upright, the fifth across)
GROUP = 5


def tally(total: int) -> list[int]:
    """A total as groups of strokes: 12 -> [5, 5, 2]."""
    n = abs(int(total))
    return [GROUP] * (n // GROUP) + ([n % GROUP] if n % GROUP else [])


def heads(game, columns: int, me, label, _) -> list[dict]:
    """The columns' heads: a seat's label each, or for sides "Us" and "Them" (a spectator: "Side N"),
    with the seats of the side."""
    n = game.num_players
    if columns == n:
        return [{"word": label(s), "who": ""} for s in range(n)]
    out = []
    for i in range(columns):
        seats = range(i, n, columns)
        who = " + ".join(label(s) for s in seats)
        if isinstance(me, int) and columns == 2:
            word = _("Us") if me % columns == i else _("Them")
        else:
            word = _("Side %(n)s") % {"n": i + 1}
        out.append({"word": word, "who": who})
    return out


def _contract(game, ev: dict, _, lang: str) -> str:
    """A row's contract in words: a named one (Barbu's), a bid (Biscambiggia's), with the called card."""
    contract = ev.get("contract")
    named = member(game, "page", "NAMED_ARGS").get("contract", {})
    text = _(named[contract]) if contract in named else ("" if contract is None else str(contract))
    called = ev.get("called_card")
    if isinstance(called, str) and game.deck.is_card(called):
        text = f"{text} · {face(game.deck, called, lang).name}" if text else face(game.deck, called, lang).name
    return text


def build(game, events: list[dict], me, label, _, lang: str, why, columns: int | None = None) -> dict | None:
    """The sheet of the match so far (None where the game keeps none); ``why(ev)`` tells a result;
    ``columns``: the score's length where known (the view's scores), for a sheet with no row yet."""
    style = member(game, "page", "SHEET")
    if style is None:
        return None
    if style not in STYLES:
        raise ValueError(f"{game.name}: the page's SHEET {style!r} is none of {', '.join(STYLES)}")
    picker = member(game, "page", "sheet_rows")
    chosen = {id(ev) for ev in picker(events)} if picker is not None else None
    rows, prev, pending = [], None, None
    for ev in events:
        t = ev.get("type")
        if t in RESULT_TYPES and (chosen is None or id(ev) in chosen):
            pending = ev
        elif t == "scores" and isinstance(ev.get("scores"), list):
            totals = list(ev["scores"])
            if pending is not None:
                before = prev if prev is not None and len(prev) == len(totals) else [0] * len(totals)
                final = pending.get("final")
                points = list(final) if isinstance(final, list) and len(final) == len(totals) \
                    else [a - b for a, b in zip(totals, before, strict=True)]
                rows.append({"hand": pending.get("hand"), "points": points, "totals": totals,
                             "caller": label(pending["caller"]) if isinstance(pending.get("caller"), int) else "",
                             "contract": _contract(game, pending, _, lang), "why": why(pending)})
                pending = None
            prev = totals
    columns = len(rows[-1]["totals"]) if rows else (columns or game.num_players)
    totals = rows[-1]["totals"] if rows else [0] * columns
    struck = member(game, "page", "struck")
    # segnapunti: in each column only the latest total stands, the ones above it are crossed out
    latest = {}
    for i, r in enumerate(rows):
        for c, p in enumerate(r["points"]):
            if p:
                latest[c] = i
    return {"style": style, "heads": heads(game, columns, me, label, _), "rows": rows, "totals": totals,
            "tallies": [tally(v) for v in totals],
            "struck": [bool(struck(game, v)) if struck is not None else False for v in totals],
            "latest": latest, "deals": member(game, "page", "DEALS_PER_PLAYER") * game.num_players
            if style == "deals" else None}

