"""Shared helpers of the heuristic players: action texts and greedy trick play."""

from __future__ import annotations


def by_verb(legal: list[str]) -> dict[str, list[str]]:
    """Legal actions grouped by their first word (``play``, ``raise``, ``cut`` ...)."""
    out: dict[str, list[str]] = {}
    for a in legal:
        out.setdefault(a.split(" ", 1)[0], []).append(a)
    return out


def arg(action: str) -> str:
    """The argument of an action text (``"play EO"`` -> ``"EO"``)."""
    return action.split(" ", 1)[1] if " " in action else ""


def played_cards(view: dict) -> set[str]:
    """Every card played so far in this hand (finished tricks and the current one)."""
    out = {p["card"] for t in view.get("tricks") or [] for p in t.get("cards", [])}
    out.update(p["card"] for p in view.get("trick") or [])
    return out


def follow(legal_cards, trick, strength, friends, after, keep, safe):
    """A card to play to a started trick, for a side that wants to win tricks.

    ``strength(card, lead, pos)`` orders the cards of this trick; ``friends`` are the seats on
    my side, ``after`` the seats still to play after me; ``keep(card)`` is how much a card is
    worth keeping (the lowest is discarded); ``safe(card, strength)`` says that no unseen card
    of a player after me can beat it.  Partner winning safely: discard low.  Otherwise take the
    trick with the cheapest card that holds it, else discard the lowest card.
    """
    lead = trick[0]["card"]
    best, best_seat = -1, None
    for pos, p in enumerate(trick):
        s = strength(p["card"], lead, pos)
        if s > best:
            best, best_seat = s, p["seat"]
    pos = len(trick)
    enemies_after = [s for s in after if s not in friends]
    lowest = min(legal_cards, key=keep)
    if best_seat in friends and (not enemies_after or safe(None, best)):
        return lowest
    winners = [c for c in legal_cards if strength(c, lead, pos) > best]
    if not winners:
        return lowest
    if not enemies_after:
        return min(winners, key=keep)
    sure = [c for c in winners if safe(c, strength(c, lead, pos))]
    if sure:
        return min(sure, key=keep)
    if best_seat in friends:
        return lowest
    return min(winners, key=keep)
