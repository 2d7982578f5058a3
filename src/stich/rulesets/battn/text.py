"""Battn at the terminal: its events told as sentences and its view as table rows.

Battn (the game of Sappada) speaks a lot before and between the cards: the cut with its Critici,
the Orbi window, the Scheanara, the Schlòk and the Trumpf, the raises ("Tre?", "Quattro?" ...) and
their answers. The engine logs every spoken decision as a public ``call`` event and keeps the turn's
state in ``view["info"]`` (``status``); here they read in the players' own terms, teams are named by
their seats (team A = Seats 1+3, team B = Seats 2+4) and seats are 1-based as everywhere on screen.
"""

from __future__ import annotations

from rich.markup import escape

from stich.engine.narration import plain_trick_reason
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
    say something now (``view_table`` leaves the fields in ``KEYS`` to these rows)."""
    info = view.get("info") or {}
    out = []
    if view.get("first_dealer_draw") and view.get("hand_number") == 1:
        out.append(("First-dealer draw", _draws(view["first_dealer_draw"], names)))
    if info.get("roles"):
        out.append(("Roles", roles_text(info["roles"], names)))
    x_team = view.get("x_team", info.get("x_team"))
    if x_team is not None:
        out.append(("X", f"held by {team_text(x_team, names)}: every turn starts at 3; they may decline a turn"))
    if info.get("cuts"):
        out.append(("Cut", cuts_text(info["cuts"], names)))
    stock = stock_text(info, names) if not info.get("trick_no") else None
    if stock:
        out.append(("Stock", stock))
    if info.get("schlok"):
        out.append(("Schlòk · Trumpf", choice_text(info["schlok"], info.get("trumpf"), names)))
    if info.get("orbi") is not None:
        state = "accepted" if info.get("trick_no") else "to be accepted or refused before play (refused: 2 points)"
        out.append(("Orbi", f"called by {team_text(info['orbi'], names)}; base 3, {state}"))
    playing = not (view.get("terminal") or "result" in info)   # the last status of a finished match is stale
    if "stake" in info and playing:
        out.append(("Stake", stake_text(info, names)))
    if info.get("trick_no") and info.get("proposed") is None and playing:
        right = info.get("raise_right")
        out.append(("Next raise by", "either team" if right == "both" else team_text(right, names)))
    if info.get("trick_no") and playing:
        a, b = info.get("tricks") or (0, 0)
        out.append(("Tricks (by team)", f"{team_text(0, names)}: {a} · {team_text(1, names)}: {b} "
                                        f"(trick {info['trick_no']}; 3 tricks win the turn)"))
    if view.get("last_result"):
        out.append(("Last turn", result_text(view["last_result"], names)))
    if view.get("winner") is not None:
        out.append(("Match", f"won by {team_text(view['winner'], names)}"))
    return out


# --- the pieces ------------------------------------------------------------------------------------
def team_text(t, names) -> str:
    """``Seats 1+3`` (team A) or ``Seats 2+4``; ``(your team)`` added for the human's."""
    if not isinstance(t, int) or isinstance(t, bool) or t not in (0, 1):
        return escape(str(t))
    seats = f"Seats {t + 1}+{t + 3}"
    return f"{seats} (your team)" if _mine(t, names) else seats


def _mine(t: int, names) -> bool:
    return names.human is not None and names.human % 2 == t


def _team_does(t: int, names, plural: str, singular: str) -> str:
    """``Seats 2+4 score`` / ``Your team (Seats 1+3) scores``: a team as the subject of a sentence."""
    if _mine(t, names):
        return f"Your team (Seats {t + 1}+{t + 3}) {singular}"
    return f"{team_text(t, names)} {plural}"


def card_text(code: str, names) -> str:
    """``PoK (Rollate di Porcini) Barba``: a card, with its Critico name if it is one."""
    name = CRITICI.get(code)
    return names.card_label(code) + (f" [bold]{name}[/bold]" if name else "")


def rank_text(rank: str, names) -> str:
    """``K (Rollate)``, ``5``: a Schlòk rank."""
    text = names.value(rank, "rank")
    return escape(rank) if text == f"{rank} ({rank})" else text


def proposal(stake: int) -> str:
    """``“Tre?”``: a raise to ``stake`` as it is spoken."""
    word = NUMBERS[stake - 3] if 3 <= stake < 3 + len(NUMBERS) else str(stake)
    return f"“{word.capitalize()}?”"


def roles_text(roles: dict, names) -> str:
    """``D you (Seat 1) · R Seat 2 · P Seat 3 · L Seat 4``: this turn's dealer, his right, partner, left."""
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
            marks[c] = "Il Buono" if c.startswith(str(trumpf)) else "Uno Buono"
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
        return f"the {CRITICI[won]}"
    if not (schlok and trumpf) or won is None:
        return None
    deck = names.deck

    def rank(code):
        return deck.rank_codes[deck.rank(deck.parse(code))]

    if rank(won) == schlok:
        if won.startswith(trumpf):
            return "Il Buono"
        several = sum(rank(p["card"]) == schlok and p["card"] not in CRITICI for p in cards) > 1
        return "the first Uno Buono" if several else "Uno Buono"
    return plain_trick_reason(cards, winner, names, trumpf)


def choice_text(schlok: str, trumpf: str | None, names) -> str:
    """``Schlòk 5 · Trumpf Po (Porcini); Il Buono Po5 (5 di Porcini)``: the turn's choice, its Il Buono."""
    text = f"Schlòk {rank_text(schlok, names)}"
    if not trumpf:
        return text + "; the Trumpf is still to be named"
    text += f" · Trumpf {names.value(trumpf, 'trump')}"
    buono = f"{trumpf}{schlok}"
    if buono in CRITICI:
        return text + f"; no Il Buono ({buono} is {CRITICI[buono]})"
    return text + f"; Il Buono {names.card_label(buono)}"


def stake_text(info: dict, names) -> str:
    """``2``, ``3 (base 3)``, ``2; “Tre?” proposed by Seats 2+4, ...``: what the turn is worth now."""
    stake, base = info["stake"], info.get("base")
    text = str(stake)
    if base is not None and base != stake:
        text += f" (base {base})"
    proposed, raiser = info.get("proposed"), info.get("raise_pending")
    if proposed is not None and raiser in (0, 1):
        text += (f"; {proposal(proposed)} {proposed} proposed by {team_text(raiser, names)}, "
                 f"{team_text(1 - raiser, names)} to accept, fold or raise")
    return text


def cuts_text(cuts: list, names) -> str:
    """``Seat 4 lifted 15: PoK Barba → Seat 4, St4 Belli → Seat 1, ScA; then lifted 9: Ra2``."""
    parts = []
    for c in cuts:
        shown = [f"{card} {CRITICI[card]} → {names.seat(to)}" if to is not None and card in CRITICI else card
                 for card, to in zip(c.get("revealed") or [], c.get("to") or [], strict=False)]
        parts.append(f"lifted {c.get('at')}: {', '.join(shown)}")
    return f"{names.seat(cuts[0].get('seat'))} " + "; then ".join(parts)


def stock_text(info: dict, names) -> str | None:
    """The stock beside the dealer: cards left, its face-up bottom card, the exchanges made."""
    left, done, bottom = info.get("stock") or 0, info.get("scheanara") or 0, info.get("stock_bottom")
    face = f"; face up at the bottom: {names.card_label(bottom)}" if bottom else ""
    made = f" ({done} Scheanara so far)" if done else ""
    if left:
        return f"{left} cards{made}{face}"
    if done:
        went = f"; its face-up card {names.card_label(bottom)} went to the dealer" if bottom else ""
        return f"empty after {done} Scheanara{went}"
    return None


_REASONS = {
    "tricks": lambda t, st, names: f"3 tricks won at stake {st}",
    "fold": lambda t, st, names: f"{team_text(1 - t, names)} folded at stake {st}",
    "x_declined": lambda t, st, names: f"{team_text(1 - t, names)} declined the turn (X team)",
    "orbi_refused": lambda t, st, names: f"{team_text(1 - t, names)} refused the Orbi",
    "svista": lambda t, st, names: f"Svista: {team_text(1 - t, names)} had collected a trick not theirs "
                                   f"(stake {st})",
}


def reason_text(r: dict, names) -> str:
    """Why a team scored (``r``: a ``turn_result``): ``Seats 2+4 folded at stake 2``, and why it is less."""
    t, stake, points = r.get("team"), r.get("stake"), r.get("points")
    base, _, extra = str(r.get("reason")).partition("+")
    tell = _REASONS.get(base)
    text = tell(t, stake, names) if tell else escape(base)
    if base == "fold" and isinstance(stake, int) and isinstance(points, int) and points < stake:
        text += f", which costs the X team only {points} (BT-15.5)"
    if extra == "misraise":
        text += "; only 2, for their misraise in this Orbi turn"
    return text


def result_text(r: dict, names) -> str:
    """``Seats 1+3 scored 2: Seats 2+4 folded at stake 2``."""
    return f"{team_text(r.get('team'), names)} scored {r.get('points')}: {reason_text(r, names)}"


def _draws(ev: dict, names) -> str:
    """The draw for the first deal: ``Seat 1 Po3 (...), Seat 2 St3 (...) — equal, drawn again: ...``."""
    seats = ev.get("seats") or [0, 1]
    rounds = [", ".join(f"{names.seat(s)} {card_text(c, names)}" for s, c in zip(seats, pair, strict=False))
              for pair in ev.get("draws") or []]
    return " — equal, drawn again: ".join(rounds) + f" → first dealer: {names.seat(ev.get('dealer'))}"


# --- the events ------------------------------------------------------------------------------------
def _first_dealer(ev, names):
    return f"Draw for the first deal: {_draws(ev, names)}"


def _cut(ev, names):
    shown = []
    for card, to in zip(ev.get("revealed") or [], ev.get("to") or [], strict=False):
        text = card_text(card, names)
        if to is not None:
            text += f", a Critico for {names.seat(to)}"
        shown.append(text)
    again = " again" if ev.get("cut", 1) > 1 else ""
    at = ev.get("at")
    return (f"{names.subject(ev.get('seat'), 'cut', 'cuts')}{again} (lifting {at} card{'' if at == 1 else 's'}) and "
            f"show{'' if ev.get('seat') == names.human else 's'} {'; then '.join(shown)}")


def _stock_bottom(ev, names):
    return f"Face up at the bottom of the stock: {card_text(ev.get('card'), names)}"


def _exchange(ev, names):
    who = " and ".join(names.seat(s) for s in ev.get("seats") or [])
    return (f"[bold]Scheanara {ev.get('count')}[/bold]: the hands of {who} are set aside unseen; "
            f"each gets 5 new cards from the stock")


def _partner_hand(ev, names):
    seat = ev.get("seat")
    cards = ", ".join(card_text(c, names) for c in ev.get("cards") or [])
    if names.human is not None and seat == (names.human + 2) % 4:
        return f"Your partner ({names.seat(seat)}) holds: {cards}"
    return f"{names.seat(seat)} shows their hand to their partner: {cards}"


def _turn_result(ev, names):
    t, points = ev.get("team"), ev.get("points")
    won = _team_does(t, names, "score", "scores") if t in (0, 1) else f"Team {escape(str(t))} scores"
    return f"[bold]{won} {points}[/bold] — {reason_text(ev, names)}"


def _x_mark(ev, names):
    t = ev.get("team")
    threshold = names.game.options.get("x_threshold", 19)
    return (f"[bold]{_team_does(t, names, 'reach', 'reaches')} {threshold} and get"
            f"{'s' if _mine(t, names) else ''} the X[/bold]: from now on every turn starts at 3")


def _match_end(ev, names):
    t, scores = ev.get("winner"), ev.get("scores") or [0, 0]
    return (f"[bold]Match over: {_team_does(t, names, 'win', 'wins')}, "
            f"{scores[t]} to {scores[1 - t]}[/bold]")


def _status(ev, names):
    """A status snapshot is quiet, except the one a raise makes: it tells the proposal."""
    proposed, raiser = ev.get("proposed"), ev.get("raise_pending")
    if proposed is None or raiser not in (0, 1):
        return None
    return (f"[bold]{_team_does(raiser, names, 'raise', 'raises')}: {proposal(proposed)}[/bold] "
            f"(stake {ev.get('stake')}, {proposed} if accepted); {team_text(1 - raiser, names)} to answer")


def _call(ev, names):
    verb, _, arg = str(ev.get("call")).partition(" ")
    teller = _CALLS.get(verb)
    if teller is None:
        return f"{names.seat(ev.get('seat'))}: {escape(str(ev.get('call')))}"
    return teller(ev.get("seat"), arg, names)


# --- the calls: one spoken decision each -------------------------------------------------------------
def _svista(seat, arg, names):
    whose = {"DP": "the dealer's team (D+P)", "RL": "the team of R and L"}.get(arg, escape(arg))
    return f"{names.subject(seat, 'note', 'notes')} a Svista by {whose}: they collected a trick not theirs"


_CALLS = {
    "orbi": lambda s, a, n: f"[bold]{n.subject(s, 'call', 'calls')} Orbi![/bold] The turn's base is 3; "
                            f"the other team accepts or refuses it before play",
    "orbi_pass": lambda s, a, n: f"{n.subject(s, 'do', 'does')} not call Orbi",
    "pass": lambda s, a, n: f"{n.subject(s, 'do', 'does')} not raise",
    "cut_done": lambda s, a, n: f"{n.subject(s, 'do', 'does')} not cut again",
    "scheanara": lambda s, a, n: f"{n.subject(s, 'ask', 'asks')} “Scheanara?” "
                                 f"(both would take new hands from the stock)",
    "scheanara_pass": lambda s, a, n: f"{n.subject(s, 'do', 'does')} not ask for a Scheanara",
    "scheanara_yes": lambda s, a, n: f"{n.subject(s, 'agree', 'agrees')} to the Scheanara",
    "scheanara_no": lambda s, a, n: f"{n.subject(s, 'refuse', 'refuses')} the Scheanara (“Scordatelo!”)",
    "schlok": lambda s, a, n: f"[bold]{n.subject(s, 'name', 'names')} the Schlòk: {rank_text(a, n)}[/bold]",
    "trumpf": lambda s, a, n: f"[bold]{n.subject(s, 'name', 'names')} the Trumpf: {n.value(a, 'trump')}[/bold]",
    "orbi_accept": lambda s, a, n: f"{n.subject(s, 'accept', 'accepts')} the Orbi: the stake is 3",
    "orbi_refuse": lambda s, a, n: f"{n.subject(s, 'refuse', 'refuses')} the Orbi",
    "x_play": lambda s, a, n: f"{n.subject(s, 'play', 'plays')} the turn (for the X team)",
    "x_decline": lambda s, a, n: f"{n.subject(s, 'decline', 'declines')} the turn (for the X team)",
    "raise": lambda s, a, n: None,   # the status event that follows tells the proposal ("Tre?")
    "accept": lambda s, a, n: f"{n.subject(s, 'accept', 'accepts')}: “Non vado!”",
    "fold": lambda s, a, n: f"{n.subject(s, 'fold', 'folds')}",
    "misraise": lambda s, a, n: f"{n.subject(s, 'note', 'notes')} a misraise: {'your' if s == n.human else 'their'} "
                                f"team called “Tre?” by mistake in this Orbi turn",
    "svista": _svista,
}

#: a sentence per event type of the game's own (a teller may return NotImplemented: generic text)
TELLERS = {
    "first_dealer": _first_dealer, "cut": _cut, "stock_bottom": _stock_bottom, "exchange": _exchange,
    "partner_hand": _partner_hand, "turn_result": _turn_result, "x_mark": _x_mark, "match_end": _match_end,
    "status": _status, "call": _call,
}
