"""A Battn player's figures of a finished match (the ``"stats"`` companion, ``stich.roles.stats``).

Read from the match's public events, turn by turn (a turn ends with its ``turn_result``; the teams are
the ``scores`` events' ``teams``, seats 1+3 and 2+4):

- ``hands`` (the turns), ``won`` (the seat's team scored the turn), ``points`` (what the turn brought
  the seat's team: its points when won, 0 when lost; BT-14.6);
- the seat's own calls (its ``call`` events), each counted and counted again as ``..._won`` when its
  team scored that turn: ``raise`` (BT-14), ``orbi`` (the blind raise to 3, BT-16), ``x_play`` (the
  team holding the X plays the turn, BT-15.4), ``scheanara`` (asked that the two choosers' hands be
  exchanged for new ones from the stock, BT-8) and ``fold`` (gave up the
  turn when raised, BT-14.5)."""

from __future__ import annotations

from collections import Counter

from stich.engine.narration import N_
from stich.roles.stats import Figure, zero

CALLS = ("raise", "orbi", "x_play", "scheanara", "fold")
KEYS = CALLS + tuple(f"{c}_won" for c in CALLS)
FIGURES = (
    Figure("raise", N_("Raises made")),
    Figure("raise_won", N_("Raises in turns won"), of="raise", kind="share"),
    Figure("orbi_won", N_("Orbi called and won"), of="orbi", kind="share"),
    Figure("x_play_won", N_("X played and won"), of="x_play", kind="share"),
    Figure("scheanara", N_("Scheanara asked")),
    Figure("fold", N_("Turns given up (folded)")),
)


def facts(events, seat: int) -> dict[str, int]:
    out = zero(*KEYS)
    turns = []            # (the team that scored, its points, the seat's calls in the turn)
    calls: Counter = Counter()
    teams = [[0, 2], [1, 3]]
    for ev in events:
        kind = ev["type"]
        if kind == "hand_start":
            calls = Counter()
        elif kind == "call" and ev["seat"] == seat:
            verb = ev["call"].split()[0]
            if verb in CALLS:
                calls[verb] += 1
        elif kind == "turn_result":
            turns.append((ev["team"], ev["points"], calls))
            calls = Counter()
        elif kind == "scores":
            teams = ev["teams"]
    mine = next(i for i, t in enumerate(teams) if seat in t)
    for team, points, made in turns:
        won = team == mine
        out["hands"] += 1
        out["won"] += won
        out["points"] += points if won else 0
        for verb, n in made.items():
            out[verb] += n
            out[f"{verb}_won"] += n if won else 0
    return out
