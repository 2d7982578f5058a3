"""Barbu at the terminal: its events told as sentences and its view as table rows.

The generic rendering prints a game's own events as ``type: key: value`` and its own view fields as
one row each; Barbu has many of both (caller, contract, doubles, businesses, domino layout, deal
results), so a player gets them in words here, with seats 1-based as everywhere else on screen.
"""

from __future__ import annotations

from rich.markup import escape

#: verbs whose action line is left out: the event that follows says the same in full
NARRATED_VERBS = frozenset({"contract", "double", "redouble", "pass"})

#: view fields shown by rows() (the rest, if any, by the generic table)
KEYS = frozenset({
    "caller", "block_position", "available_contracts", "caller_doubles", "contract", "trump", "domino_rank",
    "doubling", "businesses", "layout", "domino_log", "domino_out", "taken", "deal_points", "deal_result",
    "previous_result", "match_result",
})


def echoes(ev: dict, actor: int, action: str) -> bool:
    """A domino event that only repeats the action line just shown (``play H7``, ``pass``)."""
    if ev.get("seat") != actor:
        return False
    if ev.get("type") == "domino_play":
        return action == f"play {ev.get('card')}"
    return ev.get("type") == "domino_pass" and action == "pass"


def rows(view: dict, names) -> list[tuple[str, str]]:
    """The table rows of Barbu's own view fields, those that say something now."""
    out = []
    caller = view.get("caller")
    if caller is not None:
        out.append(("Caller", f"{names.seat(caller)} (deal {view.get('block_position')} of 7 as caller)"))
    contract = view.get("contract")
    if contract is None and view.get("available_contracts"):
        out.append(("Contracts left", ", ".join(view["available_contracts"])))
    if contract is not None:
        out.append(("Contract", contract_text(view, names)))
    if caller is not None and view.get("caller_doubles") and (contract is None or not view.get("deal_result")):
        done = [f"{names.seat(p)}: {n}" for p, n in enumerate(view["caller_doubles"]) if p != caller]
        out.append(("Doubles of the caller", ", ".join(done) + " (deals; each owes him 2, §3.3)"))
    if view.get("businesses"):
        out.append(("Businesses", businesses_text(view["businesses"], names)))
    if view.get("layout"):
        out.append(("Layout", layout_text(view["layout"])))
    if view.get("domino_out"):
        out.append(("Out", ", ".join(f"{i}. {names.seat(p)}" for i, p in enumerate(view["domino_out"], 1))))
    if view.get("taken") and not view.get("deal_result"):
        out.append(("Taken", "\n".join(_taken_line(p, t, names) for p, t in enumerate(view["taken"]))))
        out.append(("Deal points", names.signed(view.get("deal_points"))))
    for key, label in (("deal_result", "Deal result"), ("previous_result", "Previous deal")):
        if view.get(key):
            out.append((label, result_text(view[key], names)))
    if view.get("match_result"):
        r = view["match_result"]
        out.append(("Match result", f"{names.signed(r['totals'])}; won by "
                                    f"{', '.join(names.seat(p) for p in r['winners'])}"))
    return out


# --- the pieces ------------------------------------------------------------------------------------
def contract_text(ev: dict, names) -> str:
    """``TRUMPS, trumps S (pique)``, ``DOMINO from the 7 (sept)``, ``BARBU``."""
    contract = escape(str(ev.get("contract")))
    if ev.get("trump"):
        return f"{contract}, trumps {names.value(ev['trump'], 'trump')}"
    if ev.get("domino_rank"):
        return f"{contract} from the {names.value(ev['domino_rank'], 'rank')}"
    return contract


def businesses_text(businesses, names) -> str:
    """``Seat 1 × Seat 3 (redoubled), ...``: who settles with whom after the doubling round."""
    return ", ".join(f"{names.seat(a)} × {names.seat(b)} ({'redoubled' if m == 2 else 'doubled'})"
                     for a, b, m in businesses)


def layout_text(layout: dict) -> str:
    """``S 5-9 · H — · D 7 · C 6-8``: the domino rows, lowest to highest card."""
    parts = []
    for suit, row in layout.items():
        if row is None:
            parts.append(f"{suit} —")
        else:
            lo, hi = (c[len(suit):] for c in row)
            parts.append(f"{suit} {lo}" if lo == hi else f"{suit} {lo}–{hi}")
    return " · ".join(parts)


def result_text(r: dict, names) -> str:
    """A scored deal: its contract points, what the doubling moved and the deal's total per seat."""
    head = f"Deal {r['hand']} ({escape(str(r['contract']))}, called by {names.seat(r['caller'])}): "
    if not r.get("played"):
        return head + f"not played (nobody doubled), its points split: {names.signed(r['final'])}"
    text = head + f"contract points {names.signed(r['raw'])}"
    if r.get("adjustments") and any(r["adjustments"]):
        text += f"; doubling {names.signed(r['adjustments'])}"
    return text + f"; total {names.signed(r['final'])}"


def _taken_line(p: int, taken: dict, names) -> str:
    cards = f" ({', '.join(taken['cards'])})" if taken.get("cards") else ""
    n = taken.get("tricks", 0)
    return f"{names.seat(p)}: {n} trick{'' if n == 1 else 's'}{cards}"


# --- the events ------------------------------------------------------------------------------------
def _caller(ev, names):
    left = ", ".join(ev.get("available") or [])
    return (f"{names.subject(ev['seat'], 'are', 'is')} the caller (deal {ev.get('block_position')} of 7 as "
            f"caller); contracts left: {left}")


def _contract(ev, names):
    return f"[bold]{names.subject(ev['seat'], 'declare', 'declares')} {contract_text(ev, names)}[/bold]"


def _double(ev, names):
    seat = ev["seat"]
    doubles, redoubles = ev.get("doubles") or [], ev.get("redoubles") or []
    if not doubles and not redoubles:
        return names.subject(seat, "pass", "passes")
    parts = []
    if doubles:
        parts.append(f"{names.subject(seat, 'double', 'doubles')} {', '.join(names.seat(q) for q in doubles)}")
    if redoubles:
        who = ", ".join(names.seat(q) for q in redoubles)
        verb = names.subject(seat, "redouble", "redoubles")
        parts.append(f"{verb} {who}" if not doubles else f"{verb.rsplit(' ', 1)[-1]} {who}")
    return " and ".join(parts)


def _domino_play(ev, names):
    return f"{names.subject(ev['seat'], 'lay', 'lays')} {names.card_label(ev['card'])}"


def _domino_pass(ev, names):
    return f"{names.subject(ev['seat'], 'pass', 'passes')} (no card fits)"


def _domino_out(ev, names):
    place = ev.get("place")
    nth = {1: "first", 2: "second", 3: "third", 4: "last"}.get(place, str(place))
    return f"[green]{names.subject(ev['seat'], 'go', 'goes')} out {nth}[/green]"


def _deal_result(ev, names):
    return f"[bold]{result_text(ev, names)}[/bold]"


def _match_end(ev, names):
    won = ", ".join(names.seat(p) for p in ev.get("winners") or [])
    return f"[bold]Match end[/bold]: totals {names.signed(ev.get('totals'))}; won by {won}"


#: a sentence per event type of the game's own (a teller may return NotImplemented: generic text)
TELLERS = {
    "caller": _caller, "contract": _contract, "double": _double, "domino_play": _domino_play,
    "domino_pass": _domino_pass, "domino_out": _domino_out, "deal_result": _deal_result, "match_end": _match_end,
}


def hand_order(view: dict, names) -> tuple[dict, dict, str | None]:
    """The hand's strength per card (Ace high, §1.1), the Barbu (the King of hearts) named in its contract,
    and the trump suit in Trumps, for the compact hand."""
    deck = names.deck
    hand = view.get("hand") or []
    marks = {"HK": "Barbu"} if view.get("contract") == "BARBU" and "HK" in hand else {}
    return {c: deck.rank(deck.parse(c)) for c in hand}, marks, view.get("trump")
