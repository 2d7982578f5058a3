"""A Biscambiggia player's figures of a finished match (the ``"stats"`` companion, ``stich.roles.stats``).

Read from the match's public events, hand by hand (a hand ends with its ``hand_result``; a deal
thrown in because all five passed is no hand):

- ``hands``, ``won`` (the seat gained marks in the hand: it was on the side that won), ``points`` (the
  marks the hand gave the seat, negative when it lost; BB-6);
- ``bids``: the seat's bids in the auctions (BB-2.3);
- the seat's role in each hand and how often that role won: ``caller`` (it won the auction and called
  a card, alone included when it called its own), ``partner`` (it held the called card), ``defender``
  (neither), with ``caller_won``, ``partner_won`` (the caller's side made the contract) and
  ``defender_won`` (the contract failed)."""

from __future__ import annotations

from stich.engine.narration import N_
from stich.roles.stats import Figure, zero

KEYS = ("bids", "caller", "caller_won", "partner", "partner_won", "defender", "defender_won")
FIGURES = (
    Figure("bids", N_("Bids made")),
    Figure("caller", N_("Auctions won (hands as caller)")),
    Figure("caller_won", N_("Contracts made as caller"), of="caller", kind="share"),
    Figure("partner_won", N_("Hands won as partner"), of="partner", kind="share"),
    Figure("defender_won", N_("Hands won against the caller"), of="defender", kind="share"),
)


def facts(events, seat: int) -> dict[str, int]:
    out = zero(*KEYS)
    for ev in events:
        kind = ev["type"]
        if kind == "bid" and ev["seat"] == seat:
            out["bids"] += 1
        elif kind == "hand_result":
            marks = ev["marche"][seat]
            out["hands"] += 1
            out["won"] += marks > 0
            out["points"] += marks
            role = "caller" if ev["caller"] == seat else "partner" if ev["traitor"] == seat else "defender"
            out[role] += 1
            out[f"{role}_won"] += ev["success"] == (role != "defender")
    return out
