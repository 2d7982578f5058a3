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

from stich.engine.narration import N_, plain_trick_reason, tell, tell_seats

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

WHY_WON = {"tricks": N_("three tricks"), "fold": N_("the others folded"), "concede": N_("the others conceded"),
           "challenge": N_("the “Farbe!” challenge"), "maschine": N_("Maschine")}


def echoes(ev: dict, actor: int, action: str) -> bool:
    """A blind-Ansage event that only repeats the action line just shown (``show LO``)."""
    if ev.get("seat") != actor:
        return False
    if ev.get("type") == "show":
        return action == f"show {ev.get('card')}"
    return ev.get("type") == "committed" and action.startswith("show ")


def rows(view: dict, names) -> list[tuple[str, str]]:
    """The table rows of Watten's own view fields, those that say something now (in the reader's language)."""
    _ = names._
    out = _role_rows(view, names) + _ansage_rows(view, names) + _cut_rows(view, names)
    out.append((_("Stake"), stake_text(view, names)))
    decision = _pending_decision(view)
    if decision:
        out.append((_("Decision"), _("%(seat)s: hold (play for %(stake)s) or concede") % {
            "seat": names.seat(decision["decider"]), "stake": decision["stake"]}))
    won, n = view.get("tricks_won") or [], names.game.num_players
    if any(won) and n == 3:
        out.append((_("Tricks (by side)"), _("%(seat)s alone: %(a)s · the others: %(b)s") % {
            "seat": names.seat(view.get("forehand")), "a": won[0], "b": won[1]}))
    elif any(won) and n == 4:
        out.append((_("Tricks (by side)"), f"{side_text(0, names)}: {won[0]} · {side_text(1, names)}: {won[1]}"))
    face_up = view.get("face_up_trick")
    if face_up:
        out.append((_("First trick (face up)"),
                    ", ".join(f"{names.seat(p['seat'])}: {names.card_label(p['card'])}" for p in face_up)))
    g = names.game
    out.append((_("Target"), _("%(target)s; a score of %(lock)s or more is gestrichen (may not raise)") % {
        "target": g.target, "lock": g.lock_at}))
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
            # the names are the same in every language (the guides use them as they are)
            marks.update({c: KRITISCHE[c] if name == "Kritische" else name for c in cards})
        rk = g.ranking(deck.rank_codes.index(schlag), deck.suit_codes.index(trump))
        strength = {c: rk.key[deck.parse(c)] * 16 + strength[c] for c in hand}
    elif schlag:
        marks.update({c: "Schlag" for c in hand if deck.rank_codes[deck.rank(deck.parse(c))] == schlag})
    return strength, {c: m for c, m in marks.items() if c in hand}, trump


#: the blind Ansagen (the variant table's ``ansage``) hide Schlag and trump from the two other players:
#: the rule that says so for each (an open Ansage has none)
HIDDEN_ANSAGE = {"blind_simultaneous": N_("E.4: “the other two players do not know it”"),
                 "blind_schlag_first": N_("T3: “not told Schlag or trump for the whole hand”")}


def hand_end_note(view: dict, names) -> str | None:
    """For a player who did not learn the Ansage (his view, taken before the hand's last action, lacks
    Schlag or trump), the line that says it stays secret and why: no rule makes it public after the hand."""
    ansage = names.game.row.ansage
    if ansage == "open" or (view.get("schlag") and view.get("trump")):
        return None
    rule = HIDDEN_ANSAGE[ansage]   # a new kind of blind Ansage says its rule here
    text = names._("The Ansage stays secret: only the two Ansager know Schlag and trump, also after the hand (rules %(rule)s; no rule makes it public).")  # noqa: E501
    return "[dim]" + text % {"rule": names._(rule)} + "[/dim]"


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
                return names._("the %(name)s (a Kritische)") % {"name": KRITISCHE[won]}
            if sum(p["card"] in special for p in cards) > 1:
                return names._("the first %(name)s") % {"name": name}   # equal cards: the first played wins (§2.3)
            return names._("the %(name)s") % {"name": name}
    if won == "S6" and names.game.family == "tyrolean" and trump != "S":
        return names._("trump (the Weli, the lowest trump)")   # T1.2: a trump of no suit
    return plain_reason(cards, winner, names, trump)


#: the plain reasons (stich.engine.narration.plain_trick_reason), marked here for this game's catalogue
PLAIN_REASONS = (N_("trump"), N_("the highest trump"), N_("the highest of the suit led"))


def plain_reason(cards, winner, names, trump) -> str | None:
    """:func:`plain_trick_reason` in the reader's language."""
    reason = plain_trick_reason(cards, winner, names, trump)
    return None if reason is None else names._(reason)


# --- the pieces ------------------------------------------------------------------------------------

def _both(seats, names, you: str, other: str, **values) -> str:
    """A sentence whose subject is two or more seats, in seat order (``You and Seat 3 win ...``): ``you``
    (a msgid with ``%(others)s``) when the reader is one of them, else ``other`` (with ``%(seats)s``)."""
    return tell_seats(names, sorted(seats), None, you, other, join=lambda words: _and(words, names), **values)


def rank_text(rank: str, names) -> str:
    """``O (Ober)``; the Schlag 6 is ``6 (Weli)``."""
    return names.named("6", "Weli") if rank == "6" else names.value(rank, "rank")


def suit_text(suit: str, names) -> str:
    return names.value(suit, "trump")


def side_text(side: int, names) -> str:
    """``Side 1 (seats 1+3, yours)``, as the Scores row (four players only)."""
    seats = (side, side + 2)
    values = {"n": side + 1, "a": seats[0] + 1, "b": seats[1] + 1}
    if names.human in seats:
        return names._("Side %(n)s (seats %(a)s+%(b)s, yours)") % values
    return names._("Side %(n)s (seats %(a)s+%(b)s)") % values


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
            parts.append("Kritische " + ", ".join(names.named(c, KRITISCHE[c]) for c in cards))
        elif len(cards) == 1:
            parts.append(f"{name} {names.card_label(cards[0])}")
        elif cards:
            parts.append(f"{name} {names.short_cards(cards)}")
        elif name in ("Rechte", "Hauptschlag"):
            parts.append(names._("no %(name)s") % {"name": name})
    return " · ".join(parts)


def stake_text(view: dict, names) -> str:
    """``3``, ``4 (fixed: no raising)``, ``2; Seat 2 raised to 3, Seat 3 to answer``."""
    _ = names._
    stake, events = view.get("stake", 2), this_ansage(view)
    text = str(stake)
    if view.get("fixed"):   # E.11 option: after a hold the trailing side may raise a 4-point hand
        trailing = names.game.options.get("four_points_raising") == "trailing_may_raise" \
            and any(ev.get("type") == "hold" for ev in events)
        text += " " + (_("(fixed; only the trailing side may raise)") if trailing else _("(fixed: no raising)"))
    bids = [ev for ev in events if ev.get("type") in ("raise", "accept", "fold", "challenge", "hand_result")]
    if bids and bids[-1]["type"] == "raise":
        text += tell(names, bids[-1]["seat"], N_("; you raised to %(stake)s"), N_("; %(seat)s raised to %(stake)s"),
                     stake=bids[-1]["stake"])
        if view.get("current_player") is not None:
            text += tell(names, view["current_player"], N_(", you to answer"), N_(", %(seat)s to answer"))
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
    _ = names._
    fh, ss, ts = view.get("forehand"), view.get("schlag_seat"), view.get("trump_seat")
    if fh is None:
        return []
    out = [(_("Forehand"), names.seat(fh))]
    if names.game.num_players == 3:
        others = _("%(a)s and %(b)s") % dict(zip("ab", (names.seat(s) for s in range(3) if s != fh), strict=True))
        out[0] = (_("Forehand"), _("%(seat)s, alone against %(others)s") % {"seat": names.seat(fh), "others": others})
    if ss is not None and ss == ts:
        out.append((_("Ansager"), _("Schlag and trump: %(seat)s") % {"seat": names.seat(ss)}))
    elif ss is not None:
        out.append((_("Ansager"), _("Schlag: %(a)s · trump: %(b)s") % {"a": names.seat(ss), "b": names.seat(ts)}))
    if view.get("cutter") is not None and view.get("current_player") == view["cutter"] \
            and not any(ev.get("type") in ("cut", "deal") for ev in this_ansage(view)):
        out.append((_("Cutter"), names.seat(view["cutter"])))
    return out


def _ansage_rows(view: dict, names) -> list[tuple[str, str]]:
    _ = names._
    schlag, trump = view.get("schlag"), view.get("trump")
    out = []
    if schlag is None and trump is None:
        blind = names.game.blind and view.get("seat") not in (view.get("schlag_seat"), view.get("trump_seat"))
        out.append((_("Schlag, trump"), _("hidden: only the two Ansager know them") if blind else _("not chosen yet")))
    else:   # the open Ansage names the Schlag first
        out.append((_("Schlag"), rank_text(schlag, names)))
        out.append((_("Trump"), suit_text(trump, names) if trump else _("not named yet")))
        if schlag and trump:
            out.append((_("Highest cards"), top_cards(schlag, trump, names)))
    shown = shown_cards(view)
    if shown:
        out.append((_("Shown"), "; ".join(
            (_("%(seat)s: %(card)s for the Schlag") if s["role"] == "schlag" else _("%(seat)s: %(card)s for the trump"))
            % {"seat": names.seat(s["seat"]), "card": names.card_label(s["card"])} for s in shown)))
    return out


def _cut_rows(view: dict, names) -> list[tuple[str, str]]:
    """What the cut showed: the Bavarian bottom card (to all), the Euregio peeks (to one seat each)."""
    _ = names._
    info, out = view.get("info") or {}, []
    if info.get("cut_card"):
        out.append((_("Cut card"), _("%(card)s: bottom of the pack, not dealt") % {
            "card": names.card_label(info["cut_card"]["card"])}))
    exchanged = any(ev.get("type") == "exchange" for ev in view.get("events") or [])
    if info.get("cut_peek") and not exchanged:   # a Schönere reshuffles it away (E.5)
        out.append((_("Your peek"), _("bottom of the pack: %(card)s") % {
            "card": names.card_label(info["cut_peek"]["card"])}))
    if info.get("stock_peek"):
        peek = info["stock_peek"]
        out.append((_("Your peek"), _("stock top %(top)s, bottom %(bottom)s") % {
            "top": names.card_label(peek["top"]), "bottom": names.card_label(peek["bottom"])}))
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
def _and(words: list[str], names) -> str:
    """``Seat 2 and Seat 3``, ``Seat 1, Seat 2 and Seat 4``."""
    return words[0] if len(words) == 1 else names._("%(list)s and %(last)s") % {
        "list": ", ".join(words[:-1]), "last": words[-1]} if words else ""


def _alone(fh, names, you_and: str, other: str, **values) -> str:
    """A sentence about forehand alone against his two opponents (three players): ``other`` names them
    (``%(others)s``: ``Seat 2 and Seat 3``), ``you_and`` when the reader is one of them (``%(others)s``:
    the other one)."""
    return tell_seats(names, [s for s in range(3) if s != fh], None, you_and, other, key="others",
                      join=lambda words: _and(words, names), seat=names.seat(fh), **values)


def _watten_hand(ev, names):
    fh, ss, ts = ev["forehand"], ev["schlag_seat"], ev["trump_seat"]
    three = names.game.num_players == 3
    others = _and([names.seat(s) for s in range(3) if s != fh], names) if three else ""
    if ss != fh:   # not so at the start of a hand; told in full all the same
        if three and fh == names.human:
            head = names._("You are forehand, alone against %(others)s") % {"others": others}
        elif three:
            head = _alone(fh, names, N_("%(seat)s is forehand, alone against %(others)s and you"),
                          N_("%(seat)s is forehand, alone against %(others)s"))
        else:
            head = tell(names, fh, N_("You are forehand"), N_("%(seat)s is forehand"))
        return names._("%(a)s; %(b)s") % {"a": head, "b": _roles(ss, ts, names)}
    if three and fh == names.human:
        text = names._(N_("You are forehand, alone against %(others)s, and choose Schlag and trump") if ts == fh else
                       N_("You are forehand, alone against %(others)s, and choose the Schlag")) % {"others": others}
    elif three:
        text = (_alone(fh, names, N_("%(seat)s is forehand, alone against %(others)s and you, and chooses Schlag and trump"),  # noqa: E501
                       N_("%(seat)s is forehand, alone against %(others)s, and chooses Schlag and trump"))
                if ts == fh else
                _alone(fh, names, N_("%(seat)s is forehand, alone against %(others)s and you, and chooses the Schlag"),
                       N_("%(seat)s is forehand, alone against %(others)s, and chooses the Schlag")))
    else:
        text = (tell(names, fh, N_("You are forehand and choose Schlag and trump"),
                     N_("%(seat)s is forehand and chooses Schlag and trump"))
                if ts == fh else
                tell(names, fh, N_("You are forehand and choose the Schlag"),
                     N_("%(seat)s is forehand and chooses the Schlag")))
    if ts != fh:
        text = names._("%(a)s; %(b)s") % {
            "a": text, "b": tell(names, ts, N_("you choose the trump"), N_("%(seat)s chooses the trump"))}
    return text


def _roles(ss, ts, names) -> str:
    if ss == ts:
        return tell(names, ss, N_("You choose Schlag and trump"), N_("%(seat)s chooses Schlag and trump"))
    if ts == names.human and ts is not None:
        return names._("%(seat)s chooses the Schlag, you the trump") % {"seat": names.seat(ss)}
    return tell(names, ss, N_("You choose the Schlag, %(other)s the trump"),
                N_("%(seat)s chooses the Schlag, %(other)s the trump"), other=names.seat(ts))


def _watten_roles(ev, names):
    return f"[bold]Schlagtausch[/bold]: {_roles(ev['schlag_seat'], ev['trump_seat'], names)}"


def _cut(ev, names):
    return tell(names, ev["seat"], N_("You cut the pack, lifting %(k)s cards"),
                N_("%(seat)s cuts the pack, lifting %(k)s cards"),
                k=ev["k"])


def _cut_card(ev, names):
    card = ev["card"]
    if card in KRITISCHE and names.game.bavarian:
        return names._("The cut shows %(card)s: a Kritische (%(name)s), dealt face up") % {
            "card": names.card_label(card), "name": KRITISCHE[card]}
    return names._("The cut shows %(card)s; it stays at the bottom of the pack") % {"card": names.card_label(card)}


def _cut_peek(ev, names):
    return tell(names, ev["seat"], N_("You see the bottom card of the pack: %(card)s"),
                N_("%(seat)s sees the bottom card of the pack: %(card)s"), card=names.card_label(ev["card"]))


def _stock_peek(ev, names):
    return tell(names, ev["seat"], N_("You look at the stock: top card %(top)s, bottom card %(bottom)s"),
                N_("%(seat)s looks at the stock: top card %(top)s, bottom card %(bottom)s"),
                top=names.card_label(ev["top"]), bottom=names.card_label(ev["bottom"]))


def _deal(ev, names):
    """Only the Tyrolean Schlag-6 hand showing (R24); every other deal is told generically."""
    if not ev.get("partner_view"):
        return NotImplemented
    p = ev["seat"]
    values = {"seat": names.seat(p), "cards": ", ".join(names.card_label(c) for c in ev.get("cards") or [])}
    if names.human is not None and (p + 2) % 4 == names.human:
        return names._("Schlag 6: your partner %(seat)s shows you their hand: %(cards)s") % values
    return names._("Schlag 6: %(seat)s shows their partner their hand: %(cards)s") % values


def _schlag(ev, names):
    return "[bold]" + tell(names, ev["seat"], N_("You name the Schlag: %(rank)s"),
                           N_("%(seat)s names the Schlag: %(rank)s"),
                           rank=rank_text(ev["rank"], names)) + "[/bold]"


def _trump(ev, names):
    return "[bold]" + tell(names, ev["seat"], N_("You name the trump: %(suit)s"),
                           N_("%(seat)s names the trump: %(suit)s"),
                           suit=suit_text(ev["suit"], names)) + "[/bold]"


def _show(ev, names):
    deck, card = names.deck, ev["card"]
    c = deck.parse(card)
    if ev.get("role") == "schlag":
        return tell(names, ev["seat"], N_("You show %(card)s: the Schlag is %(rank)s"),
                    N_("%(seat)s shows %(card)s: the Schlag is %(rank)s"), card=names.card_label(card),
                    rank=rank_text(deck.rank_codes[deck.rank(c)], names))
    return tell(names, ev["seat"], N_("You show %(card)s: the trump is %(suit)s"),
                N_("%(seat)s shows %(card)s: the trump is %(suit)s"), card=names.card_label(card),
                suit=suit_text(deck.suit_codes[deck.suit(c)], names))


def _committed(ev, names):
    return tell(names, ev["seat"], N_("You have chosen your card, face down"),
                N_("%(seat)s has chosen a card, face down"))


def _reveal(ev, names):
    schlag, trump = ev["schlag"], ev["trump"]
    rechte = dict(special_cards(schlag, trump, names)).get("Rechte")
    text = names._("The Ansage is revealed: Schlag %(rank)s (shown with %(rank_card)s), trump %(suit)s (shown with %(suit_card)s)") % {  # noqa: E501
        "rank": rank_text(schlag, names), "rank_card": names.card_label(ev["schlag_card"]),
        "suit": suit_text(trump, names), "suit_card": names.card_label(ev["trump_card"])}
    if rechte:
        text += names._("; the Rechte is %(card)s") % {"card": names.card_label(rechte[0])}
    return f"[bold]{text}[/bold]"


def _ansage_done(ev, names):
    return names._("The Ansage is complete.")


REQUESTS = {"exchange": ("Schönere", N_("both Ansager would take new hands")),
            "swap": ("Schlagtausch", N_("the Ansager would swap Schlag and trump"))}


def _request(ev, names):
    name, meaning = REQUESTS.get(ev["kind"], (escape(str(ev["kind"])), ""))
    text = tell(names, ev["seat"], N_("You ask for a %(name)s"), N_("%(seat)s asks for a %(name)s"), name=name)
    return text + (f" ({names._(meaning)})" if meaning else "")


def _answer(ev, names):
    name = REQUESTS.get(ev["kind"], (escape(str(ev["kind"])),))[0]
    if ev.get("agree"):
        return tell(names, ev["seat"], N_("You agree to the %(name)s"), N_("%(seat)s agrees to the %(name)s"),
                    name=name)
    text = tell(names, ev["seat"], N_("You refuse the %(name)s"), N_("%(seat)s refuses the %(name)s"), name=name)
    return text + (names._("; no more exchanges in this deal") if ev["kind"] == "exchange" else "")


def _exchange(ev, names):
    return _both(ev["seats"], names,
                 N_("You and %(others)s throw in their hands and take 5 new cards each (Schönere %(count)s)"),
                 N_("%(seats)s throw in their hands and take 5 new cards each (Schönere %(count)s)"),
                 count=ev.get("count"))


def _redeal(ev, names):
    return tell(names, ev["dealer"], N_("A third Schönere: all hands are thrown in and you deal again"),
                N_("A third Schönere: all hands are thrown in and %(seat)s deals again"))


def _raise(ev, names):
    return "[bold]" + tell(names, ev["seat"], N_("You raise to %(stake)s"), N_("%(seat)s raises to %(stake)s"),
                           stake=ev["stake"]) + "[/bold]"


def _accept(ev, names):
    return tell(names, ev["seat"], N_("You accept: the hand is worth %(stake)s"),
                N_("%(seat)s accepts: the hand is worth %(stake)s"), stake=ev["stake"])


def _fold(ev, names):
    return tell(names, ev["seat"], N_("You fold: the hand is given up at %(stake)s"),
                N_("%(seat)s folds: the hand is given up at %(stake)s"), stake=ev["stake"])


def _challenge(ev, names):
    values = {"card": names.card_label(ev["card"]), "raiser": names.seat(ev["raiser"])}
    if ev["raiser"] == names.human:
        text = tell(names, ev["seat"], N_("You call “Farbe!” on your raise: the card is %(card)s"),
                    N_("%(seat)s calls “Farbe!” on your raise: the card is %(card)s"), **values)
    else:
        text = tell(names, ev["seat"], N_("You call “Farbe!” on %(raiser)s’s raise: the card is %(card)s"),
                    N_("%(seat)s calls “Farbe!” on %(raiser)s’s raise: the card is %(card)s"), **values)
    return text + ", " + (names._("a valid raise") if ev.get("valid") else names._("not a valid raise"))


def _stake(ev, names):
    _ = names._
    stake = ev["stake"]
    if "struck_side" not in ev:
        return _("Both sides are gestrichen: this hand is played for a fixed %(stake)s, without raising") % {
            "stake": stake}
    side, decider = side_text(ev["struck_side"], names), ev["decider"]
    decides = tell(names, decider, N_("you decide"), N_("%(seat)s decides"))
    if names.game.row.end_game == "four_points":   # E.11: "es gehen die 4 Punkte"
        refusal = names.game.options.get("four_points_refusal_value", 2)
        return (f"[bold]{_('Es gehen die 4 Punkte')}[/bold]: "
                + _("%(side)s is gestrichen and leads by 4 or more; %(decides)s: play for a fixed %(stake)s (hold) or concede (%(refusal)s to the others)")  # noqa: E501
                % {"side": side, "decides": decides, "stake": stake, "refusal": refusal})
    return _("%(side)s is gestrichen; %(decides)s: play for a fixed %(stake)s (hold) or concede (2 to the others)") % {
        "side": side, "decides": decides, "stake": stake}


def _hold(ev, names):
    return tell(names, ev["seat"], N_("You hold: the hand is played for %(stake)s"),
                N_("%(seat)s holds: the hand is played for %(stake)s"), stake=ev["stake"])


def _concede(ev, names):
    return tell(names, ev["seat"], N_("You concede the hand"), N_("%(seat)s concedes the hand"))


def _maschine(ev, names):
    return "[bold]" + tell(names, ev["seat"],
                           N_("You hold the Maschine (%(cards)s, all three Kritische): the hand ends"),
                           N_("%(seat)s holds the Maschine (%(cards)s, all three Kritische): the hand ends"),
                           cards=names.short_cards(ev.get("cards") or [])) + "[/bold]"


def _face_up(ev, names):
    if ev.get("cards") is None:
        return names._("The first trick is turned face down")
    if names.game.options.get("first_trick_display") == "until_trick_2":
        return names._("The first trick stays face up until trick 2 is complete")
    return names._("The first trick stays face up for the rest of the hand")


def _hand_result(ev, names):
    seats = ev.get("seats") or []
    values = {"points": ev["points"], "why": names._(WHY_WON[ev.get("reason")]) if ev.get("reason") in WHY_WON
              else escape(str(ev.get("reason")))}
    if names.game.num_players == 3 and len(seats) == 2:   # B3: both duo members score
        text = _both(seats, names, N_("You and %(others)s win the hand: %(points)s points each (%(why)s)"),
                     N_("%(seats)s win the hand: %(points)s points each (%(why)s)"), **values)
    elif len(seats) == 1:
        text = tell(names, seats[0], N_("You win the hand: %(points)s points (%(why)s)"),
                    N_("%(seat)s wins the hand: %(points)s points (%(why)s)"), **values)
    else:
        text = _both(seats, names, N_("You and %(others)s win the hand: %(points)s points (%(why)s)"),
                     N_("%(seats)s win the hand: %(points)s points (%(why)s)"), **values)
    return f"[bold]{text}[/bold]"


#: a sentence per event type of the game's own (a teller may return NotImplemented: generic text)
TELLERS = {
    "watten_hand": _watten_hand, "watten_roles": _watten_roles, "cut": _cut, "cut_card": _cut_card,
    "cut_peek": _cut_peek, "stock_peek": _stock_peek, "deal": _deal, "schlag": _schlag, "trump": _trump,
    "show": _show, "committed": _committed, "reveal": _reveal, "ansage_done": _ansage_done,
    "request": _request, "answer": _answer, "exchange": _exchange, "redeal": _redeal, "raise": _raise,
    "accept": _accept, "fold": _fold, "challenge": _challenge, "stake": _stake, "hold": _hold,
    "concede": _concede, "maschine": _maschine, "face_up": _face_up, "hand_result": _hand_result,
}
