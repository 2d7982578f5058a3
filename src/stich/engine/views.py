"""A seat's view as the fold of the events it may see (the design's core idea): the generic fold
every game shares (:class:`ViewFolder`, fed one event at a time by ``State.view``), the reference
fold from scratch (:func:`fold_events`) the tests compare it with, and the copies both hand out."""

from __future__ import annotations


def audience_list(aud: int | None):
    if aud is None:
        return None
    return [i for i in range(aud.bit_length()) if aud >> i & 1]


def seat_scores(ev: dict, n: int) -> list[float] | None:
    """Per seat, the points a ``scores`` event gives (docs/protocol.md): scores per seat as they are,
    a side's points to each of its seats (the event's ``teams``, otherwise side ``seat % sides``);
    None when its ``scores`` fit none of these.  Shared by the arena and the tournaments."""
    scores = ev.get("scores")
    if not isinstance(scores, list):
        return None
    if len(scores) == n:
        return [float(x) for x in scores]
    teams = ev.get("teams")
    if isinstance(teams, list) and len(teams) == len(scores):
        out = [0.0] * n
        for side, seats in enumerate(teams):
            for s in seats:
                out[s] = float(scores[side])
        return out
    if scores and n % len(scores) == 0:
        return [float(scores[s % len(scores)]) for s in range(n)]
    return None


def copy_payload(ev: dict) -> dict:
    return {k: (list(v) if isinstance(v, list) else v) for k, v in ev.items()}


def copy_json(value):
    """A deep copy of a JSON-like value (dicts and lists copied, scalars shared)."""
    if type(value) is dict:
        return {k: copy_json(v) for k, v in value.items()}
    if type(value) is list:
        return [copy_json(v) for v in value]
    return value


class ViewFolder:
    """The generic fold of one seat's visible events into a view, fed one event at a time.

    Standard event types: ``hand_start`` {hand, dealer}, ``deal`` {seat, cards, replace?},
    ``play`` {seat, card}, ``trick`` {winner}, ``scores`` {scores}.  Any other type is offered
    to the game's hook; if unhandled its payload is kept under ``view["info"][type]``.
    """

    __slots__ = ("seat", "n", "view", "events", "hand_start", "abs_start", "done", "last")

    def __init__(self, seat: int | None, n: int):
        self.seat = seat
        self.n = n
        self.view: dict = {"known_hands": [None] * n, "trick": [], "tricks": [], "info": {}}
        self.events: list[dict] = []  # the visible payloads (shared, never mutated)
        self.hand_start = 0  # index in self.events of the current hand's first event
        self.abs_start = -1  # index in the state's events of the current hand's first event
        self.done = 0  # how many of the state's events have been scanned
        self.last = None  # the payload scanned last (detects a rewritten event list)

    def feed(self, ev: dict, hook) -> None:
        view = self.view
        t = ev["type"]
        if t == "hand_start":
            self.hand_start = len(self.events)
            view.update(hand_number=ev.get("hand"), dealer=ev.get("dealer"), known_hands=[None] * self.n,
                        trick=[], tricks=[], info={})
        self.events.append(ev)
        if t == "hand_start":
            return
        if t == "deal":
            known = view["known_hands"]
            s = ev["seat"]
            if known[s] is None or ev.get("replace"):
                known[s] = []
            known[s].extend(ev["cards"])
        elif t == "play":
            s, c = ev["seat"], ev["card"]
            view["trick"].append({"seat": s, "card": c})
            known = view["known_hands"]
            if known[s] is not None and c in known[s]:
                known[s].remove(c)
        elif t == "trick":
            view["tricks"].append({"cards": list(view["trick"]), "winner": ev["winner"]})
            view["trick"].clear()
        elif t == "scores":
            view["scores"] = ev["scores"]
        elif not hook(view, ev, self.seat):
            view["info"][t] = {k: v for k, v in ev.items() if k != "type"}


def fold_events(events: list[dict], seat: int | None, n: int, hook) -> dict:
    """Fold a list of visible events from scratch (the reference for the cached fold)."""
    folder = ViewFolder(seat, n)
    for ev in events:
        folder.feed(ev, hook)
    view = copy_json(folder.view)
    known = view["known_hands"]
    view["hand"] = list(known[seat]) if seat is not None and known[seat] is not None else []
    return view
