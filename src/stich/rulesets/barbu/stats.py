"""A Barbu player's figures of a finished match (the ``"stats"`` companion, ``stich.roles.stats``).

Read from the match's public events, deal by deal (a deal ends with its ``deal_result``; a negative
contract nobody doubled and so split unplayed counts as a deal too, with its split points):

- ``hands`` (the deals), ``won`` (the seat had the deal's best score, ties included), ``points`` (the
  seat's score of the deal after the doubles, rules 3: ``final``);
- per contract ``C`` of the seven (``CONTRACTS``): ``deals_C`` (the deals of that contract, whoever
  was the caller), ``points_C`` (the seat's scores in them), ``called_C`` and ``called_points_C`` (the
  same, only the deals where the seat was the caller and chose it).  The profile shows each
  contract's average over every deal of it, ``points_C / deals_C``."""

from __future__ import annotations

from stich.roles.stats import Figure, zero
from stich.rulesets.barbu.page import CONTRACTS

KEYS = tuple(f"{k}_{c}" for c in CONTRACTS for k in ("deals", "points", "called", "called_points"))
FIGURES = tuple(Figure(f"points_{c}", words, of=f"deals_{c}", kind="average") for c, words in CONTRACTS.items())


def facts(events, seat: int) -> dict[str, int]:
    out = zero(*KEYS)
    for ev in events:
        if ev["type"] != "deal_result":
            continue
        final, contract = ev["final"], ev["contract"]
        mine = final[seat]
        out["hands"] += 1
        out["won"] += mine == max(final)
        out["points"] += mine
        out[f"deals_{contract}"] += 1
        out[f"points_{contract}"] += mine
        if ev["caller"] == seat:
            out[f"called_{contract}"] += 1
            out[f"called_points_{contract}"] += mine
    return out
