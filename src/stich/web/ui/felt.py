"""The felt: where each seat sits around it, the trick in front of who played it, the trick that closed
the hand, and the hand's summary.

Seats sit in playing order around the felt, the reader at the bottom (a spectator sees seat 1 there):
the next seat to the reader's left where a game numbers its seats clockwise (Watten, Barbu), to the
right where it numbers them counter-clockwise (Battn, Biscambiggia: ``SEATING`` in the game's page).
With four players the partner sits opposite.  Positions are compass names (``s`` the reader, ``n``
opposite) that the style sheet places; nothing here knows a game by name.
"""

from __future__ import annotations

from stich.engine import member

#: positions around the felt for n players, the reader first, the others clockwise (next on the left)
CLOCKWISE = {
    1: ("s",),
    2: ("s", "n"),
    3: ("s", "nw", "ne"),
    4: ("s", "w", "n", "e"),
    5: ("s", "w", "nw", "ne", "e"),
    6: ("s", "w", "nw", "n", "ne", "e"),
}
#: counter-clockwise seating is the mirror image: the next seat on the reader's right
MIRROR = {"s": "s", "n": "n", "w": "e", "e": "w", "nw": "ne", "ne": "nw"}
#: events that close a hand (or a turn, or a deal) and say who won it and why
RESULT_TYPES = ("hand_result", "turn_result", "deal_result")


def positions(game, me: int | None) -> list[str]:
    """Each seat's place on the felt, seat by seat: the reader (seat 0 for a spectator) at ``s``."""
    n = game.num_players
    ring = CLOCKWISE.get(n)
    if ring is None:
        raise ValueError(f"no seating around the felt for {n} players (1 to {max(CLOCKWISE)})")
    if member(game, "page", "SEATING") == "counterclockwise":
        ring = tuple(MIRROR[p] for p in ring)
    base = me if isinstance(me, int) and 0 <= me < n else 0
    return [ring[(s - base) % n] for s in range(n)]


def closing_trick(events: list[dict]) -> dict | None:
    """The trick that closed the hand just over, told by the events, while no card of the next hand is
    led yet (the view of a new hand has no tricks): ``{"cards": [(seat, card)], "winner": seat}``.

    None when a card was led since, when a later hand ended without a trick (a fold), or when the
    last trick is not followed by the end of its hand (the view's own tricks show it then)."""
    last = None
    for i in range(len(events) - 1, -1, -1):
        t = events[i].get("type")
        if t == "play":
            return None   # a card was led after it
        if t == "trick":
            last = i
            break
    if last is None or not isinstance(events[last].get("winner"), int):
        return None
    after = events[last + 1:]
    if not any(ev.get("type") in RESULT_TYPES for ev in after):
        return None
    if sum(ev.get("type") == "hand_start" for ev in after) > 1:
        return None   # a whole hand went by since without a trick (folded): this trick is older
    cards = []
    for ev in reversed(events[:last]):
        if ev.get("type") in ("trick", "hand_start"):
            break
        if ev.get("type") == "play" and isinstance(ev.get("seat"), int) and isinstance(ev.get("card"), str):
            cards.append((ev["seat"], ev["card"]))
    if not cards:
        return None
    return {"cards": cards[::-1], "winner": events[last]["winner"]}


def last_result(events: list[dict]) -> tuple[dict | None, bool]:
    """The latest result of a hand and whether it is fresh: no card played since (the hand's summary
    stays on the felt until the next hand's first card)."""
    for i in range(len(events) - 1, -1, -1):
        if events[i].get("type") in RESULT_TYPES:
            fresh = not any(ev.get("type") == "play" for ev in events[i + 1:])
            return events[i], fresh
    return None, False


def felt_rows(rows: list[tuple[str, str]], game, _) -> tuple[list, list]:
    """The game's state rows split in two: those players look at (``FELT_ROWS`` of its page: stake,
    Schlag and trump, contract, called card), shown on the felt, and the rest, one click away."""
    wanted = [_(m) for m in member(game, "page", "FELT_ROWS")]
    on = [r for w in wanted for r in rows if r[0] == w]
    return on, [r for r in rows if r not in on]
