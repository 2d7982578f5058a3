"""What a game's ``"stats"`` companion builds on: the figures a player's profile shows of a game.

A game's ``stats`` module (``stich.rulesets.<game>.stats``) reads the public events of one finished
match (the dicts of ``record["events"]``, or the payloads of ``state.events``) and returns one seat's
counts, ``facts(events, seat) -> {name: int}``: always :data:`BASE` (the hands the match had, those
the seat's side won, the points the hands brought the seat's score) and the game's own counts.  The
counts of many matches add up key by key (``add``), so a profile is their sum; ``FIGURES`` says
which of them the profile shows and how (:class:`Figure`).  Only public events are read: a figure
never tells what the seat could not know at the table."""

from __future__ import annotations

from dataclasses import dataclass

#: every game's counts: the hands played, the hands the seat (or its side) won, and the points the
#: hands added to the seat's (or its side's) match score, summed (negative where a hand costs points)
BASE = ("hands", "won", "points")


@dataclass(frozen=True)
class Figure:
    """One row of a game's figures on the profile.

    - ``kind="count"``: the total of ``key`` and its average per hand;
    - ``kind="share"``: ``key`` out of ``of`` with the percentage (raises won of raises made);
    - ``kind="average"``: ``key`` divided by ``of`` (the points per deal of one Barbu contract)."""

    key: str
    words: str            # the msgid of the row's label (the game's catalogue)
    of: str | None = None
    kind: str = "count"

    def __post_init__(self):
        if self.kind not in ("count", "share", "average"):
            raise ValueError(f"figure {self.key!r}: kind {self.kind!r} is none of count, share, average")
        if (self.kind == "count") != (self.of is None):
            raise ValueError(f"figure {self.key!r}: a {self.kind} figure {'needs' if self.of is None else 'takes no'} "
                             "'of'")


def zero(*keys: str) -> dict[str, int]:
    """The counts of a match before any hand: every key at 0 (so a sum has every key)."""
    return dict.fromkeys(BASE + keys, 0)


def add(total: dict[str, int], facts: dict[str, int]) -> dict[str, int]:
    """``total`` plus one match's ``facts``, key by key (a key only one of them has counts from 0)."""
    for key, value in facts.items():
        total[key] = total.get(key, 0) + value
    return total
