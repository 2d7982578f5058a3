"""Folding Barbu's own events into informative views (a view is a function of visible events).

Fields added to ``state.view(seat)`` (all JSON-ready):

* ``caller``, ``block_position`` (1..7), ``available_contracts`` (the caller's unused ones),
  ``caller_doubles`` (per seat: deals in which it doubled this caller so far, §3.3);
* ``contract``, ``trump``, ``domino_rank`` once declared;
* ``doubling``: the turns so far ``{seat, doubles, redoubles}``; ``businesses``: ``[a, b, m]``;
* DOMINO: ``layout`` (per suit ``[lo, hi]`` card codes or None), ``domino_log`` (``[seat, card]`` or
  ``[seat, "PASS"]``, the rules' notation), ``domino_out`` (going-out order);
* trick contracts: ``taken`` per seat ``{tricks, cards}`` (cards that score in this contract) and
  ``deal_points`` (raw points so far, R-17: every played card is public);
* ``deal_result`` of the current deal once scored, ``previous_result`` of the deal before,
  ``match_result`` at the end.
"""

from __future__ import annotations

from stich.rulesets.barbu import rules as R

_RESET = {
    "contract": None, "trump": None, "domino_rank": None, "doubling": [], "businesses": [],
    "layout": None, "domino_log": [], "domino_out": [], "deal_result": None,
}


def fold_event(view: dict, ev: dict, seat) -> bool:
    t = ev["type"]
    if t == "caller":
        view["previous_result"] = view.get("deal_result") or view.get("previous_result")
        for k, v in _RESET.items():
            view[k] = list(v) if isinstance(v, list) else v
        view.update(caller=ev["seat"], block_position=ev["block_position"],
                    available_contracts=list(ev["available"]), caller_doubles=list(ev["caller_doubles"]))
    elif t == "contract":
        view.update(contract=ev["contract"], trump=ev.get("trump"), domino_rank=ev.get("domino_rank"))
        if ev["contract"] == "DOMINO":
            view["layout"] = {s: None for s in R.SUITS}
    elif t == "double":
        view["doubling"].append({"seat": ev["seat"], "doubles": list(ev["doubles"]),
                                 "redoubles": list(ev["redoubles"])})
        p = ev["seat"]
        pairs = {(a, b): m for a, b, m in view["businesses"]}
        for q in ev["doubles"]:
            pairs[min(p, q), max(p, q)] = 1
        for q in ev["redoubles"]:
            pairs[min(p, q), max(p, q)] = 2
        view["businesses"] = [[a, b, m] for (a, b), m in sorted(pairs.items())]
        if ev["seat"] != view.get("caller") and view.get("caller") in ev["doubles"]:
            view["caller_doubles"][ev["seat"]] += 1
    elif t == "domino_play":
        s, code = ev["seat"], ev["card"]
        known = view["known_hands"][s]
        if known is not None and code in known:
            known.remove(code)
        c = R.DECK.parse(code)
        suit = R.SUITS[R.SUIT_OF[c]]
        row = view["layout"][suit]
        if row is None:
            view["layout"][suit] = [code, code]
        elif R.RANK_OF[c] < R.RANK_OF[R.DECK.parse(row[0])]:
            row[0] = code
        else:
            row[1] = code
        view["domino_log"].append([s, code])
    elif t == "domino_pass":
        view["domino_log"].append([ev["seat"], "PASS"])
    elif t == "domino_out":
        view["domino_out"].append(ev["seat"])
    elif t == "deal_result":
        view["deal_result"] = {k: ([list(x) for x in v] if k == "businesses" else v)
                               for k, v in ev.items() if k != "type"}
    elif t == "match_end":
        view["match_result"] = {"totals": list(ev["totals"]), "winners": list(ev["winners"])}
    else:
        return False
    return True


_SCORING = {
    R.NO_HEARTS: R.HEART_MASK, R.NO_QUEENS: R.QUEEN_MASK, R.BARBU: R.BIT[R.KH],
}


def finish_view(view: dict) -> dict:
    """Add what each seat has taken in a trick contract (derived from the public tricks)."""
    contract = R.CONTRACT_ID.get(view.get("contract") or "")
    if contract is None or contract == R.DOMINO or view.get("deal_result") and not view["deal_result"]["played"]:
        return view
    taken = [0, 0, 0, 0]
    won = [0, 0, 0, 0]
    winners = []
    for trick in view["tricks"]:
        w = trick["winner"]
        won[w] += 1
        winners.append(w)
        taken[w] |= R.DECK.mask(c["card"] for c in trick["cards"])
    scoring = _SCORING.get(contract, 0)
    view["taken"] = [{"tricks": won[p], "cards": R.DECK.codes_of(taken[p] & scoring)} for p in range(4)]
    view["deal_points"] = R.raw_scores(contract, taken, won, winners)
    return view
