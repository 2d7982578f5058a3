"""The words a match is told in, for every app that shows one (the terminal, the browser): the reader's
names for cards, seats and values (:mod:`.names`) and a line per event (:mod:`.events`), each game's own
sentences coming from its ``"narration"`` companion (``Game.companions``).

Both apps tell a match in the same words, so the words live below both (the layer ``games`` of
``tests/test_imports.py``): an app never imports another app for them.  Rich markup is the form of a
line; terminal-only things (tables, columns, the console) stay in ``stich.cli.render``.
"""

from stich.narration.events import (
    QUIET_EVENTS,
    describe_event,
    game_line,
    game_text,
    hand_result,
    scores_text,
    trick_reason,
)
from stich.narration.names import SUIT_STYLES, Names

__all__ = [
    "Names", "SUIT_STYLES", "QUIET_EVENTS",
    "describe_event", "game_line", "game_text", "hand_result", "scores_text", "trick_reason",
]
