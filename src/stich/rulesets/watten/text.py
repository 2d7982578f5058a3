"""Watten at the terminal: its events told as sentences and its view as table rows.

The generic rendering prints Watten's own events as ``type: key: value`` (``watten hand``,
``committed``, ``reveal``, ``request``, ``raise``, ``hand result`` ...) and its view fields raw
(``Schlag seat``, ``Tricks won: 0, 0``); here they read in the players' own terms (Schlag, trump,
Rechte, Guate, Schönere, Schlagtausch, gestrichen), seats 1-based as everywhere else on screen.

Only what an event or view holds is told: a blind Ansage card stays hidden from those who may not
see it (they read ``Seat 4: show …`` and "Seat 4 has chosen a card, face down").
"""

from __future__ import annotations

from rich.markup import escape

from stich.engine.narration import plain_trick_reason

#: verbs whose action line is left out: the public event that follows says the same in full
NARRATED_VERBS = frozenset({
    "cut", "schlag", "trump", "raise", "accept", "fold", "challenge", "hold", "concede",
    "ask_exchange", "agree_exchange", "refuse_exchange", "ask_swap", "agree_swap", "refuse_swap",
})

#: view fields shown by rows() (hidden there while they say nothing), and the entries of ``view["info"]``
#: (the last event of each type the view does not fold) that rows() or the narration already tell
KEYS = frozenset({
    "schlag", "trump", "stake", "fixed", "forehand", "cutter", "schlag_seat", "trump_seat", "shown",
    "face_up_trick", "tricks_won",
    "cut", "cut_card", "cut_peek", "stock_peek", "committed", "ansage_done", "request", "answer", "exchange",
    "redeal", "raise", "accept", "fold", "challenge", "hold", "concede", "maschine", "hand_result",
})

#: the Bavarian Kritische, highest first (B1.1)
KRITISCHE = {"HK": "Max", "S7": "Belli", "E7": "Spitz"}

WHY_WON = {"tricks": "three tricks", "fold": "the others folded", "concede": "the others conceded",
           "challenge": "the “Farbe!” challenge", "maschine": "Maschine"}


def echoes(ev: dict, actor: int, action: str) -> bool:
    """A blind-Ansage event that only repeats the action line just shown (``show LO``)."""
    if ev.get("seat") != actor:
        return False
    if ev.get("type") == "show":
        return action == f"show {ev.get('card')}"
    return ev.get("type") == "committed" and action.startswith("show ")


def rows(view: dict, names) -> list[tuple[str, str]]:
    """The table rows of Watten's own view fields, those that say something now."""
    out = _role_rows(view, names) + _ansage_rows(view, names) + _cut_rows(view, names)
    out.append(("Stake", stake_text(view, names)))
    decision = _pending_decision(view)
    if decision:
        out.append(("Decision", f"{names.seat(decision['decider'])}: hold (play for {decision['stake']}) or concede"))
    won, n = view.get("tricks_won") or [], names.game.num_players
    if any(won) and n == 3:
        out.append(("Tricks (by side)", f"{names.seat(view.get('forehand'))} alone: {won[0]} · the others: {won[1]}"))
    elif any(won) and n == 4:
        out.append(("Tricks (by side)", f"{side_text(0, names)}: {won[0]} · {side_text(1, names)}: {won[1]}"))
    face_up = view.get("face_up_trick")
    if face_up:
        out.append(("First trick (face up)", ", ".join(f"{names.seat(p['seat'])}: {p['card']}" for p in face_up)))
    g = names.game
    out.append(("Target", f"{g.target}; a score of {g.lock_at} or more is gestrichen (may not raise)"))
    return out


def hand_order(view: dict, names) -> tuple[dict, dict, str | None]:
    """The hand's strength per card, its special cards' names and the trump suit, for the compact hand:
    the Kritische always (Bavarian), the Weli, and once Schlag and trump are known to this seat the
    Guate, Rechte (Hauptschlag), Linke (Blinde), strongest first by the hand's ranking (§2.3)."""
    g, deck = names.game, names.deck
    hand = view.get("hand") or []
    schlag, trump = view.get("schlag"), view.get("trump")
    marks = dict(KRITISCHE) if g.bavarian else {"S6": "Weli"}
    strength = {c: deck.rank(deck.parse(c)) + (100 * (3 - list(KRITISCHE).index(c)) if c in marks and g.bavarian
                                               else 0) for c in hand}   # the Kritische beat everything (B1.1)
    if schlag and trump:
        for name, cards in special_cards(schlag, trump, names):
            marks.update({c: KRITISCHE[c] if name == "Kritische" else name for c in cards})
        rk = g.ranking(deck.rank_codes.index(schlag), deck.suit_codes.index(trump))
        strength = {c: rk.key[deck.parse(c)] * 16 + strength[c] for c in hand}
    elif schlag:
        marks.update({c: "Schlag" for c in hand if deck.rank_codes[deck.rank(deck.parse(c))] == schlag})
    return strength, {c: m for c, m in marks.items() if c in hand}, trump


#: the variants whose Ansage is hidden from the two other players, and the rule that says so
HIDDEN_ANSAGE = {"euregio": "E.4: “the other two players do not know it”",
                 "blind": "T3: “not told Schlag or trump for the whole hand”"}


def hand_end_note(view: dict, names) -> str | None:
    """For a player who did not learn the Ansage (his view, taken before the hand's last action, lacks
    Schlag or trump), the line that says it stays secret and why: no rule makes it public after the hand."""
    rule = HIDDEN_ANSAGE.get(names.game.variant)
    if rule is None or (view.get("schlag") and view.get("trump")):
        return None
    return (f"[dim]The Ansage stays secret: only the two Ansager know Schlag and trump, also after the hand "
            f"(rules {rule}; no rule makes it public).[/dim]")


def trick_reason(view: dict, cards: list[dict], winner: int, names) -> str | None:
    """Why the trick went to ``winner``: the Kritische, Guate, Rechte, (first) Linke, trump or the highest
    of the suit led (§2.3); None while this seat does not know both Schlag and trump."""
    schlag, trump = view.get("schlag"), view.get("trump")
    won = next((p["card"] for p in cards if p["seat"] == winner), None)
    if not (schlag and trump) or won is None:
        return None
    for name, special in special_cards(schlag, trump, names):
        if won in special:
            if name == "Kritische":
                return f"the {KRITISCHE[won]} (a Kritische)"
            if sum(p["card"] in special for p in cards) > 1:
                return f"the first {name}"   # equal cards: the first played wins (§2.3)
            return f"the {name}"
    if won == "S6" and names.game.family == "tyrolean" and trump != "S":
        return "trump (the Weli, the lowest trump)"   # T1.2: a trump of no suit
    return plain_trick_reason(cards, winner, names, trump)


# --- the pieces ------------------------------------------------------------------------------------

def _both(seats, names) -> str:
    """``You and Seat 3`` / ``Seat 2 and Seat 4``: a plural subject, the human first."""
    seats = sorted(seats, key=lambda s: (s != names.human, s))
    words = ["You" if s == names.human else names.seat(s) for s in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def rank_text(rank: str, names) -> str:
    """``O (Ober)``; the Schlag 6 is ``6 (Weli)``."""
    return "6 (Weli)" if rank == "6" else names.value(rank, "rank")


def suit_text(suit: str, names) -> str:
    return names.value(suit, "trump")


def side_text(side: int, names) -> str:
    """``Side 1 (seats 1+3, yours)``, as the Scores row (four players only)."""
    seats = (side, side + 2)
    mine = ", yours" if names.human in seats else ""
    return f"Side {side + 1} (seats {seats[0] + 1}+{seats[1] + 1}{mine})"


def special_cards(schlag: str, trump: str, names) -> list[tuple[str, list[str]]]:
    """The cards above the plain trumps for a Schlag and trump, highest first: Kritische, Guate,
    Rechte (Bavarian: Hauptschlag), Linke (Bavarian: Blinde); an empty list where there is none."""
    g, deck = names.game, names.deck
    rk = g.ranking(deck.rank_codes.index(schlag), deck.suit_codes.index(trump))
    rechte, linke = ("Hauptschlag", "Blinde") if g.bavarian else ("Rechte", "Linke")
    return [("Kritische", list(KRITISCHE) if rk.kritische_mask else []), ("Guate", deck.codes_of(rk.guate)),
            (rechte, deck.codes_of(rk.rechte)), (linke, deck.codes_of(rk.linke_mask))]


def top_cards(schlag: str, trump: str, names) -> str:
    """``Guate HK (Herz-König) · Rechte HO (Herz-Ober) · Linke SO, EO, LO``."""
    parts = []
    for name, cards in special_cards(schlag, trump, names):
        if name == "Kritische" and cards:
            parts.append("Kritische " + ", ".join(f"{c} ({KRITISCHE[c]})" for c in cards))
        elif len(cards) == 1:
            parts.append(f"{name} {names.card_label(cards[0])}")
        elif cards:
            parts.append(f"{name} {', '.join(cards)}")
        elif name in ("Rechte", "Hauptschlag"):
            parts.append(f"no {name}")
    return " · ".join(parts)


def stake_text(view: dict, names) -> str:
    """``3``, ``4 (fixed: no raising)``, ``2; Seat 2 raised to 3, Seat 3 to answer``."""
    stake, events = view.get("stake", 2), this_ansage(view)
    text = str(stake)
    if view.get("fixed"):   # E.11 option: after a hold the trailing side may raise a 4-point hand
        trailing = names.game.options.get("four_points_raising") == "trailing_may_raise" \
            and any(ev.get("type") == "hold" for ev in events)
        text += " (fixed; only the trailing side may raise)" if trailing else " (fixed: no raising)"
    bids = [ev for ev in events if ev.get("type") in ("raise", "accept", "fold", "challenge", "hand_result")]
    if bids and bids[-1]["type"] == "raise":
        text += f"; {names.seat(bids[-1]['seat'])} raised to {bids[-1]['stake']}"
        if view.get("current_player") is not None:
            text += f", {names.seat(view['current_player'])} to answer"
    return text


def this_ansage(view: dict) -> list[dict]:
    """The view's events of the hand since its last ``watten_hand`` (an Euregio Schönere starts the
    Ansage, the stake and the decision of a fixed hand anew)."""
    events = view.get("events") or []
    starts = [i for i, ev in enumerate(events) if ev.get("type") == "watten_hand"]
    return events[starts[-1]:] if starts else events


def shown_cards(view: dict) -> list[dict]:
    """The blind-Ansage cards the viewer saw shown that still count: an agreed Schlagtausch or
    Schönere voids them (the view's ``shown`` keeps them: read from the events instead)."""
    shown: list[dict] = []
    for ev in this_ansage(view):
        if ev.get("type") in ("watten_roles", "exchange"):
            shown = []
        elif ev.get("type") == "show":
            shown.append(ev)
        elif ev.get("type") == "reveal":   # both cards, also one committed out of the viewer's sight
            shown = [{"seat": view.get("schlag_seat"), "card": ev["schlag_card"], "role": "schlag"},
                     {"seat": view.get("trump_seat"), "card": ev["trump_card"], "role": "trump"}]
    return shown


def _role_rows(view: dict, names) -> list[tuple[str, str]]:
    fh, ss, ts = view.get("forehand"), view.get("schlag_seat"), view.get("trump_seat")
    if fh is None:
        return []
    out = [("Forehand", names.seat(fh))]
    if names.game.num_players == 3:
        others = " and ".join(names.seat(s) for s in range(3) if s != fh)
        out[0] = ("Forehand", f"{names.seat(fh)}, alone against {others}")
    if ss is not None and ss == ts:
        out.append(("Ansager", f"Schlag and trump: {names.seat(ss)}"))
    elif ss is not None:
        out.append(("Ansager", f"Schlag: {names.seat(ss)} · trump: {names.seat(ts)}"))
    if view.get("cutter") is not None and view.get("current_player") == view["cutter"] \
            and not any(ev.get("type") in ("cut", "deal") for ev in this_ansage(view)):
        out.append(("Cutter", names.seat(view["cutter"])))
    return out


def _ansage_rows(view: dict, names) -> list[tuple[str, str]]:
    schlag, trump = view.get("schlag"), view.get("trump")
    out = []
    if schlag is None and trump is None:
        blind = names.game.blind and view.get("seat") not in (view.get("schlag_seat"), view.get("trump_seat"))
        out.append(("Schlag, trump", "hidden: only the two Ansager know them" if blind else "not chosen yet"))
    else:   # the open Ansage names the Schlag first
        out.append(("Schlag", rank_text(schlag, names)))
        out.append(("Trump", suit_text(trump, names) if trump else "not named yet"))
        if schlag and trump:
            out.append(("Highest cards", top_cards(schlag, trump, names)))
    shown = shown_cards(view)
    if shown:
        out.append(("Shown", "; ".join(f"{names.seat(s['seat'])}: {names.card_label(s['card'])} for the "
                                       f"{'Schlag' if s['role'] == 'schlag' else 'trump'}" for s in shown)))
    return out


def _cut_rows(view: dict, names) -> list[tuple[str, str]]:
    """What the cut showed: the Bavarian bottom card (to all), the Euregio peeks (to one seat each)."""
    info, out = view.get("info") or {}, []
    if info.get("cut_card"):
        out.append(("Cut card", f"{names.card_label(info['cut_card']['card'])}: bottom of the pack, not dealt"))
    exchanged = any(ev.get("type") == "exchange" for ev in view.get("events") or [])
    if info.get("cut_peek") and not exchanged:   # a Schönere reshuffles it away (E.5)
        out.append(("Your peek", f"bottom of the pack: {names.card_label(info['cut_peek']['card'])}"))
    if info.get("stock_peek"):
        peek = info["stock_peek"]
        out.append(("Your peek", f"stock top {names.card_label(peek['top'])}, "
                                 f"bottom {names.card_label(peek['bottom'])}"))
    return out


def _pending_decision(view: dict) -> dict | None:
    """The hold/concede decision of a fixed-value hand (its ``stake`` event) while it is due."""
    due = None
    for ev in this_ansage(view):
        t = ev.get("type")
        if t == "stake" and "decider" in ev:
            due = ev
        elif t in ("hold", "concede", "hand_result"):
            due = None
    return due


# --- the events ------------------------------------------------------------------------------------
def _watten_hand(ev, names):
    fh, ss, ts = ev["forehand"], ev["schlag_seat"], ev["trump_seat"]
    alone = ""
    if names.game.num_players == 3:
        alone = ", alone against " + " and ".join(names.seat(s) for s in range(3) if s != fh) + ","
    if ss != fh:   # not so at the start of a hand; told in full all the same
        return f"{names.subject(fh, 'are', 'is')} forehand{alone.rstrip(',')}; {_roles(ss, ts, names, first=False)}"
    what = "Schlag and trump" if ts == fh else "the Schlag"
    text = names.subject(fh, f"are forehand{alone} and choose {what}", f"is forehand{alone} and chooses {what}")
    if ts != fh:
        text += f"; {names.subject(ts, 'choose the trump', 'chooses the trump', first=False)}"
    return text


def _roles(ss, ts, names, first: bool = True) -> str:
    if ss == ts:
        return names.subject(ss, "choose Schlag and trump", "chooses Schlag and trump", first)
    return f"{names.subject(ss, 'choose', 'chooses', first)} the Schlag, {names.seat(ts)} the trump"


def _watten_roles(ev, names):
    return f"[bold]Schlagtausch[/bold]: {_roles(ev['schlag_seat'], ev['trump_seat'], names)}"


def _cut(ev, names):
    return f"{names.subject(ev['seat'], 'cut', 'cuts')} the pack, lifting {ev['k']} cards"


def _cut_card(ev, names):
    card = ev["card"]
    if card in KRITISCHE and names.game.bavarian:
        return f"The cut shows {names.card_label(card)}: a Kritische ({KRITISCHE[card]}), dealt face up"
    return f"The cut shows {names.card_label(card)}; it stays at the bottom of the pack"


def _cut_peek(ev, names):
    return f"{names.subject(ev['seat'], 'see', 'sees')} the bottom card of the pack: {names.card_label(ev['card'])}"


def _stock_peek(ev, names):
    return (f"{names.subject(ev['seat'], 'look', 'looks')} at the stock: top card {names.card_label(ev['top'])}, "
            f"bottom card {names.card_label(ev['bottom'])}")


def _deal(ev, names):
    """Only the Tyrolean Schlag-6 hand showing (R24); every other deal is told generically."""
    if not ev.get("partner_view"):
        return NotImplemented
    p = ev["seat"]
    cards = ", ".join(names.card_label(c) for c in ev.get("cards") or [])
    if names.human is not None and (p + 2) % 4 == names.human:
        return f"Schlag 6: your partner {names.seat(p)} shows you their hand: {cards}"
    return f"Schlag 6: {names.seat(p)} shows their partner their hand: {cards}"


def _schlag(ev, names):
    return f"[bold]{names.subject(ev['seat'], 'name', 'names')} the Schlag: {rank_text(ev['rank'], names)}[/bold]"


def _trump(ev, names):
    return f"[bold]{names.subject(ev['seat'], 'name', 'names')} the trump: {suit_text(ev['suit'], names)}[/bold]"


def _show(ev, names):
    deck, card = names.deck, ev["card"]
    c = deck.parse(card)
    if ev.get("role") == "schlag":
        meaning = f"the Schlag is {rank_text(deck.rank_codes[deck.rank(c)], names)}"
    else:
        meaning = f"the trump is {suit_text(deck.suit_codes[deck.suit(c)], names)}"
    return f"{names.subject(ev['seat'], 'show', 'shows')} {names.card_label(card)}: {meaning}"


def _committed(ev, names):
    return names.subject(ev["seat"], "have chosen your card, face down", "has chosen a card, face down")


def _reveal(ev, names):
    schlag, trump = ev["schlag"], ev["trump"]
    rechte = dict(special_cards(schlag, trump, names)).get("Rechte")
    return (f"[bold]The Ansage is revealed: Schlag {rank_text(schlag, names)} "
            f"(shown with {names.card_label(ev['schlag_card'])}), trump {suit_text(trump, names)} "
            f"(shown with {names.card_label(ev['trump_card'])})"
            + (f"; the Rechte is {names.card_label(rechte[0])}" if rechte else "") + "[/bold]")


def _ansage_done(ev, names):
    return "The Ansage is complete."


REQUESTS = {"exchange": ("Schönere", "both Ansager would take new hands"),
            "swap": ("Schlagtausch", "the Ansager would swap Schlag and trump")}


def _request(ev, names):
    name, meaning = REQUESTS.get(ev["kind"], (escape(str(ev["kind"])), ""))
    return f"{names.subject(ev['seat'], 'ask', 'asks')} for a {name}" + (f" ({meaning})" if meaning else "")


def _answer(ev, names):
    name = REQUESTS.get(ev["kind"], (escape(str(ev["kind"])),))[0]
    if ev.get("agree"):
        return f"{names.subject(ev['seat'], 'agree', 'agrees')} to the {name}"
    text = f"{names.subject(ev['seat'], 'refuse', 'refuses')} the {name}"
    return text + ("; no more exchanges in this deal" if ev["kind"] == "exchange" else "")


def _exchange(ev, names):
    return (f"{_both(ev['seats'], names)} throw in their hands and take 5 new cards each "
            f"(Schönere {ev.get('count')})")


def _redeal(ev, names):
    return f"A third Schönere: all hands are thrown in and {names.seat(ev['dealer'])} deals again"


def _raise(ev, names):
    return f"[bold]{names.subject(ev['seat'], 'raise', 'raises')} to {ev['stake']}[/bold]"


def _accept(ev, names):
    return f"{names.subject(ev['seat'], 'accept', 'accepts')}: the hand is worth {ev['stake']}"


def _fold(ev, names):
    return f"{names.subject(ev['seat'], 'fold', 'folds')}: the hand is given up at {ev['stake']}"


def _challenge(ev, names):
    raiser = "your" if ev["raiser"] == names.human else f"{names.seat(ev['raiser'])}’s"
    verdict = "a valid raise" if ev.get("valid") else "not a valid raise"
    return (f"{names.subject(ev['seat'], 'call', 'calls')} “Farbe!” on {raiser} raise: "
            f"the card is {names.card_label(ev['card'])}, {verdict}")


def _stake(ev, names):
    stake = ev["stake"]
    if "struck_side" not in ev:
        return f"Both sides are gestrichen: this hand is played for a fixed {stake}, without raising"
    side, decider = side_text(ev["struck_side"], names), ev["decider"]
    decides = names.subject(decider, "decide", "decides", first=False)
    if names.game.variant == "euregio":
        refusal = names.game.options.get("four_points_refusal_value", 2)
        return (f"[bold]Es gehen die 4 Punkte[/bold]: {side} is gestrichen and leads by 4 or more; "
                f"{decides}: play for a fixed {stake} (hold) or concede ({refusal} to the others)")
    return f"{side} is gestrichen; {decides}: play for a fixed {stake} (hold) or concede (2 to the others)"


def _hold(ev, names):
    return f"{names.subject(ev['seat'], 'hold', 'holds')}: the hand is played for {ev['stake']}"


def _concede(ev, names):
    return f"{names.subject(ev['seat'], 'concede', 'concedes')} the hand"


def _maschine(ev, names):
    return (f"[bold]{names.subject(ev['seat'], 'hold', 'holds')} the Maschine "
            f"({', '.join(ev.get('cards') or [])}, all three Kritische): the hand ends[/bold]")


def _face_up(ev, names):
    if ev.get("cards") is None:
        return "The first trick is turned face down"
    until = names.game.options.get("first_trick_display") == "until_trick_2"
    return "The first trick stays face up " + ("until trick 2 is complete" if until else "for the rest of the hand")


def _hand_result(ev, names):
    seats = ev.get("seats") or []
    verb = "wins" if len(seats) == 1 and seats[0] != names.human else "win"
    why = WHY_WON.get(ev.get("reason"), escape(str(ev.get("reason"))))
    each = " each" if names.game.num_players == 3 and len(seats) == 2 else ""   # B3: both duo members score
    return f"[bold]{_both(seats, names)} {verb} the hand: {ev['points']} points{each} ({why})[/bold]"


#: a sentence per event type of the game's own (a teller may return NotImplemented: generic text)
TELLERS = {
    "watten_hand": _watten_hand, "watten_roles": _watten_roles, "cut": _cut, "cut_card": _cut_card,
    "cut_peek": _cut_peek, "stock_peek": _stock_peek, "deal": _deal, "schlag": _schlag, "trump": _trump,
    "show": _show, "committed": _committed, "reveal": _reveal, "ansage_done": _ansage_done,
    "request": _request, "answer": _answer, "exchange": _exchange, "redeal": _redeal, "raise": _raise,
    "accept": _accept, "fold": _fold, "challenge": _challenge, "stake": _stake, "hold": _hold,
    "concede": _concede, "maschine": _maschine, "face_up": _face_up, "hand_result": _hand_result,
}
