"""Barbu at the terminal: its events told as sentences and its view as table rows.

The generic rendering prints a game's own events as ``type: key: value`` and its own view fields as
one row each; Barbu has many of both (caller, contract, doubles, businesses, domino layout, deal
results), so a player gets them in words here, with seats 1-based as everywhere else on screen.
"""

from __future__ import annotations

from rich.markup import escape

from stich.engine.narration import N_, plain_trick_reason, tell, tell_seats
from stich.rulesets.barbu.page import CONTRACTS

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
    """The table rows of Barbu's own view fields, those that say something now (labels and values in the
    reader's language)."""
    _ = names._
    out = []
    caller = view.get("caller")
    if caller is not None:
        out.append((_("Caller"), _("%(seat)s (deal %(n)s of 7 as caller)")
                    % {"seat": names.seat(caller), "n": view.get("block_position")}))
    contract = view.get("contract")
    if contract is None and view.get("available_contracts"):
        out.append((_("Contracts left"), ", ".join(contract_name(c, names) for c in view["available_contracts"])))
    if contract is not None:
        out.append((_("Contract"), contract_text(view, names)))
    if caller is not None and view.get("caller_doubles") and (contract is None or not view.get("deal_result")):
        done = [f"{names.seat(p)}: {n}" for p, n in enumerate(view["caller_doubles"]) if p != caller]
        out.append((_("Doubles of the caller"), _("%(list)s (deals; each owes him 2, §3.3)")
                     % {"list": ", ".join(done)}))
    if view.get("businesses"):
        out.append((_("Businesses"), businesses_text(view["businesses"], names)))
    if view.get("layout"):
        out.append((_("Layout"), layout_text(view["layout"], names)))
    if view.get("domino_out"):
        out.append((_("Out"), ", ".join(f"{i}. {names.seat(p)}" for i, p in enumerate(view["domino_out"], 1))))
    if view.get("taken") and not view.get("deal_result"):
        out.append((_("Taken"), "\n".join(_taken_line(p, t, names) for p, t in enumerate(view["taken"]))))
        out.append((_("Deal points"), names.signed(view.get("deal_points"))))
    for key, label in (("deal_result", N_("Deal result")), ("previous_result", N_("Previous deal"))):
        if view.get(key):
            out.append((_(label), result_text(view[key], names)))
    if view.get("match_result"):
        r = view["match_result"]
        out.append((_("Match result"), _("%(totals)s; won by %(seats)s")
                    % {"totals": names.signed(r["totals"]), "seats": ", ".join(names.seat(p) for p in r["winners"])}))
    return out


# --- the pieces ------------------------------------------------------------------------------------
#: the contracts as the reader names them: English keeps the codes one types (``contract NO_TRICKS``), the
#: other languages read the French table names (docs/rules/barbu.md §2: barbu, pas de plis ...)
CONTRACT_NAMES = {
    "NO_TRICKS": N_("NO_TRICKS"), "NO_HEARTS": N_("NO_HEARTS"), "NO_QUEENS": N_("NO_QUEENS"),
    "BARBU": N_("BARBU"), "NO_LAST_TWO": N_("NO_LAST_TWO"), "TRUMPS": N_("TRUMPS"), "DOMINO": N_("DOMINO"),
}


def contract_name(code, names) -> str:
    """``NO_TRICKS`` in English, ``pas de plis`` in French, ``keine Stiche`` in German ...; on a page (where
    nobody types the code) the buttons' words in every language: ``no tricks (pas de plis)``."""
    code = str(code)
    if not names.types_codes and code in CONTRACTS:
        return escape(names._(CONTRACTS[code]))
    return escape(names._(CONTRACT_NAMES[code]) if code in CONTRACT_NAMES else code)


def contract_text(ev: dict, names) -> str:
    """``TRUMPS, trumps S (pique)``, ``DOMINO from the 7 (sept)``, ``BARBU``."""
    contract = contract_name(ev.get("contract"), names)
    if ev.get("trump"):
        return names._("%(contract)s, trumps %(suit)s") % {"contract": contract,
                                                           "suit": names.value(ev["trump"], "trump")}
    if ev.get("domino_rank"):
        return names._("%(contract)s from the %(rank)s") % {"contract": contract,
                                                            "rank": names.value(ev["domino_rank"], "rank")}
    return contract


def businesses_text(businesses, names) -> str:
    """``Seat 1 × Seat 3 (redoubled), ...``: who settles with whom after the doubling round."""
    return ", ".join(f"{names.seat(a)} × {names.seat(b)} "
                     f"({names._('redoubled') if m == 2 else names._('doubled')})" for a, b, m in businesses)


def layout_text(layout: dict, names=None) -> str:
    """``S 5-9 · H — · D 7 · C 6-8``: the domino rows, lowest to highest card (with the page's ``names``, the
    suits by their names: ``Pik 5–9``)."""
    parts = []
    for suit, row in layout.items():
        shown = suit if names is None or names.types_codes else names.value(suit, "suit")
        if row is None:
            parts.append(f"{shown} —")
        else:
            lo, hi = (c[len(suit):] for c in row)
            parts.append(f"{shown} {lo}" if lo == hi else f"{shown} {lo}–{hi}")
    return " · ".join(parts)


def result_text(r: dict, names) -> str:
    """A scored deal: its contract points, what the doubling moved and the deal's total per seat."""
    _ = names._
    head = tell(names, r["caller"], N_("Deal %(n)s (%(contract)s, called by you): "),
                N_("Deal %(n)s (%(contract)s, called by %(seat)s): "),
                n=r["hand"], contract=contract_name(r["contract"], names))
    if not r.get("played"):
        return head + _("not played (nobody doubled), its points split: %(points)s") % {
            "points": names.signed(r["final"])}
    text = head + _("contract points %(points)s") % {"points": names.signed(r["raw"])}
    if r.get("adjustments") and any(r["adjustments"]):
        text += _("; doubling %(points)s") % {"points": names.signed(r["adjustments"])}
    return text + _("; total %(points)s") % {"points": names.signed(r["final"])}


def _taken_line(p: int, taken: dict, names) -> str:
    cards = f" ({names.short_cards(taken['cards'])})" if taken.get("cards") else ""
    n = taken.get("tricks", 0)
    return names.ngettext(N_("%(seat)s: %(n)s trick"), N_("%(seat)s: %(n)s tricks"), n) % {
        "seat": names.seat(p), "n": n} + cards


# --- the events ------------------------------------------------------------------------------------
def _caller(ev, names):
    left = ", ".join(contract_name(c, names) for c in ev.get("available") or [])
    return tell(names, ev["seat"], N_("You are the caller (deal %(n)s of 7 as caller); contracts left: %(left)s"),
                N_("%(seat)s is the caller (deal %(n)s of 7 as caller); contracts left: %(left)s"),
                n=ev.get("block_position"), left=left)


def _contract(ev, names):
    return "[bold]" + tell(names, ev["seat"], N_("You declare %(contract)s"), N_("%(seat)s declares %(contract)s"),
                           contract=contract_text(ev, names)) + "[/bold]"


def _double(ev, names):
    seat = ev["seat"]
    doubles, redoubles = ev.get("doubles") or [], ev.get("redoubles") or []
    if not doubles and not redoubles:
        return tell(names, seat, N_("You pass"), N_("%(seat)s passes"))
    d = ", ".join(names.seat(q) for q in doubles)
    r = ", ".join(names.seat(q) for q in redoubles)
    if seat == names.human:   # the reader doubles others: "You double Seat 2"
        if doubles and redoubles:
            return names._("You double %(doubled)s and redouble %(redoubled)s") % {"doubled": d, "redoubled": r}
        if doubles:
            return names._("You double %(doubled)s") % {"doubled": d}
        return names._("You redouble %(redoubled)s") % {"redoubled": r}
    # another seat doubles, the reader perhaps among those it doubles: "Seat 2 doubles Seat 3 and you"
    by = names.seat(seat)
    if doubles and redoubles and names.human in redoubles:
        return tell_seats(names, redoubles, N_("%(seat)s doubles %(doubled)s and redoubles you"),
                          N_("%(seat)s doubles %(doubled)s and redoubles %(others)s and you"),
                          N_("%(seat)s doubles %(doubled)s and redoubles %(redoubled)s"), key="redoubled",
                          seat=by, doubled=d)
    if doubles and redoubles:
        return tell_seats(names, doubles, N_("%(seat)s doubles you and redoubles %(redoubled)s"),
                          N_("%(seat)s doubles %(others)s and you, and redoubles %(redoubled)s"),
                          N_("%(seat)s doubles %(doubled)s and redoubles %(redoubled)s"), key="doubled",
                          seat=by, redoubled=r)
    if doubles:
        return tell_seats(names, doubles, N_("%(seat)s doubles you"), N_("%(seat)s doubles %(others)s and you"),
                          N_("%(seat)s doubles %(doubled)s"), key="doubled", seat=by)
    return tell_seats(names, redoubles, N_("%(seat)s redoubles you"), N_("%(seat)s redoubles %(others)s and you"),
                      N_("%(seat)s redoubles %(redoubled)s"), key="redoubled", seat=by)


def _domino_play(ev, names):
    return tell(names, ev["seat"], N_("You lay %(card)s"), N_("%(seat)s lays %(card)s"),
                card=names.card_label(ev["card"]))


def _domino_pass(ev, names):
    return tell(names, ev["seat"], N_("You pass (no card fits)"), N_("%(seat)s passes (no card fits)"))


#: who goes out in which place (R-9): one sentence each, the ordinal agreeing with the language
OUT = {1: (N_("You go out first"), N_("%(seat)s goes out first")),
       2: (N_("You go out second"), N_("%(seat)s goes out second")),
       3: (N_("You go out third"), N_("%(seat)s goes out third")),
       4: (N_("You go out last"), N_("%(seat)s goes out last"))}


def _domino_out(ev, names):
    place = ev.get("place")
    you, other = OUT.get(place, (N_("You go out %(place)s."), N_("%(seat)s goes out %(place)s.")))
    return f"[green]{tell(names, ev['seat'], you, other, place=place)}[/green]"


def _deal_result(ev, names):
    return f"[bold]{result_text(ev, names)}[/bold]"


def _match_end(ev, names):
    return f"[bold]{names._('Match end')}[/bold]: " + tell_seats(
        names, ev.get("winners") or [], N_("totals %(totals)s; you win"),
        N_("totals %(totals)s; you and %(others)s win"), N_("totals %(totals)s; won by %(seats)s"),
        totals=names.signed(ev.get("totals")))


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
    marks = {"HK": names._("Barbu")} if view.get("contract") == "BARBU" and "HK" in hand else {}
    return {c: deck.rank(deck.parse(c)) for c in hand}, marks, view.get("trump")


#: the plain reasons (stich.engine.narration.plain_trick_reason), marked here for this game's catalogue
PLAIN_REASONS = (N_("trump"), N_("the highest trump"), N_("the highest of the suit led"))


def trick_reason(view: dict, cards: list[dict], winner: int, names) -> str | None:
    """Why the trick went to ``winner``: trump, the highest trump or the highest of the suit led, in the
    reader's language (None where neither explains it)."""
    reason = plain_trick_reason(cards, winner, names, view.get("trump"))
    return None if reason is None else names._(reason)
