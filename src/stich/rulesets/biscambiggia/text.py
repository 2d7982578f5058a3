"""Biscambiggia chiamata at the terminal: its events told as sentences and its view as table rows.

The generic rendering prints a game's own events as ``type: key: value`` and its own view fields as
one row each. Biscambiggia has an auction, a called card whose holder is the caller's secret partner
(the *traditore*), and marche settled after every hand, so a player gets all of these in words here,
with seats 1-based as everywhere else on screen.

Nothing here says more than the event or view it is given: the partner is named only once the view
or the event names him (the public reveal when the called card is played, or the holder's own
private ``partner`` event).
"""

from __future__ import annotations

from rich.markup import escape

from stich.rulesets.biscambiggia.rules import rank_values

#: verbs whose action line is left out: the event that follows says the same in full
NARRATED_VERBS = frozenset({"bid", "pass", "call"})

#: view fields shown by rows() (the rest, if any, by the generic table)
KEYS = frozenset({
    "phase", "auction", "high_bid", "high_bidder", "contract", "called_card", "trump", "traitor_public",
    "role", "partner", "alone", "teams", "points_taken", "piles", "last_result", "winners", "match_extended",
})

TOTAL = 120   # card points in the deck, whatever the ranking


def echoes(ev: dict, actor: int, action: str) -> bool:
    """No event of this game repeats an action line: bids, passes and calls are narrated by their
    events (``NARRATED_VERBS``), and the generic check already drops the ``play`` echo."""
    return False


def rows(view: dict, names) -> list[tuple[str, str]]:
    """The table rows of Biscambiggia's own view fields, those that say something now."""
    out = []
    phase = view.get("phase")
    match = match_text(view)
    if match:
        out.append(("Match", match))
    if phase == "auction":
        out.append(("Auction", auction_text(view, names)))
    elif phase in ("call", "play") and view.get("contract"):
        out.extend(_contract_rows(view, names))
    if view.get("last_result"):
        out.append(("Last hand", result_text(view["last_result"], names, "\n")))
    if view.get("winners"):
        out.append(("Winners", seats(view["winners"], names)))
    return out


# --- the pieces ------------------------------------------------------------------------------------

def _your(seat, names) -> str:
    """``your`` / ``Seat 3's``."""
    return "your" if seat == names.human else f"{names.seat(seat)}'s"


def seats(values, names) -> str:
    return ", ".join(names.seat(s) for s in values) if values else "—"


def per_seat(values, names) -> str:
    """``Seat 1 16, Seat 2 0, ...``: card points per seat."""
    return ", ".join(f"{names.seat(p)} {v}" for p, v in enumerate(values or []))


def match_text(view: dict) -> str | None:
    """``10 hands``, or the extended length while tie-break rounds are played (the view only has
    the agreed length; the extra rounds of 5 hands follow from the hand number)."""
    options = view.get("options") or {}
    agreed, hand = options.get("hands_per_match"), view.get("hand_number")
    if not isinstance(agreed, int) or not isinstance(hand, int):
        return None
    if hand <= agreed:
        return f"{agreed} hand{'s' if agreed != 1 else ''}"
    target = agreed + 5 * -(-(hand - agreed) // 5)
    return f"extended to {target} hands: the top total was tied after {target - 5}"


def auction_text(view: dict, names) -> str:
    """``high bid 75 by Seat 2; passed: Seat 4; still in: ...``, or the opening when nobody bid."""
    passed = [a["seat"] for a in view.get("auction") or [] if a.get("pass")]
    still = [s for s in range(view.get("num_players") or 5) if s not in passed]
    if view.get("high_bid"):
        text = f"high bid {view['high_bid']} by {names.seat(view.get('high_bidder'))}"
    else:
        low = (view.get("options") or {}).get("min_opening_bid", 61)
        text = f"no bid yet (the first bid is at least {low})"
    if passed:
        text += f"; passed: {seats(passed, names)}"
    return text + f"; still bidding: {seats(still, names)}"


def _contract_rows(view: dict, names) -> list[tuple[str, str]]:
    contract = view["contract"]
    caller = contract["caller"]
    text = f"{names.seat(caller)} bid {contract['bid']} (of {TOTAL} card points)"
    if view.get("phase") == "call":
        return [("Contract", text + "; the card is being called")]
    out = [("Contract", text)]
    if view.get("called_card"):
        out.append(("Called card", f"{names.card_label(view['called_card'])}, trumps "
                                   f"{names.value(view.get('trump'), 'trump')}"))
        out.append(("Caller's partner", partner_text(view, names)))
    if view.get("teams"):
        team = view["teams"]
        out.append(("Sides", f"{' + '.join(names.seat(s) for s in team['caller_side'])} against "
                             f"{seats(team['opponents'], names)}"))
    if view.get("tricks"):
        out.append(("Card points", points_text(view, names)))
    if view.get("piles") and any(view["piles"]):
        out.append(("Piles", "\n".join(f"{names.seat(s)}: {', '.join(p)}" for s, p in enumerate(view["piles"]) if p)))
    return out


def partner_text(view: dict, names) -> str:
    """Who holds the called card, as far as this view knows."""
    caller = view["contract"]["caller"]
    card = escape(str(view.get("called_card")))
    revealed = view.get("traitor_public")
    if revealed != "unknown":       # the called card has been played: public now
        if revealed is None:
            who = "you play" if caller == names.human else f"{names.seat(caller)} plays"
            return f"none: {who} alone ({card} was {_your(caller, names)} own)"
        return f"{names.seat(revealed)}, revealed when {card} was played"
    role = view.get("role")
    if role == "traitor":
        return f"you: you hold {card} (secret until you play it)"
    if role == "caller_alone":
        return f"none: you hold {card} yourself and play alone (secret until you play it)"
    if role == "opponent":
        return f"secret, not you: the holder of {card}, known when it is played"
    return f"secret: the holder of {card}, known when it is played"


def _known_side(view: dict) -> list[int] | None:
    """The caller's side as this view knows it: public after the reveal, or the holder's own."""
    if view.get("teams"):
        return view["teams"]["caller_side"]
    caller = view["contract"]["caller"]
    if view.get("role") == "traitor":
        return sorted((caller, view["seat"]))
    if view.get("role") == "caller_alone":
        return [caller]
    return None


def points_text(view: dict, names) -> str:
    """Card points in each pile so far, and the caller's side's total when this view knows the side."""
    taken = view.get("points_taken") or []
    text = per_seat(taken, names)
    side = _known_side(view)
    if side is not None and taken:
        text += f"; caller's side {sum(taken[s] for s in side)} of the {view['contract']['bid']} needed"
    return text


def result_text(r: dict, names, sep: str = "; ") -> str:
    """A scored hand in three parts joined by ``sep`` (who bid what and how it went; the card points
    per seat; the marche per seat), or a throw-in."""
    if r.get("thrown_in"):
        return f"Hand {r.get('hand')}: thrown in (all five passed), no marche"
    card = names.card_label(r["called_card"])
    held = " and held it (alone)" if r.get("alone") else f", held by {names.seat(r['traitor'])}"
    verdict = "[green]made[/green]" if r.get("success") else "[red]failed[/red]"
    head = (f"Hand {r['hand']}: {names.seat(r['caller'])} bid {r['contract']}, called {card}{held}; "
            f"{verdict} with {r['team_points']} of {TOTAL} card points (opponents {r['opponents_points']})")
    if r.get("cappotto"):
        head += ", cappotto: marche doubled"
    return sep.join((head, f"points {per_seat(r.get('points_taken'), names)}",
                     f"marche {names.signed(r.get('marche'))}"))


# --- the events ------------------------------------------------------------------------------------
def _auction_start(ev, names):
    return (f"{names.subject(ev['first'], 'open', 'opens')} the auction; the first bid is at least "
            f"{ev.get('min_bid')}")


def _bid(ev, names):
    return f"{names.subject(ev['seat'], 'bid', 'bids')} {ev['bid']}"


def _pass(ev, names):
    return names.subject(ev["seat"], "pass", "passes")


def _contract(ev, names):
    line = f"[bold]{names.subject(ev['caller'], 'win', 'wins')} the auction at {ev['bid']}[/bold]"
    return line + ": now call a card" if ev["caller"] == names.human else line


def _call(ev, names):
    seat = ev["seat"]
    return (f"[bold]{names.subject(seat, 'call', 'calls')} {names.card_label(ev['card'])}[/bold]: trumps "
            f"{names.value(ev['trump'], 'trump')}; whoever holds it is {_your(seat, names)} secret partner")


def _partner(ev, names):
    """Private to the holder of the called card: his role, which nobody else knows yet."""
    seat, caller = ev["seat"], ev["caller"]
    you = seat == names.human
    if ev.get("alone"):
        role = f"{'play' if you else 'plays'} alone against the other four"
    else:
        role = f"{'are' if you else 'is'} {_your(caller, names)} partner"
    return f"{names.subject(seat, 'hold', 'holds')} the called card and {role} (secret until it is played)"


def _partner_revealed(ev, names):
    """Public, right after the called card is played: the sides are known from now on."""
    caller = ev["caller"]
    if ev.get("alone"):
        return (f"[bold]{names.subject(caller, 'play', 'plays')} alone[/bold] "
                f"(the called card was {_your(caller, names)} own)")
    return (f"[bold]{names.subject(ev['seat'], 'are', 'is')} {_your(caller, names)} partner[/bold] "
            f"(the called card is out)")


def _hand_result(ev, names):
    return f"[bold]{result_text(ev, names)}[/bold]"


def _throw_in(ev, names):
    return (f"[bold]All five passed: the cards are thrown in[/bold]; no marche, the next dealer deals "
            f"hand {ev.get('hand')} again")


def _match_end(ev, names):
    won = ev.get("winners") or []
    top = f" with {ev['scores'][won[0]]:+d} marche" if won and ev.get("scores") else ""
    return f"[bold]Match end[/bold]: won by {seats(won, names)}{top}; final marche {names.signed(ev.get('scores'))}"


def _match_extended(ev, names):
    return (f"[bold]The top total is tied[/bold] ({seats(ev.get('tied') or [], names)}): the match goes on "
            f"to hand {ev.get('hands_per_match')}")


def _trick(ev, names):
    points = ev.get("points", 0)
    won = names.subject(ev.get("winner"), "win", "wins")
    return f"[green]{won} the trick ({points} point{'' if points == 1 else 's'})[/green]"


#: a sentence per event type of the game's own (a teller may return NotImplemented: generic text)
TELLERS = {
    "auction_start": _auction_start, "bid": _bid, "pass": _pass, "contract": _contract, "call": _call,
    "partner": _partner, "partner_revealed": _partner_revealed, "hand_result": _hand_result,
    "throw_in": _throw_in, "match_end": _match_end, "match_extended": _match_extended, "trick": _trick,
}


def hand_order(view: dict, names) -> tuple[dict, dict, str | None]:
    """The hand's strength per card (the ranking option's order, BB-0.2: A 3 K Q J 7 ... 2), the called
    card marked, and the trump suit (the called card's), for the compact hand."""
    deck = names.deck
    values = rank_values(names.game.options["ranking"])
    hand = view.get("hand") or []
    called = view.get("called_card")
    return {c: values[deck.parse(c)] for c in hand}, ({called: "called"} if called in hand else {}), view.get("trump")
