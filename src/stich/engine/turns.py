"""One seat at a time: the deterministic serialisation of a state in which several seats may act.

A state lets every seat with a decision act (``state.seats_to_act()``, ``legal_actions(seat)``,
``apply(action, seat=...)``), the first applied wins.  Interfaces that ask one player at a time
(bots at a table, the stich-bot protocol, PettingZoo's AEC, OpenSpiel) walk it with :class:`Turns`:

* after every change of the state, each seat that may act **out of turn** is *polled* first, in
  seat order starting after the seat on turn: it may take one of its actions or ``wait``;
* then the seat on turn (``current_player``) decides, from ``legal_actions()``, as before.

``wait`` is an answer to a poll, never an action of the game: it is not applied and not
recorded, so a match walked this way has the same record as one played directly, and a seat
that waited is polled again after the next change.  Every action of every seat is offered at
every moment it is legal, so the serialisation loses none.  Games whose seats never act out of
turn are walked exactly as before (no polls).
"""

from __future__ import annotations

from stich.engine.actions import Action

WAIT = "wait"


class Turns:
    """The one-seat-at-a-time walk of ``state`` (see the module docstring)."""

    __slots__ = ("state", "_waited", "_at")

    def __init__(self, state):
        self.state = state
        self._waited: set[int] = set()
        self._at = state.actions_taken

    def _fresh(self) -> None:
        at = self.state.actions_taken
        if at != self._at:          # the state changed: every seat may be polled again
            self._at = at
            self._waited.clear()

    def seat(self) -> int:
        """The seat asked now: the first out-of-turn seat still to be polled, else the seat on turn
        (negative once the match is over)."""
        self._fresh()
        st = self.state
        if st._deferred:
            st._settle()   # a deferred deal runs before anybody is asked
        cp = st.current_player
        if cp < 0:
            return cp
        n = st.game.num_players
        for k in range(1, n):
            s = (cp + k) % n
            if s not in self._waited and st._off_turn_actions(s):
                return s
        return cp

    def is_poll(self) -> bool:
        """Whether the seat asked now is polled out of turn (its choices then include ``wait``)."""
        return self.seat() != self.state.current_player

    def legal_actions(self) -> list[Action]:
        """The choices of the seat asked now: its legal actions, plus ``wait`` at a poll."""
        s = self.seat()
        st = self.state
        if s == st.current_player or s < 0:
            return st.legal_actions()
        return st.legal_actions(s) + [st.game.a_wait]

    def apply(self, action) -> None:
        """Apply the asked seat's choice (an Action or its text); ``wait`` ends its poll."""
        s = self.seat()
        st = self.state
        if s != st.current_player and s >= 0 and str(action).strip().lower() == WAIT:
            self._waited.add(s)
            return
        st.apply(action, seat=s)

    def clone(self, state=None) -> Turns:
        """A copy walking ``state`` (default: a clone of this walk's state)."""
        new = Turns(self.state.clone() if state is None else state)
        new._waited = set(self._waited)
        new._at = self._at
        return new
