"""A player's figures per game on the profile (issue #36): a table of the counts added up over the
player's finished matches (``stich.web.stats.player_figures``) - the hands, the hands won, the points
per hand, then the game's own ``FIGURES`` (its ``"stats"`` companion, ``stich.roles.stats``) - and a
small bar chart drawn here as SVG: the shares won (hands, raises, roles...) or, for a game whose
figures are averages (Barbu's contracts), each average as a bar left or right of zero."""

from __future__ import annotations

from stich.engine import companion
from stich.roles.stats import Figure
from stich.web.ui.env import N_

#: the rows every game has, before its own (stich.roles.stats.BASE)
BASE = (Figure("hands", N_("Hands played")), Figure("won", N_("Hands won"), of="hands", kind="share"),
        Figure("points", N_("Points")))
CHART_W, CHART_ROW, CHART_TRACK = 320, 26, 250


def _game_figures(game: str) -> tuple[Figure, ...]:
    """The game's own rows; none for a game without a ``"stats"`` companion or no longer installed
    (its matches keep their base rows)."""
    module = companion(game, "stats")
    return () if module is None else tuple(module.FIGURES)


def rows(game: str, totals: dict[str, int]) -> list[dict]:
    """The table's rows of one game: each ``{"key", "words", "kind", "total", ...}`` with, by kind,
    ``per_hand`` (count), ``of`` and ``percent`` (share) or ``of`` and ``average`` (average); a figure
    whose counts the totals lack (matches stored before it existed) is left out."""
    hands = totals.get("hands", 0)
    out = []
    for f in BASE + _game_figures(game):
        if f.key not in totals or (f.of is not None and f.of not in totals):
            continue
        total = totals[f.key]
        row = {"key": f.key, "words": f.words, "kind": f.kind, "total": total}
        if f.kind == "count":   # the hands themselves have no average per hand
            row["per_hand"] = round(total / hands, 2) if hands and f.key != "hands" else None
        else:
            of = totals[f.of]
            row["of"] = of
            if f.kind == "share":
                row["percent"] = round(100 * total / of) if of else None
            else:
                row["average"] = round(total / of, 1) if of else None
        out.append(row)
    return out


def chart(table: list[dict], gettext) -> dict | None:
    """One game's bar chart: the averages where the game has any (a bar from the middle, right for a
    gain, left for a loss, scaled to the largest), else its shares (0 to 100 %); None without either."""
    averages = [r for r in table if r["kind"] == "average" and r["average"] is not None]
    shares = [r for r in table if r["kind"] == "share" and r["percent"] is not None]
    bars = []
    if averages:
        zero, top = CHART_TRACK / 2, max(abs(r["average"]) for r in averages) or 1
        for r in averages:
            width = round(abs(r["average"]) / top * zero, 1)
            bars.append({"label": gettext(r["words"]), "x": zero if r["average"] >= 0 else round(zero - width, 1),
                         "width": width, "value": f"{r['average']:+g}", "key": r["key"]})
    elif shares:
        zero = None
        for r in shares:
            bars.append({"label": gettext(r["words"]), "x": 0, "width": round(r["percent"] / 100 * CHART_TRACK, 1),
                         "value": f"{r['percent']} %", "key": r["key"]})
    else:
        return None
    for i, b in enumerate(bars):
        b["y"] = i * CHART_ROW
    return {"bars": bars, "zero": zero, "averages": bool(averages), "width": CHART_W, "track": CHART_TRACK,
            "height": len(bars) * CHART_ROW}


def tables(figures: list[dict], gettext, title) -> list[dict]:
    """Per game (the most played first) its title, matches, the matches with figures, rows and chart."""
    out = []
    for item in figures:
        table = rows(item["game"], item["totals"]) if item["counted"] else []
        out.append({"game": item["game"], "title": title(item["game"]), "matches": item["matches"],
                    "counted": item["counted"], "rows": table, "chart": chart(table, gettext) if table else None})
    return out
