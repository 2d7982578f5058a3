"""Actions: every decision of a game (a card played, a raise, a bid, a Schlag) is one.

An :class:`Action` *is* its text form (a ``str`` subclass), so ``str(action)`` is stable,
``action == "play EO"`` works, and actions are cheap to compare and hash.  Each game keeps
one interned instance per distinct action; legal-action lists hold those instances.

Text form: ``"<verb>"`` or ``"<verb> <argument>"`` with a lower-case verb and the argument
in canonical notation (cards as in :mod:`stich.cards`).  The acting seat is not part of the
text: without a prefix it is ``state.current_player``.  When parsing, an optional seat prefix
``"N:"`` with a **1-based** seat number (as the rules files write ``"1:play L-7"``) names the
acting seat, which may be any seat that has the action (``state.legal_actions(seat)``).
"""

from __future__ import annotations


class Action(str):
    """One decision, e.g. ``play EO``, ``raise``, ``schlag O``.

    Attributes: ``verb`` (str), ``arg`` (str or None, canonical text), ``value``
    (the argument decoded by the game: a card index, a rank index, a number, or None), and for an
    action interned by a game ``id``, its index in ``game.action_space`` (its number).
    """

    verb: str
    arg: str | None
    value: object

    def __new__(cls, verb: str, arg: str | None = None, value: object = None):
        self = super().__new__(cls, verb if arg is None else f"{verb} {arg}")
        self.verb = verb
        self.arg = arg
        self.value = value
        return self

    def __repr__(self) -> str:
        return f"Action({str.__str__(self)!r})"

    def __str__(self) -> str:
        return str.__str__(self)

    def __reduce__(self):
        # the action number (``id``, its index in its game's action_space) travels with it
        return (Action, (self.verb, self.arg, self.value), {"id": self.id} if "id" in self.__dict__ else None)
