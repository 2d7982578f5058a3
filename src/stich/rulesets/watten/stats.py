"""A Watten player's figures of a finished match (the ``"stats"`` companion, ``stich.roles.stats``).

Read from the match's public events, hand by hand (a hand ends with its ``hand_result``):

- ``hands``, ``won`` (the seat's side took the hand), ``points`` (what the hand brought the seat's
  side: its value when won, 0 when lost; §2.7);
- ``raises``: the seat's raises (§2.8: a raise while answering one counts too), ``raises_won``:
  those in hands its side won;
- ``folds``: the hands the seat gave up: it answered a raise by folding (§2.8) or conceded a hand of
  fixed value (E.11, T1.9);
- ``ansager``: the hands the seat was an Ansager (forehand naming the Schlag or the dealer naming the
  trump, after a Schlagtausch the other way round; §0), ``ansager_won``: those its side won."""

from __future__ import annotations

from stich.engine.narration import N_
from stich.roles.stats import Figure, zero

KEYS = ("raises", "raises_won", "folds", "ansager", "ansager_won")
FIGURES = (
    Figure("raises", N_("Raises made")),
    Figure("raises_won", N_("Raises in hands won"), of="raises", kind="share"),
    Figure("folds", N_("Hands given up (folded)")),
    Figure("ansager_won", N_("Hands won as Ansager"), of="ansager", kind="share"),
)


def facts(events, seat: int) -> dict[str, int]:
    out = zero(*KEYS)
    raises, ansager = 0, set()
    for ev in events:
        kind = ev["type"]
        if kind == "hand_start":
            raises, ansager = 0, set()
        elif kind in ("watten_hand", "watten_roles"):   # the Ansager of the deal (again after an exchange or a swap)
            ansager = {ev["schlag_seat"], ev["trump_seat"]}
        elif kind == "raise" and ev["seat"] == seat:
            raises += 1
        elif kind in ("fold", "concede") and ev["seat"] == seat:
            out["folds"] += 1
        elif kind == "hand_result":
            won = seat in ev["seats"]
            out["hands"] += 1
            out["won"] += won
            out["points"] += ev["points"] if won else 0
            out["raises"] += raises
            out["raises_won"] += raises if won else 0
            if seat in ansager:
                out["ansager"] += 1
                out["ansager_won"] += won
    return out
