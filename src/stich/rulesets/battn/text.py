"""Battn at the terminal: its events told as sentences and its view as table rows.

Battn (the game of Sappada) speaks a lot before and between the cards: the cut with its Critici,
the Orbi window, the Scheanara, the Schlòk and the Trumpf, the raises ("Tre?", "Quattro?" ...) and
their answers. The engine logs every spoken decision as a public ``call`` event and keeps the turn's
state in ``view["info"]`` (``status``); here they read in the players' own terms, teams are named by
their seats (team A = Seats 1+3, team B = Seats 2+4) and seats are 1-based as everywhere on screen.
"""

from __future__ import annotations

from rich.markup import escape

from stich.engine.narration import N_, plain_trick_reason, tell, tell_seats
from stich.rulesets.battn.cards import CRITICO_NAMES, DECK, plain_rank_value

#: verbs whose action line is left out: the ``call`` or ``cut`` event that follows tells it in full
#: (``play`` and the raise poll's ``pass`` keep theirs: ``pass`` has no event at all)
NARRATED_VERBS = frozenset({
    "cut", "cut_done", "orbi", "orbi_pass", "scheanara", "scheanara_pass", "scheanara_yes", "scheanara_no",
    "schlok", "trumpf", "orbi_accept", "orbi_refuse", "x_play", "x_decline", "raise", "accept", "fold",
    "misraise", "svista", "pass",
})

#: the ``view["info"]`` fields (the turn's ``status``, the calls, the cuts, the stock card) told by rows()
INFO_KEYS = frozenset({
    "base", "stake", "proposed", "raise_pending", "raise_right", "schlok", "trumpf", "orbi", "x_team", "tricks",
    "trick_no", "scheanara", "stock", "roles", "calls", "cuts", "stock_bottom", "result",
})

#: view fields shown by rows() (the rest, if any, by the generic table)
KEYS = frozenset({"first_dealer_draw", "last_result", "x_team", "winner"}) | INFO_KEYS

CRITICI = {DECK.code(c): name for c, name in CRITICO_NAMES.items()}
#: the raise proposals as spoken at the table ("Tre?" proposes a stake of 3)
NUMBERS = ("tre", "quattro", "cinque", "sei", "sette", "otto", "nove", "dieci", "undici", "dodici", "tredici",
           "quattordici", "quindici", "sedici", "diciassette", "diciotto", "diciannove", "venti", "ventuno")


def echoes(ev: dict, actor: int, action: str) -> bool:
    """No Battn event merely repeats a ``play`` or ``pass`` line (the other verbs are narrated)."""
    return False


def rows(view: dict, names) -> list[tuple[str, str]]:
    """The table rows of Battn's own view fields and turn status (``view["info"]``), those that
    say something now (``view_table`` leaves the fields in ``KEYS`` to these rows), in the reader's language."""
    _ = names._
    info = view.get("info") or {}
    out = []
    if view.get("first_dealer_draw") and view.get("hand_number") == 1:
        out.append((_("First-dealer draw"), _draws(view["first_dealer_draw"], names)))
    if info.get("roles"):
        out.append((_("Roles"), roles_text(info["roles"], names)))
    x_team = view.get("x_team", info.get("x_team"))
    if x_team is not None:
        out.append((_("X"), _("held by %(team)s: every turn starts at 3; they may decline a turn") % {
            "team": team_text(x_team, names)}))
    if info.get("cuts"):
        out.append((_("Cut"), cuts_text(info["cuts"], names)))
    stock = stock_text(info, names) if not info.get("trick_no") else None
    if stock:
        out.append((_("Stock"), stock))
    if info.get("schlok"):
        out.append((_("Schlòk · Trumpf"), choice_text(info["schlok"], info.get("trumpf"), names)))
    if info.get("orbi") is not None:
        state = (_("accepted") if info.get("trick_no")
                 else _("to be accepted or refused before play (refused: 2 points)"))
        out.append((_("Orbi"), _("called by %(team)s; base 3, %(state)s") % {
            "team": team_text(info["orbi"], names), "state": state}))
    playing = not (view.get("terminal") or "result" in info)   # the last status of a finished match is stale
    if "stake" in info and playing:
        out.append((_("Stake"), stake_text(info, names)))
    if info.get("trick_no") and info.get("proposed") is None and playing:
        right = info.get("raise_right")
        out.append((_("Next raise by"), _("either team") if right == "both" else team_text(right, names)))
    if info.get("trick_no") and playing:
        a, b = info.get("tricks") or (0, 0)
        out.append((_("Tricks (by team)"),
                    _("%(team_a)s: %(a)s · %(team_b)s: %(b)s (trick %(n)s; 3 tricks win the turn)")
                    % {"team_a": team_text(0, names), "a": a, "team_b": team_text(1, names), "b": b,
                       "n": info["trick_no"]}))
    if view.get("last_result"):
        out.append((_("Last turn"), result_text(view["last_result"], names)))
    if view.get("winner") is not None:
        out.append((_("Match"), _("won by %(team)s") % {"team": team_text(view["winner"], names)}))
    return out


# --- the pieces ------------------------------------------------------------------------------------
def team_text(t, names) -> str:
    """``Seats 1+3`` (team A) or ``Seats 2+4``; ``(your team)`` added for the human's."""
    if not isinstance(t, int) or isinstance(t, bool) or t not in (0, 1):
        return escape(str(t))
    values = {"a": t + 1, "b": t + 3}
    if _mine(t, names):
        return names._("Seats %(a)s+%(b)s (your team)") % values
    return names._("Seats %(a)s+%(b)s") % values


def _mine(t: int, names) -> bool:
    return names.human is not None and names.human % 2 == t


def _team_does(t: int, names, yours: str, theirs: str, **values) -> str:
    """``Seats 2+4 score 2`` / ``Your team (Seats 1+3) scores 2``: a sentence whose subject is a team; ``yours``
    and ``theirs`` are msgids with ``%(team)s``."""
    if _mine(t, names):
        return names._(yours) % {"team": f"{t + 1}+{t + 3}", **values}
    return names._(theirs) % {"team": team_text(t, names), **values}


def card_text(code: str, names) -> str:
    """``PoK (Rollate di Porcini) Barba``: a card, with its Critico name if it is one."""
    name = CRITICI.get(code)
    return names.card_label(code) + (f" [bold]{name}[/bold]" if name else "")


def rank_text(rank: str, names) -> str:
    """``K (Rollate)``, ``5``: a Schlòk rank."""
    text = names.value(rank, "rank")
    return escape(rank) if text == f"{rank} ({rank})" else text


def proposal(stake: int) -> str:
    """``“Tre?”``: a raise to ``stake`` as it is spoken (in Italian in every language: the table's word)."""
    word = NUMBERS[stake - 3] if 3 <= stake < 3 + len(NUMBERS) else str(stake)
    return f"“{word.capitalize()}?”"


#: the roles by their words, as a page says them (the terminal keeps the rules' letters, BT-2)
ROLE_WORDS = {"D": N_("the dealer"), "R": N_("the dealer's right"), "P": N_("the dealer's partner"),
              "L": N_("the dealer's left")}


def roles_text(roles: dict, names) -> str:
    """``D you (Seat 1) · R Seat 2 · P Seat 3 · L Seat 4``: this turn's dealer, his right, partner, left (on a
    page: ``the dealer: Seat 1 · the dealer's right: Seat 2 ...``)."""
    if not names.types_codes:
        return " · ".join(f"{names._(ROLE_WORDS[r])}: {names.seat(roles[r])}" for r in "DRPL" if r in roles)
    return " · ".join(f"{r} {names.seat(roles[r])}" for r in "DRPL" if r in roles)


def hand_order(view: dict, names) -> tuple[dict, dict, str | None]:
    """The hand's strength per card, its special cards' names and the Trumpf, for the compact hand: the
    Critici always (Barba, Belli, Spitz), Il Buono and Uno Buono once the Schlòk is named (BT-10.1)."""
    g, deck = names.game, names.deck
    info = view.get("info") or {}
    schlok, trumpf = info.get("schlok"), info.get("trumpf")
    hand = view.get("hand") or []
    marks = dict(CRITICI)
    for c in hand:
        if schlok and deck.rank_codes[deck.rank(deck.parse(c))] == schlok and c not in marks:
            marks[c] = "Il Buono" if c.startswith(str(trumpf)) else "Uno Buono"   # the table's words, untranslated
    table = g.tables[(deck.rank_codes.index(schlok), deck.suit_codes.index(trumpf))] if schlok and trumpf else None
    strength = {}
    for c in hand:
        i = deck.parse(c)
        if table is not None:
            strength[c] = table.kind[i] * 100 + table.value[i]
        else:   # before the Trumpf: the Critici on top, then the plain order (A K N J 7 ... 2)
            order = list(CRITICO_NAMES)   # Barba, Belli, Spitz
            strength[c] = 900 - order.index(i) if i in order else plain_rank_value(deck.rank(i), g.options["ace_rank"])
    return strength, {c: m for c, m in marks.items() if c in hand}, trumpf


def trick_reason(view: dict, cards: list[dict], winner: int, names) -> str | None:
    """Why the trick went to ``winner``: a critico, Il Buono, the (first) Uno Buono, trump or the highest
    of the suit led (BT-10.1); None while the Schlòk and Trumpf are not both named."""
    info = view.get("info") or {}
    schlok, trumpf = info.get("schlok"), info.get("trumpf")
    won = next((p["card"] for p in cards if p["seat"] == winner), None)
    if won in CRITICI:
        return names._("the %(name)s") % {"name": CRITICI[won]}
    if not (schlok and trumpf) or won is None:
        return None
    deck = names.deck

    def rank(code):
        return deck.rank_codes[deck.rank(deck.parse(code))]

    if rank(won) == schlok:
        if won.startswith(trumpf):
            return "Il Buono"
        several = sum(rank(p["card"]) == schlok and p["card"] not in CRITICI for p in cards) > 1
        return names._("the first Uno Buono") if several else "Uno Buono"
    reason = plain_trick_reason(cards, winner, names, trumpf)
    return None if reason is None else names._(reason)


#: the plain reasons (stich.engine.narration.plain_trick_reason), marked here for this game's catalogue
PLAIN_REASONS = (N_("trump"), N_("the highest trump"), N_("the highest of the suit led"))


def choice_text(schlok: str, trumpf: str | None, names) -> str:
    """``Schlòk 5 · Trumpf Po (Porcini); Il Buono Po5 (5 di Porcini)``: the turn's choice, its Il Buono."""
    _ = names._
    text = f"Schlòk {rank_text(schlok, names)}"
    if not trumpf:
        return text + _("; the Trumpf is still to be named")
    text += f" · Trumpf {names.value(trumpf, 'trump')}"
    buono = f"{trumpf}{schlok}"
    if buono in CRITICI:
        return text + _("; no Il Buono (%(card)s is %(name)s)") % {"card": names.short_cards([buono]),
                                                                     "name": CRITICI[buono]}
    return text + f"; Il Buono {names.card_label(buono)}"


def stake_text(info: dict, names) -> str:
    """``2``, ``3 (base 3)``, ``2; “Tre?” proposed by Seats 2+4, ...``: what the turn is worth now."""
    _ = names._
    stake, base = info["stake"], info.get("base")
    text = str(stake)
    if base is not None and base != stake:
        text += " " + _("(base %(n)s)") % {"n": base}
    proposed, raiser = info.get("proposed"), info.get("raise_pending")
    if proposed is not None and raiser in (0, 1):
        text += _("; %(call)s %(n)s proposed by %(team)s, %(other)s to accept, fold or raise") % {
            "call": proposal(proposed), "n": proposed, "team": team_text(raiser, names),
            "other": team_text(1 - raiser, names)}
    return text


def _critico(card: str, names) -> str:
    """``PoK Barba`` (the terminal's code and name); on a page the name alone."""
    return f"{card} {CRITICI[card]}" if names.types_codes else names.named(card, CRITICI[card])


def cuts_text(cuts: list, names) -> str:
    """``Seat 4 lifted 15: PoK Barba → Seat 4, St4 Belli → Seat 1, ScA; then lifted 9: Ra2``."""
    parts = []
    for i, c in enumerate(cuts):
        shown = [f"{_critico(card, names)} → {names.seat(to)}" if to is not None and card in CRITICI
                 else names.short_cards([card]) for card, to in zip(c.get("revealed") or [], c.get("to") or [],
                                                                    strict=False)]
        values = {"n": c.get("at"), "cards": ", ".join(shown)}
        if i == 0:   # who cut, as a sentence: the reader reads "You lifted 15", not "You (Seat 1) lifted 15"
            parts.append(tell(names, cuts[0].get("seat"), N_("You lifted %(n)s: %(cards)s"),
                              N_("%(seat)s lifted %(n)s: %(cards)s"), **values))
        else:
            parts.append(names._("lifted %(n)s: %(cards)s") % values)
    return names._("; then ").join(parts)


def stock_text(info: dict, names) -> str | None:
    """The stock beside the dealer: cards left, its face-up bottom card, the exchanges made."""
    _ = names._
    left, done, bottom = info.get("stock") or 0, info.get("scheanara") or 0, info.get("stock_bottom")
    face = _("; face up at the bottom: %(card)s") % {"card": names.card_label(bottom)} if bottom else ""
    made = " " + _("(%(n)s Scheanara so far)") % {"n": done} if done else ""
    if left:
        return _("%(n)s cards") % {"n": left} + made + face
    if done:
        went = (_("; its face-up card %(card)s went to the dealer") % {"card": names.card_label(bottom)}
                if bottom else "")
        return _("empty after %(n)s Scheanara") % {"n": done} + went
    return None


_REASONS = {
    "tricks": N_("3 tricks won at stake %(stake)s"),
    "fold": N_("%(other)s folded at stake %(stake)s"),
    "x_declined": N_("%(other)s declined the turn (X team)"),
    "orbi_refused": N_("%(other)s refused the Orbi"),
    "svista": N_("Svista: %(other)s had collected a trick not theirs (stake %(stake)s)"),
}


def reason_text(r: dict, names) -> str:
    """Why a team scored (``r``: a ``turn_result``): ``Seats 2+4 folded at stake 2``, and why it is less."""
    t, stake, points = r.get("team"), r.get("stake"), r.get("points")
    base, _sep, extra = str(r.get("reason")).partition("+")
    tell_ = _REASONS.get(base)
    other = team_text(1 - t, names) if isinstance(t, int) and not isinstance(t, bool) else escape(str(t))
    text = names._(tell_) % {"other": other, "stake": stake} if tell_ else escape(base)
    if base == "fold" and isinstance(stake, int) and isinstance(points, int) and points < stake:
        text += names._(", which costs the X team only %(n)s (BT-15.5)") % {"n": points}
    if extra == "misraise":
        text += names._("; only 2, for their misraise in this Orbi turn")
    return text


def result_text(r: dict, names) -> str:
    """``Seats 1+3 scored 2: Seats 2+4 folded at stake 2``."""
    return names._("%(team)s scored %(n)s: %(why)s") % {"team": team_text(r.get("team"), names), "n": r.get("points"),
                                                         "why": reason_text(r, names)}


def _draws(ev: dict, names) -> str:
    """The draw for the first deal: ``Seat 1 Po3 (...), Seat 2 St3 (...) — equal, drawn again: ...``."""
    seats = ev.get("seats") or [0, 1]
    rounds = [", ".join(f"{names.seat(s)} {card_text(c, names)}" for s, c in zip(seats, pair, strict=False))
              for pair in ev.get("draws") or []]
    return names._(" — equal, drawn again: ").join(rounds) + tell(
        names, ev.get("dealer"), N_(" → you deal first"), N_(" → first dealer: %(seat)s"))


# --- the events ------------------------------------------------------------------------------------
def _first_dealer(ev, names):
    return names._("Draw for the first deal: %(draws)s") % {"draws": _draws(ev, names)}


def _cut(ev, names):
    shown = []
    for card, to in zip(ev.get("revealed") or [], ev.get("to") or [], strict=False):
        text = card_text(card, names)
        if to is not None:
            text += tell(names, to, N_(", a Critico for you"), N_(", a Critico for %(seat)s"))
        shown.append(text)
    at, again = ev.get("at"), ev.get("cut", 1) > 1
    msgs = ((N_("You cut again (lifting %(n)s cards) and show %(cards)s"),
             N_("%(seat)s cuts again (lifting %(n)s cards) and shows %(cards)s")) if again else
            (N_("You cut (lifting %(n)s cards) and show %(cards)s"),
             N_("%(seat)s cuts (lifting %(n)s cards) and shows %(cards)s")))
    if at == 1:
        msgs = ((N_("You cut again (lifting 1 card) and show %(cards)s"),
                 N_("%(seat)s cuts again (lifting 1 card) and shows %(cards)s")) if again else
                (N_("You cut (lifting 1 card) and show %(cards)s"),
                 N_("%(seat)s cuts (lifting 1 card) and shows %(cards)s")))
    return tell(names, ev.get("seat"), *msgs, n=at, cards=names._("; then ").join(shown))


def _stock_bottom(ev, names):
    return names._("Face up at the bottom of the stock: %(card)s") % {"card": card_text(ev.get("card"), names)}


def _exchange(ev, names):
    return (f"[bold]Scheanara {ev.get('count')}[/bold]: "
            + tell_seats(names, ev.get("seats") or [], None,
                         N_("your hand and that of %(others)s are set aside unseen; each gets 5 new cards from the stock"),  # noqa: E501
                         N_("the hands of %(seats)s are set aside unseen; each gets 5 new cards from the stock"),
                         join=names._(" and ").join))


def _partner_hand(ev, names):
    seat = ev.get("seat")
    values = {"seat": names.seat(seat), "cards": ", ".join(card_text(c, names) for c in ev.get("cards") or [])}
    if names.human is not None and seat == (names.human + 2) % 4:
        return names._("Your partner (%(seat)s) holds: %(cards)s") % values
    return names._("%(seat)s shows their hand to their partner: %(cards)s") % values


def _turn_result(ev, names):
    t, points = ev.get("team"), ev.get("points")
    if t in (0, 1):
        won = _team_does(t, names, N_("Your team (Seats %(team)s) scores %(n)s"), N_("%(team)s score %(n)s"), n=points)
    else:
        won = names._("Team %(team)s scores %(n)s") % {"team": escape(str(t)), "n": points}
    return f"[bold]{won}[/bold] — {reason_text(ev, names)}"


def _x_mark(ev, names):
    t = ev.get("team")
    threshold = names.game.options.get("x_threshold", 19)
    head = _team_does(t, names, N_("Your team (Seats %(team)s) reaches %(n)s and gets the X"),
                      N_("%(team)s reach %(n)s and get the X"), n=threshold)
    return f"[bold]{head}[/bold]: " + names._("from now on every turn starts at 3")


def _match_end(ev, names):
    t, scores = ev.get("winner"), ev.get("scores") or [0, 0]
    return "[bold]" + _team_does(t, names, N_("Match over: your team (Seats %(team)s) wins, %(a)s to %(b)s"),
                                 N_("Match over: %(team)s win, %(a)s to %(b)s"),
                                 a=scores[t], b=scores[1 - t]) + "[/bold]"


def _status(ev, names):
    """A status snapshot is quiet, except the one a raise makes: it tells the proposal."""
    proposed, raiser = ev.get("proposed"), ev.get("raise_pending")
    if proposed is None or raiser not in (0, 1):
        return None
    head = _team_does(raiser, names, N_("Your team (Seats %(team)s) raises: %(call)s"), N_("%(team)s raise: %(call)s"),
                      call=proposal(proposed))
    return f"[bold]{head}[/bold] " + names._("(stake %(stake)s, %(n)s if accepted); %(other)s to answer") % {
        "stake": ev.get("stake"), "n": proposed, "other": team_text(1 - raiser, names)}


def _call(ev, names):
    verb, _sep, arg = str(ev.get("call")).partition(" ")
    teller = _CALLS.get(verb)
    if teller is None:
        return f"{names.seat(ev.get('seat'))}: {escape(str(ev.get('call')))}"
    return teller(ev.get("seat"), arg, names)


# --- the calls: one spoken decision each -------------------------------------------------------------
def _svista(seat, arg, names):
    if arg == "DP":
        return tell(names, seat, N_("You note a Svista by the dealer's team (D+P): they collected a trick not theirs"),
                    N_("%(seat)s notes a Svista by the dealer's team (D+P): they collected a trick not theirs"))
    if arg == "RL":
        return tell(names, seat, N_("You note a Svista by the team of R and L: they collected a trick not theirs"),
                    N_("%(seat)s notes a Svista by the team of R and L: they collected a trick not theirs"))
    return tell(names, seat, N_("You note a Svista by %(team)s: they collected a trick not theirs"),
                N_("%(seat)s notes a Svista by %(team)s: they collected a trick not theirs"), team=escape(arg))


def _schlok(s, a, n):
    return "[bold]" + tell(n, s, N_("You name the Schlòk: %(rank)s"), N_("%(seat)s names the Schlòk: %(rank)s"),
                           rank=rank_text(a, n)) + "[/bold]"


def _trumpf(s, a, n):
    return "[bold]" + tell(n, s, N_("You name the Trumpf: %(suit)s"), N_("%(seat)s names the Trumpf: %(suit)s"),
                           suit=n.value(a, "trump")) + "[/bold]"


def _orbi(s, a, n):
    head = tell(n, s, N_("You call Orbi!"), N_("%(seat)s calls Orbi!"))
    return f"[bold]{head}[/bold] " + n._("The turn's base is 3; the other team accepts or refuses it before play")


def _misraise(s, a, n):
    return tell(n, s, N_("You note a misraise: your team called “Tre?” by mistake in this Orbi turn"),
                N_("%(seat)s notes a misraise: their team called “Tre?” by mistake in this Orbi turn"))


def _said(you: str, other: str):
    """A call told by one sentence without an argument."""
    return lambda s, a, n: tell(n, s, you, other)


_CALLS = {
    "orbi": _orbi,
    "orbi_pass": _said(N_("You do not call Orbi"), N_("%(seat)s does not call Orbi")),
    "pass": _said(N_("You do not raise"), N_("%(seat)s does not raise")),
    "cut_done": _said(N_("You do not cut again"), N_("%(seat)s does not cut again")),
    "scheanara": _said(N_("You ask “Scheanara?” (both would take new hands from the stock)"),
                       N_("%(seat)s asks “Scheanara?” (both would take new hands from the stock)")),
    "scheanara_pass": _said(N_("You do not ask for a Scheanara"), N_("%(seat)s does not ask for a Scheanara")),
    "scheanara_yes": _said(N_("You agree to the Scheanara"), N_("%(seat)s agrees to the Scheanara")),
    "scheanara_no": _said(N_("You refuse the Scheanara (“Scordatelo!”)"),
                          N_("%(seat)s refuses the Scheanara (“Scordatelo!”)")),
    "schlok": _schlok,
    "trumpf": _trumpf,
    "orbi_accept": _said(N_("You accept the Orbi: the stake is 3"), N_("%(seat)s accepts the Orbi: the stake is 3")),
    "orbi_refuse": _said(N_("You refuse the Orbi"), N_("%(seat)s refuses the Orbi")),
    "x_play": _said(N_("You play the turn (for the X team)"), N_("%(seat)s plays the turn (for the X team)")),
    "x_decline": _said(N_("You decline the turn (for the X team)"), N_("%(seat)s declines the turn (for the X team)")),
    "raise": lambda s, a, n: None,   # the status event that follows tells the proposal ("Tre?")
    "accept": _said(N_("You accept: “Non vado!”"), N_("%(seat)s accepts: “Non vado!”")),
    "fold": _said(N_("You fold"), N_("%(seat)s folds")),
    "misraise": _misraise,
    "svista": _svista,
}


#: a sentence per event type of the game's own (a teller may return NotImplemented: generic text)
TELLERS = {
    "first_dealer": _first_dealer, "cut": _cut, "stock_bottom": _stock_bottom, "exchange": _exchange,
    "partner_hand": _partner_hand, "turn_result": _turn_result, "x_mark": _x_mark, "match_end": _match_end,
    "status": _status, "call": _call,
}
