"""Events and results in words: a game's own sentences (its ``"narration"`` companion's ``TELLERS``) and the
generic text for the events every game shares (hands, deals, plays, tricks, scores), one line of Rich markup
each, in the reader's language (:class:`~stich.narration.names.Names`).

The terminal and the browser tell a match in these same words, so they live here, below both apps."""

from __future__ import annotations

from rich.markup import escape

from stich.engine import companion, member
from stich.engine.narration import N_, plain_trick_reason, tell
from stich.narration.names import Names


def game_text(game):
    """The module that tells a game's own events and view fields in words, or None: its
    ``"narration"`` companion (``Game.companions``), with ``NARRATED_VERBS``, ``KEYS``,
    ``TELLERS``, ``echoes`` and ``rows``; a game without one gets the generic text."""
    return companion(game, "narration")


def game_line(ev: dict, names: Names):
    """The game's own sentence for an event (its text module's ``TELLERS``), None for nothing worth
    a line, NotImplemented where the generic text tells it."""
    own = game_text(names.game)
    teller = None if own is None else own.TELLERS.get(ev.get("type"))
    return NotImplemented if teller is None else teller(ev, names)


def describe_event(ev: dict, names: Names) -> str | None:
    """One line of narration for an event (None: nothing worth a line); a trick with the winning card
    and the reason it won when the narrator added them (``card``, ``why``: :func:`trick_reason`)."""
    line = _describe_event(ev, names)
    if line and ev.get("type") == "trick" and ev.get("why") and ev.get("card"):
        line += " [green]" + names._("with %(card)s: %(why)s") % {
            "card": names.card_label(ev["card"]), "why": escape(ev["why"])} + "[/green]"
    return line


def trick_reason(view: dict, cards: list[dict], winner: int, names: Names) -> str | None:
    """Why ``winner`` took the trick ``cards`` (``[{"seat", "card"}]`` in play order), in the words of the
    table, from what ``view`` (the viewer's, taken before the last card) tells: the game's text module's
    ``trick_reason`` where it has one, else :func:`plain_trick_reason` with the view's ``trump``."""
    own_reason = member(names.game, "narration", "trick_reason")
    if own_reason is not None:
        return own_reason(view, cards, winner, names)
    return plain_trick_reason(cards, winner, names, view.get("trump"))


def _describe_event(ev: dict, names: Names) -> str | None:
    line = game_line(ev, names)
    if line is not NotImplemented:
        return line
    t = ev.get("type")
    _ = names._
    if t == "hand_start":
        dealer = ev.get("dealer")
        if dealer is None:
            text = _("Hand %(n)s") % {"n": ev.get("hand")}
        else:
            text = tell(names, dealer, N_("Hand %(n)s · you deal"), N_("Hand %(n)s · dealer %(seat)s"),
                        n=ev.get("hand"))
        return f"[bold magenta]── {text} ──[/bold magenta]"
    if t == "deal":
        cards = ", ".join(names.card_label(c) for c in ev.get("cards") or [])
        if ev.get("seat") == names.human:
            text = _("You now hold: %(cards)s") if ev.get("replace") else _("You receive: %(cards)s")
        else:
            text = _("%(seat)s now holds: %(cards)s") if ev.get("replace") else _("%(seat)s receives: %(cards)s")
        return text % {"seat": names.seat(ev.get("seat")), "cards": cards}
    if t == "play":
        return _("%(seat)s plays %(card)s") % {"seat": names.seat(ev.get("seat")),
                                                "card": names.card_label(ev.get("card"))}
    if t == "trick":
        mine = ev.get("winner") == names.human
        text = _("You win the trick") if mine else _("%(seat)s wins the trick") % {"seat": names.seat(ev.get("winner"))}
        return f"[green]{text}[/green]"
    if t == "scores":
        scores = scores_text(ev.get("scores"), names, names.game.num_players)
        return "[yellow]" + _("Scores: %(scores)s") % {"scores": scores} + "[/yellow]"
    if t in QUIET_EVENTS:
        return None
    payload = {k: v for k, v in ev.items() if k != "type"}
    label = escape(str(t).replace("_", " "))
    return f"[blue]{label}[/blue]: {names.value(payload)}" if payload else f"[blue]{label}[/blue]"


#: event types that are snapshots of what the table already shows: not narrated line by line
QUIET_EVENTS = frozenset({"status"})


def scores_text(scores, names: Names, num_players: int, short: bool = False) -> str:
    """Scores as per-seat or per-side text (``short``: ``you 3, Seat 2 1``)."""
    if scores is None:
        return "—"
    if isinstance(scores, dict):
        return ", ".join(f"{k}: {names.value(v)}" for k, v in scores.items())
    if isinstance(scores, (list, tuple)):
        if len(scores) == num_players:
            if short:
                return ", ".join(f"{names.seat(i, short=True)} {v}" for i, v in enumerate(scores))
            return ", ".join(f"{names.seat(i)}: {v}" for i, v in enumerate(scores))
        if num_players % max(len(scores), 1) == 0 and len(scores) > 1:
            step = len(scores)
            parts = []
            for i, v in enumerate(scores):
                seats = "+".join(str(s + 1) for s in range(i, num_players, step))
                mine = names.human is not None and names.human % step == i
                label = (names._("Side %(n)s (seats %(seats)s, yours): %(score)s") if mine
                         else names._("Side %(n)s (seats %(seats)s): %(score)s"))
                parts.append(label % {"n": i + 1, "seats": seats, "score": v})
            return ", ".join(parts)
        return ", ".join(str(v) for v in scores)
    return str(scores)


def hand_result(summary: dict, hand: int, shown: list[dict] = ()) -> dict | None:
    """The result of finished hand ``hand`` from ``state.hand_summary()`` taken just after it:
    its ``last_result`` when that is the hand; else, when the summary is still that hand's (the
    match is over), its ``result`` or the summary itself; None when there is none or an event in
    ``shown`` already said exactly that."""
    if not isinstance(summary, dict):
        return None
    last = summary.get("last_result")
    if isinstance(last, dict) and last.get("hand", hand) == hand:
        result = last
    elif summary.get("hand") == hand:
        result = summary["result"] if isinstance(summary.get("result"), dict) else summary
    else:
        return None
    for ev in shown:
        if {k: v for k, v in ev.items() if k != "type"} == result:
            return None
    return result
