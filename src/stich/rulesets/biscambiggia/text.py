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

from stich.engine.narration import N_, plain_trick_reason, tell, tell_seats
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
    """The table rows of Biscambiggia's own view fields, those that say something now (labels and values
    in the reader's language)."""
    _ = names._
    out = []
    phase = view.get("phase")
    match = match_text(view, names)
    if match:
        out.append((_("Match"), match))
    if phase == "auction":
        out.append((_("Auction"), auction_text(view, names)))
    elif phase in ("call", "play") and view.get("contract"):
        out.extend(_contract_rows(view, names))
    if view.get("last_result"):
        out.append((_("Last hand"), result_text(view["last_result"], names, "\n")))
    if view.get("winners"):
        out.append((_("Winners"), seats(view["winners"], names)))
    return out


# --- the pieces ------------------------------------------------------------------------------------

def seats(values, names) -> str:
    return _listed([names.seat(s) for s in values])


def _listed(words: list[str]) -> str:
    return ", ".join(words) if words else "—"


def per_seat(values, names) -> str:
    """``Seat 1 16, Seat 2 0, ...``: card points per seat."""
    return ", ".join(f"{names.seat(p)} {v}" for p, v in enumerate(values or []))


def match_text(view: dict, names=None) -> str | None:
    """``10 hands``, or the extended length while tie-break rounds are played (the view only has
    the agreed length; the extra rounds of 5 hands follow from the hand number)."""
    options = view.get("options") or {}
    agreed, hand = options.get("hands_per_match"), view.get("hand_number")
    if not isinstance(agreed, int) or not isinstance(hand, int):
        return None
    _, ngettext = (names._, names.ngettext) if names is not None else (str, lambda a, b, n: a if n == 1 else b)
    if hand <= agreed:
        return ngettext(N_("%(n)s hand"), N_("%(n)s hands"), agreed) % {"n": agreed}
    target = agreed + 5 * -(-(hand - agreed) // 5)
    return _("extended to %(n)s hands: the top total was tied after %(m)s") % {"n": target, "m": target - 5}


def auction_text(view: dict, names) -> str:
    """``high bid 75 by Seat 2; passed: Seat 4; still in: ...``, or the opening when nobody bid."""
    _ = names._
    passed = [a["seat"] for a in view.get("auction") or [] if a.get("pass")]
    still = [s for s in range(view.get("num_players") or 5) if s not in passed]
    if view.get("high_bid"):
        text = tell(names, view.get("high_bidder"), N_("high bid %(bid)s, yours"), N_("high bid %(bid)s by %(seat)s"),
                    bid=view["high_bid"])
    else:
        low = (view.get("options") or {}).get("min_opening_bid", 61)
        text = _("no bid yet (the first bid is at least %(bid)s)") % {"bid": low}
    if passed:
        text += _("; passed: %(seats)s") % {"seats": seats(passed, names)}
    return text + _("; still bidding: %(seats)s") % {"seats": seats(still, names)}


def _contract_rows(view: dict, names) -> list[tuple[str, str]]:
    _ = names._
    contract = view["contract"]
    caller = contract["caller"]
    text = tell(names, caller, N_("you bid %(bid)s (of %(total)s card points)"),
                N_("%(seat)s bid %(bid)s (of %(total)s card points)"), bid=contract["bid"], total=TOTAL)
    if view.get("phase") == "call":
        return [(_("Contract"), text + _("; the card is being called"))]
    out = [(_("Contract"), text)]
    if view.get("called_card"):
        out.append((_("Called card"), _("%(card)s, trumps %(suit)s") % {
            "card": names.card_label(view["called_card"]), "suit": names.value(view.get("trump"), "trump")}))
        out.append((_("Caller's partner"), partner_text(view, names)))
    if view.get("teams"):
        team = view["teams"]
        out.append((_("Sides"), _("%(side)s against %(others)s") % {
            "side": " + ".join(names.seat(s) for s in team["caller_side"]), "others": seats(team["opponents"], names)}))
    if view.get("tricks"):
        out.append((_("Card points"), points_text(view, names)))
    if view.get("piles") and any(view["piles"]):
        out.append((_("Piles"), "\n".join(f"{names.seat(s)}: {names.short_cards(p)}"
                                          for s, p in enumerate(view["piles"]) if p)))
    return out


def partner_text(view: dict, names) -> str:
    """Who holds the called card, as far as this view knows."""
    _ = names._
    caller = view["contract"]["caller"]
    card = names.short_cards([view["called_card"]]) if names.is_card(view.get("called_card")) \
        else escape(str(view.get("called_card")))
    revealed = view.get("traitor_public")
    if revealed != "unknown":       # the called card has been played: public now
        if revealed is None:
            return tell(names, caller, N_("none: you play alone (%(card)s was your own)"),
                        N_("none: %(seat)s plays alone (%(card)s was their own)"), card=card)
        return _("%(seat)s, revealed when %(card)s was played") % {"seat": names.seat(revealed), "card": card}
    role = view.get("role")
    if role == "traitor":
        return _("you: you hold %(card)s (secret until you play it)") % {"card": card}
    if role == "caller_alone":
        return _("none: you hold %(card)s yourself and play alone (secret until you play it)") % {"card": card}
    if role == "opponent":
        return _("secret, not you: the holder of %(card)s, known when it is played") % {"card": card}
    return _("secret: the holder of %(card)s, known when it is played") % {"card": card}


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
        text += names._("; caller's side %(points)s of the %(bid)s needed") % {
            "points": sum(taken[s] for s in side), "bid": view["contract"]["bid"]}
    return text


def result_text(r: dict, names, sep: str = "; ") -> str:
    """A scored hand in three parts joined by ``sep`` (who bid what and how it went; the card points
    per seat; the marche per seat), or a throw-in."""
    _ = names._
    if r.get("thrown_in"):
        return _("Hand %(n)s: thrown in (all five passed), no marche") % {"n": r.get("hand")}
    values = {"n": r["hand"], "seat": names.seat(r["caller"]), "bid": r["contract"],
              "card": names.card_label(r["called_card"]), "points": r["team_points"], "total": TOTAL,
              "others": r["opponents_points"], "traitor": names.seat(r.get("traitor"))}
    if r.get("alone"):
        head = tell(names, r["caller"], N_("Hand %(n)s: you bid %(bid)s, called %(card)s and held it (alone)"),
                    N_("Hand %(n)s: %(seat)s bid %(bid)s, called %(card)s and held it (alone)"), **values)
    elif r.get("traitor") == names.human and names.human is not None:
        head = _("Hand %(n)s: %(seat)s bid %(bid)s, called %(card)s, which you held") % values
    else:
        head = tell(names, r["caller"], N_("Hand %(n)s: you bid %(bid)s, called %(card)s, held by %(traitor)s"),
                    N_("Hand %(n)s: %(seat)s bid %(bid)s, called %(card)s, held by %(traitor)s"), **values)
    verdict = f"[green]{_('made')}[/green]" if r.get("success") else f"[red]{_('failed')}[/red]"
    how = _("%(verdict)s with %(points)s of %(total)s card points (opponents %(others)s)") % {
        **values, "verdict": verdict}
    head = _("%(a)s; %(b)s") % {"a": head, "b": how}
    if r.get("cappotto"):
        head += _(", cappotto: marche doubled")
    return sep.join((head, _("points %(points)s") % {"points": per_seat(r.get("points_taken"), names)},
                     _("marche %(marche)s") % {"marche": names.signed(r.get("marche"))}))


# --- the events ------------------------------------------------------------------------------------
def _auction_start(ev, names):
    return tell(names, ev["first"], N_("You open the auction; the first bid is at least %(bid)s"),
                N_("%(seat)s opens the auction; the first bid is at least %(bid)s"), bid=ev.get("min_bid"))


def _bid(ev, names):
    return tell(names, ev["seat"], N_("You bid %(bid)s"), N_("%(seat)s bids %(bid)s"), bid=ev["bid"])


def _pass(ev, names):
    return tell(names, ev["seat"], N_("You pass"), N_("%(seat)s passes"))


def _contract(ev, names):
    if ev["caller"] == names.human:
        return f"[bold]{names._('You win the auction at %(bid)s') % {'bid': ev['bid']}}[/bold]" \
            + names._(": now call a card")
    return "[bold]" + tell(names, ev["caller"], N_("You win the auction at %(bid)s"),
                           N_("%(seat)s wins the auction at %(bid)s"), bid=ev["bid"]) + "[/bold]"


def _call(ev, names):
    values = {"card": names.card_label(ev["card"]), "suit": names.value(ev["trump"], "trump")}
    head = tell(names, ev["seat"], N_("You call %(card)s"), N_("%(seat)s calls %(card)s"), **values)
    return f"[bold]{head}[/bold]: " + tell(
        names, ev["seat"], N_("trumps %(suit)s; whoever holds it is your secret partner"),
        N_("trumps %(suit)s; whoever holds it is %(seat)s's secret partner"), **values)


def _partner(ev, names):
    """Private to the holder of the called card: his role, which nobody else knows yet."""
    seat, caller = ev["seat"], ev["caller"]
    if ev.get("alone"):
        text = tell(names, seat, N_("You hold the called card and play alone against the other four"),
                    N_("%(seat)s holds the called card and plays alone against the other four"))
    elif seat == names.human:
        text = names._("You hold the called card and are %(caller)s's partner") % {"caller": names.seat(caller)}
    else:
        text = tell(names, caller, N_("%(holder)s holds the called card and is your partner"),
                    N_("%(holder)s holds the called card and is %(seat)s's partner"), holder=names.seat(seat))
    return text + " " + names._("(secret until it is played)")


def _partner_revealed(ev, names):
    """Public, right after the called card is played: the sides are known from now on."""
    caller = ev["caller"]
    if ev.get("alone"):
        return "[bold]" + tell(names, caller, N_("You play alone"), N_("%(seat)s plays alone")) + "[/bold] " + \
            tell(names, caller, N_("(the called card was your own)"), N_("(the called card was %(seat)s's own)"))
    seat = ev["seat"]
    if seat == names.human:
        head = names._("You are %(caller)s's partner") % {"caller": names.seat(caller)}
    else:
        head = tell(names, caller, N_("%(holder)s is your partner"), N_("%(holder)s is %(seat)s's partner"),
                    holder=names.seat(seat))
    return f"[bold]{head}[/bold] " + names._("(the called card is out)")


def _hand_result(ev, names):
    return f"[bold]{result_text(ev, names)}[/bold]"


def _throw_in(ev, names):
    return (f"[bold]{names._('All five passed: the cards are thrown in')}[/bold]; "
            + names._("no marche, the next dealer deals hand %(n)s again") % {"n": ev.get("hand")})


def _match_end(ev, names):
    won = ev.get("winners") or []
    values = {"marche": names.signed(ev.get("scores"))}
    if won and ev.get("scores"):
        text = tell_seats(names, won, N_("you win with %(top)s marche; final marche %(marche)s"),
                          N_("you and %(others)s win with %(top)s marche; final marche %(marche)s"),
                          N_("won by %(seats)s with %(top)s marche; final marche %(marche)s"),
                          join=_listed, top=f"{ev['scores'][won[0]]:+d}", **values)
    else:
        text = tell_seats(names, won, N_("you win; final marche %(marche)s"),
                          N_("you and %(others)s win; final marche %(marche)s"),
                          N_("won by %(seats)s; final marche %(marche)s"), join=_listed, **values)
    return f"[bold]{names._('Match end')}[/bold]: {text}"


def _match_extended(ev, names):
    return (f"[bold]{names._('The top total is tied')}[/bold] ({seats(ev.get('tied') or [], names)}): "
            + names._("the match goes on to hand %(n)s") % {"n": ev.get("hands_per_match")})


def _trick(ev, names):
    points = ev.get("points", 0)
    one, many = ((N_("You win the trick (%(points)s point)"), N_("You win the trick (%(points)s points)"))
                 if ev.get("winner") == names.human else
                 (N_("%(seat)s wins the trick (%(points)s point)"), N_("%(seat)s wins the trick (%(points)s points)")))
    return "[green]" + names.ngettext(one, many, points) % {"seat": names.seat(ev.get("winner")),
                                                            "points": points} + "[/green]"


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
    return ({c: values[deck.parse(c)] for c in hand}, ({called: names._("called")} if called in hand else {}),
            view.get("trump"))


#: the plain reasons (stich.engine.narration.plain_trick_reason), marked here for this game's catalogue
PLAIN_REASONS = (N_("trump"), N_("the highest trump"), N_("the highest of the suit led"))


def trick_reason(view: dict, cards: list[dict], winner: int, names) -> str | None:
    """Why the trick went to ``winner``: trump, the highest trump or the highest of the suit led, in the
    reader's language (None where neither explains it)."""
    reason = plain_trick_reason(cards, winner, names, view.get("trump"))
    return None if reason is None else names._(reason)
