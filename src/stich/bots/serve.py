"""``stich engine``: a stich bot speaking the stich-bot protocol (:mod:`stich.protocol`) on stdin/stdout,
the other end of :class:`stich.bots.external.ExternalBot`, so that any registered bot can sit at a table
that seats outside programs (another implementation's, or stich's own as ``cmd:stich engine``)."""

from __future__ import annotations

import json
import sys

from stich.bots.base import Budget, make_bot
from stich.bots.seeds import one_way_seed
from stich.protocol import MAX_MESSAGE, PROTOCOL, shorten


def serve(bot_name: str, seed: int | None = None, budget=None, stdin=None, stdout=None) -> int:
    """Answer the protocol on ``stdin``/``stdout`` with the stich bot ``bot_name`` (``stich engine``).

    Each ``hello`` starts a new match with a fresh bot (seeded from ``seed`` and the seat, or
    from the ``seed`` in the hello when ``seed`` is None).  A malformed message gets an
    ``{"type": "error", "message": ...}`` answer and the loop goes on; ``quit`` or the end
    of the input ends it.  Returns the exit status (0).
    """
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    budget = Budget.parse(budget)
    make_bot(bot_name)  # fail early on an unknown name
    bot = None

    def send(msg):
        stdout.write(json.dumps(msg, ensure_ascii=False) + "\n")
        stdout.flush()

    def lines():
        """The input's lines; one over MAX_MESSAGE characters is read no further and yields None."""
        while True:
            line = stdin.readline(MAX_MESSAGE + 1)
            if not line:
                return
            if len(line) > MAX_MESSAGE and not line.endswith("\n"):
                while line and not line.endswith("\n"):
                    line = stdin.readline(MAX_MESSAGE)
                yield None
            else:
                yield line

    for line in lines():
        if line is not None and not line.strip():
            continue
        try:
            if line is None:
                raise ValueError(f"a message is at most {MAX_MESSAGE} characters")
            msg = json.loads(line)
            if not isinstance(msg, dict):
                raise ValueError("a message is a JSON object")
        except (ValueError, RecursionError) as exc:
            exc = exc if isinstance(exc, ValueError) else "nested too deeply"
            send({"type": "error", "message": f"malformed message {shorten((line or '…').strip())!r}: {exc}"})
            continue
        kind = msg.get("type")
        try:
            if kind == "hello":
                if msg.get("protocol", PROTOCOL) != PROTOCOL:
                    raise ValueError(f"unsupported protocol {msg.get('protocol')!r}; this is {PROTOCOL}")
                seat = msg.get("seat") or 0
                bseed = msg.get("seed") if seed is None else one_way_seed(str(seed), "engine", int(seat))
                b = msg.get("budget") if not budget else budget
                if bot is not None:
                    bot.close()
                bot = make_bot(bot_name, seed=bseed, budget=b)
                if bot.sees_everything:
                    raise ValueError(f"the {bot_name} bot needs the full state and cannot play from views")
                send({"type": "ready", "name": f"stich {bot.name}", "protocol": PROTOCOL})
            elif kind == "act":
                view, legal = msg.get("view"), msg.get("legal")
                if not isinstance(view, dict) or not isinstance(legal, list) or not legal \
                        or not all(isinstance(a, str) for a in legal):
                    raise ValueError("act needs a view (object) and legal (a non-empty list of action texts)")
                if bot is None:
                    bot = make_bot(bot_name, seed=seed, budget=budget)
                answer = {"type": "action", "action": bot.choose(view, legal)}
                if "id" in msg:
                    answer["id"] = msg["id"]  # echoed, so the table can tell a late answer from this one
                send(answer)
            elif kind == "end":
                if bot is not None:
                    bot.end(msg.get("view") or {}, msg.get("returns") or [])
            elif kind == "quit":
                break
            else:
                raise ValueError(f"unknown message type {kind!r}")
        except Exception as exc:  # noqa: BLE001 - answered, never fatal
            send({"type": "error", "message": shorten(f"{type(exc).__name__}: {exc}", 1000)})
    if bot is not None:
        bot.close()
    return 0
