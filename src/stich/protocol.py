"""The stich-bot protocol: outside programs as bots, line-based JSON over stdin/stdout.

Like UCI for chess engines: the table writes one JSON object per line to the program's
stdin, the program answers with one JSON object per line on its stdout (see
``docs/protocol.md`` for the full description and an example session).

Table -> program::

    {"type": "hello", "protocol": "stich-bot/1", "game": ..., "variant": ..., "options": {...},
     "seat": 0, "num_players": 4, "seed": 17, "budget": "1s"}            -> {"type": "ready", "name": "..."}
    {"type": "act", "id": 1, "view": {...}, "legal": ["play EO", ...]}    -> {"type": "action", "action": "play EO",
                                                                              "id": 1}
    {"type": "end", "view": {...}, "returns": [1.0, -1.0, ...]}          (no answer)
    {"type": "quit"}                                                      (the program exits)

:class:`stich.bots.external.ExternalBot` (``make_bot("cmd:./mybot --fast")``) runs a program as a bot;
:func:`stich.bots.serve.serve` (``stich engine --bot NAME``) makes any registered stich bot speak it.
Both ends are bots (``stich.bots``) built on this module, the protocol's words and limits, which
imports no bot: the protocol sits below the bots that speak it, never beside them in a cycle.
"""

from __future__ import annotations

PROTOCOL = "stich-bot/1"
#: seconds a program may take to start and answer ``hello``
HELLO_TIMEOUT = 10.0
#: seconds per answer to ``act`` on top of the time budget (the default without a budget)
ACT_GRACE = 10.0


class ProtocolError(RuntimeError):
    """An outside bot broke the protocol: bad JSON, a wrong message, an illegal action, a crash, a timeout.

    ``kind`` is one of ``malformed``, ``illegal``, ``crash``, ``timeout``, ``error``; ``fatal``
    is True when the program was stopped (crash, timeout): the table then plays that seat's
    remaining decisions itself."""

    def __init__(self, message: str, kind: str = "malformed", fatal: bool = False):
        super().__init__(message)
        self.kind = kind
        self.fatal = fatal


#: the longest line (bytes) a program may write; a longer one is refused as malformed
MAX_LINE = 1 << 20
#: lines of a program's output read ahead of the table; beyond that the program waits on its pipe
MAX_QUEUED = 256
#: the longest message (characters) ``stich engine`` reads from the table
MAX_MESSAGE = 16 << 20


def shorten(text, limit: int = 200) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was: what a program sent, quoted in an
    error without flooding it."""
    text = str(text)
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"
