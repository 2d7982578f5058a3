"""Arena statistics: match win rates and points per hand with 95% intervals, TrueSkill ratings.

Per bot and match: the bot's **result** is the sum of the returns of the seats it held
(returns are zero-sum): a win (1) when positive, a draw (½) at zero, a loss (0) when
negative.  **Points per hand** are the mean match points of its seats divided by the hands
played (a side's points count for each seat of the side); **Δ points per hand** subtracts the
opponent's.  Intervals: Wilson score interval for the win rate (draws count half), normal
interval (mean ± 1.96 standard errors) for the means.  Replays of one deal in duplicate
seatings are negatively correlated for a bot (the good cards go to each bot in turn), so
intervals computed over matches as if independent are conservative.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate (``successes`` may be fractional: draws count half)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: list[float], z: float = Z95) -> tuple[float, float, float]:
    """``(mean, low, high)``: the normal 95% interval of a mean (no width with one value)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = sum(values) / n
    if n == 1:
        return (m, m, m)
    var = sum((x - m) ** 2 for x in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (m, m - half, m + half)


@dataclass
class BotStats:
    label: str
    results: list[float] = field(default_factory=list)
    points: list[float] = field(default_factory=list)
    delta: list[float] = field(default_factory=list)
    faults: int = 0
    seconds: float = 0.0

    @property
    def matches(self) -> int:
        return len(self.results)

    @property
    def wins(self) -> int:
        return sum(1 for r in self.results if r == 1)

    @property
    def draws(self) -> int:
        return sum(1 for r in self.results if r == 0.5)

    @property
    def losses(self) -> int:
        return sum(1 for r in self.results if r == 0)

    def win_rate(self) -> tuple[float, float, float]:
        n = self.matches
        s = sum(self.results)
        lo, hi = wilson(s, n)
        return (s / n if n else math.nan, lo, hi)

    def as_dict(self) -> dict:
        rate, lo, hi = self.win_rate()
        pm, plo, phi = mean_ci(self.points)
        dm, dlo, dhi = mean_ci(self.delta)
        return {"bot": self.label, "matches": self.matches, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "win_rate": rate, "win_rate_ci": [lo, hi],
                "points_per_hand": pm, "points_per_hand_ci": [plo, phi],
                "delta_points_per_hand": dm, "delta_points_per_hand_ci": [dlo, dhi], "faults": self.faults}


def match_outcome(rec: dict) -> dict[str, dict]:
    """Per bot label of a match record: ``{result, points, delta, faults}`` (points None if unknown)."""
    seats = rec["seats"]
    labels = list(dict.fromkeys(seats))
    hands = max(1, int(rec.get("hands") or 1))
    pts = rec.get("points")
    out = {}
    for label in labels:
        mine = [s for s, lab in enumerate(seats) if lab == label]
        others = [s for s, lab in enumerate(seats) if lab != label]
        total = sum(rec["returns"][s] for s in mine)
        result = 1.0 if total > 1e-9 else (0.0 if total < -1e-9 else 0.5)
        p = d = None
        if pts is not None:
            p = sum(pts[s] for s in mine) / len(mine) / hands
            if others:
                d = p - sum(pts[s] for s in others) / len(others) / hands
        faults = sum(1 for f in rec.get("faults", ()) if f.get("seat") in mine)
        out[label] = {"result": result, "points": p, "delta": d, "faults": faults}
    return out


@dataclass
class Summary:
    bots: list[BotStats]
    pairwise: dict[tuple[str, str], list[float]]
    ratings: dict[str, tuple[float, float]] | None
    matches: int
    deals: int
    faults: list[dict]

    def as_dict(self) -> dict:
        return {"matches": self.matches, "deals": self.deals, "bots": [b.as_dict() for b in self.bots],
                "pairwise": {f"{a} vs {b}": sum(v) / len(v) for (a, b), v in self.pairwise.items() if v},
                "trueskill": {k: {"mu": mu, "sigma": s} for k, (mu, s) in (self.ratings or {}).items()} or None,
                "faults": len(self.faults)}


def summarize(records: list[dict], labels: list[str] | None = None) -> Summary:
    """Statistics of arena match records (see the module docstring)."""
    if labels is None:
        labels = list(dict.fromkeys(lab for rec in records for lab in rec["pair"]))
    stats = {lab: BotStats(lab) for lab in labels}
    pairwise: dict[tuple[str, str], list[float]] = {}
    faults = []
    for rec in records:
        outcome = match_outcome(rec)
        for label, o in outcome.items():
            st = stats.setdefault(label, BotStats(label))
            st.results.append(o["result"])
            if o["points"] is not None:
                st.points.append(o["points"])
            if o["delta"] is not None:
                st.delta.append(o["delta"])
            st.faults += o["faults"]
        a, b = rec["pair"]
        if a in outcome and b in outcome:
            pairwise.setdefault((a, b), []).append(outcome[a]["result"])
            pairwise.setdefault((b, a), []).append(outcome[b]["result"])
        faults.extend(dict(f, key=rec["key"]) for f in rec.get("faults", ()))
    ratings = trueskill_ratings(records, list(stats)) if len(stats) >= 3 else None
    deals = len({rec["deal"] for rec in records})
    return Summary(list(stats.values()), pairwise, ratings, len(records), deals, faults)


def trueskill_ratings(records: list[dict], labels: list[str]) -> dict[str, tuple[float, float]]:
    """TrueSkill (the ``trueskill`` library, default environment) from the matches, in schedule order."""
    import trueskill

    env = trueskill.TrueSkill(draw_probability=0.05)
    ratings = {lab: env.create_rating() for lab in labels}
    for rec in sorted(records, key=lambda r: (r["deal"], r["pair"], r["seating"])):
        a, b = rec["pair"]
        o = match_outcome(rec)
        if a not in o or b not in o:
            continue
        ra, rb = o[a]["result"], o[b]["result"]
        if ra == rb:
            ratings[a], ratings[b] = trueskill.rate_1vs1(ratings[a], ratings[b], drawn=True, env=env)
        elif ra > rb:
            ratings[a], ratings[b] = trueskill.rate_1vs1(ratings[a], ratings[b], env=env)
        else:
            ratings[b], ratings[a] = trueskill.rate_1vs1(ratings[b], ratings[a], env=env)
    return {lab: (r.mu, r.sigma) for lab, r in ratings.items()}


# --- output ---------------------------------------------------------------------------------------------
def _fmt(m, lo, hi, digits=2, pct=False) -> str:
    if m is None or (isinstance(m, float) and math.isnan(m)):
        return "–"
    if pct:
        return f"{100 * m:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})"
    return f"{m:+.{digits}f} ({lo:+.{digits}f}…{hi:+.{digits}f})"


def results_table(summary: Summary, title: str = "Arena results", cheats=()):
    """A rich Table: per bot the matches, W-D-L, win rate, points per hand, Δ, faults (and TrueSkill).

    Bots labelled in ``cheats`` (``sees_everything``) are marked ``(sees all)``."""
    from rich.table import Table

    table = Table(title=title, header_style="bold")
    for col in ("bot", "matches", "W-D-L", "win rate (95% CI)", "pts/hand (95% CI)", "Δ pts/hand (95% CI)",
                "faults"):
        table.add_column(col, justify="left" if col == "bot" else "right", no_wrap=col != "bot")
    if summary.ratings:
        table.add_column("TrueSkill μ±σ", justify="right", no_wrap=True)
    order = summary.bots
    if summary.ratings:
        order = sorted(order, key=lambda b: -(summary.ratings[b.label][0] - 3 * summary.ratings[b.label][1]))
    for b in order:
        label = b.label + (" (sees all)" if b.label in cheats else "")
        row = [label, str(b.matches), f"{b.wins}-{b.draws}-{b.losses}", _fmt(*b.win_rate(), pct=True),
               _fmt(*mean_ci(b.points)), _fmt(*mean_ci(b.delta)), str(b.faults)]
        if summary.ratings:
            mu, sigma = summary.ratings[b.label]
            row.append(f"{mu:.1f}±{sigma:.1f}")
        table.add_row(*row)
    return table


def pairwise_table(summary: Summary):
    """A rich Table of match win rates, row bot against column bot (round robins)."""
    from rich.table import Table

    labels = [b.label for b in summary.bots]
    table = Table(title="Match win rate, row against column", header_style="bold")
    table.add_column("")
    for lab in labels:
        table.add_column(lab, justify="right")
    for a in labels:
        cells = []
        for b in labels:
            v = summary.pairwise.get((a, b))
            cells.append("·" if a == b or not v else f"{100 * sum(v) / len(v):.0f}% ({len(v)})")
        table.add_row(a, *cells)
    return table
