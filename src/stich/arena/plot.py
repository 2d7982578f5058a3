"""An optional PNG of arena results (matplotlib, ``pip install 'stich[plot]'``)."""

from __future__ import annotations

import math

from stich.arena.stats import Summary, mean_ci


def plot_summary(summary: Summary, path: str, title: str = "stich arena") -> str:
    """Save a two-panel chart: match win rate and Δ points per hand per bot, with 95% intervals."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ValueError("--plot needs matplotlib: pip install 'stich[plot]'") from None
    bots = summary.bots
    labels = [b.label if len(b.label) <= 28 else "…" + b.label[-27:] for b in bots]
    xs = range(len(bots))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(4 + 1.6 * len(bots), 4))
    rates = [b.win_rate() for b in bots]
    ax1.bar(xs, [r[0] for r in rates], color="tab:blue",
            yerr=[[max(0.0, r[0] - r[1]) for r in rates], [max(0.0, r[2] - r[0]) for r in rates]], capsize=6)
    ax1.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax1.set_ylim(0, 1)
    ax1.set_ylabel("match win rate (95% CI)")
    deltas = [mean_ci(b.delta) for b in bots]
    ok = [not math.isnan(d[0]) for d in deltas]
    vals = [d[0] if good else 0.0 for d, good in zip(deltas, ok, strict=True)]
    err = [[max(0.0, d[0] - d[1]) if good else 0 for d, good in zip(deltas, ok, strict=True)],
           [max(0.0, d[2] - d[0]) if good else 0 for d, good in zip(deltas, ok, strict=True)]]
    ax2.bar(xs, vals, color="tab:orange", yerr=err, capsize=6)
    ax2.axhline(0, color="grey", lw=0.8)
    ax2.set_ylabel("Δ points per hand (95% CI)")
    for ax in (ax1, ax2):
        ax.set_xticks(list(xs))
        ax.set_xticklabels(labels, rotation=20, ha="right")
    fig.suptitle(f"{title} — {summary.matches} matches, {summary.deals} deals")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
