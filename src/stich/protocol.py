"""The stich-bot protocol: outside programs as bots, line-based JSON over stdin/stdout.

Like UCI for chess engines: the table writes one JSON object per line to the program's
stdin, the program answers with one JSON object per line on its stdout (see
``docs/protocol.md`` for the full description and an example session).

Table -> program::

    {"type": "hello", "protocol": "stich-bot/1", "game": ..., "variant": ..., "options": {...},
     "seat": 0, "num_players": 4, "seed": 17, "budget": "1s"}            -> {"type": "ready", "name": "..."}
    {"type": "act", "id": 1, "view": {...}, "legal": ["play EO", ...]}    -> {"type": "action", "action": "play EO"}
    {"type": "end", "view": {...}, "returns": [1.0, -1.0, ...]}          (no answer)
    {"type": "quit"}                                                      (the program exits)

:class:`ExternalBot` (``make_bot("cmd:./mybot --fast")``) runs a program as a bot;
:func:`serve` (``stich engine --bot NAME``) makes any registered stich bot speak it.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import subprocess
import threading
import time
from collections import deque

from stich.bots.base import Bot, Budget, make_bot

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


def _short(text, limit: int = 200) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


class ExternalBot(Bot):
    """A program that speaks the stich-bot protocol, seated as a bot (``cmd:PROGRAM ARGS``).

    The program is started on the first decision (``hello`` is built from the view: game,
    variant, options, seat) and stopped by :meth:`close`.  Its stderr is collected; the last
    lines are quoted when it crashes.  Every failure raises :class:`ProtocolError` naming the
    bot and what it sent; the table reports it and plays a fallback action.  After a crash or
    a timeout the program is stopped and every later decision raises at once (fatal).
    """

    name = "cmd"

    def __init__(self, command: str, seed: int | None = None, budget=None, timeout: float | None = None,
                 hello_timeout: float = HELLO_TIMEOUT, cwd: str | None = None):
        super().__init__(seed=seed, budget=budget)
        if not command:
            raise ValueError("cmd: needs a program, e.g. cmd:./mybot or 'cmd:python3 mybot.py'")
        self.command = command
        self.argv = shlex.split(command)
        self.label = f"cmd:{command}"
        self.name = self.label
        secs = self.budget.seconds or 0.0
        self.timeout = timeout if timeout is not None else secs + ACT_GRACE
        self.hello_timeout = hello_timeout
        self.cwd = cwd
        self.proc: subprocess.Popen | None = None
        self.program_name: str | None = None
        self.dead: ProtocolError | None = None
        self._lines: queue.Queue = queue.Queue()
        self._stderr: deque = deque(maxlen=20)
        self._requests = 0

    # --- process handling ----------------------------------------------------------------------
    def _start(self, view: dict) -> None:
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1,
                                         cwd=self.cwd, env=dict(os.environ, PYTHONUNBUFFERED="1"))
        except OSError as exc:
            self._die(f"cannot start {self.command!r}: {exc}", "crash")
        threading.Thread(target=self._pump, args=(self.proc.stdout, self._lines), daemon=True).start()
        threading.Thread(target=self._pump_err, args=(self.proc.stderr,), daemon=True).start()
        hello = {"type": "hello", "protocol": PROTOCOL, "game": view.get("game"), "variant": view.get("variant"),
                 "options": view.get("options", {}), "seat": view.get("seat"),
                 "num_players": view.get("num_players"), "seed": self.seed,
                 "budget": str(self.budget) if self.budget else None}
        self._send(hello)
        try:
            msg = self._receive(self.hello_timeout, "hello")
        except ProtocolError as exc:
            if exc.fatal:
                raise
            self._die(str(exc), exc.kind)  # no handshake, no game: stop the program
        if msg.get("type") != "ready":
            self._die(f"{self.label} answered hello with {_short(json.dumps(msg))}; expected "
                      '{"type": "ready", "name": ...}', "malformed")
        self.program_name = str(msg.get("name") or self.command)

    @staticmethod
    def _pump(stream, out: queue.Queue) -> None:
        try:
            for line in stream:
                out.put(line)
        except (OSError, ValueError):
            pass
        out.put(None)  # end of output

    def _pump_err(self, stream) -> None:
        try:
            for line in stream:
                self._stderr.append(line.rstrip("\n"))
        except (OSError, ValueError):
            pass

    def _stderr_tail(self) -> str:
        time.sleep(0.05)  # let the stderr reader catch the last lines
        tail = "\n".join(list(self._stderr)[-5:])
        return f"; its stderr ends with:\n{tail}" if tail else ""

    def _die(self, message: str, kind: str):
        self.dead = ProtocolError(message, kind, fatal=True)
        self._kill()
        raise self.dead

    def _kill(self) -> None:
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return
        try:
            proc.kill()
            proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass

    def _send(self, msg: dict) -> None:
        try:
            self.proc.stdin.write(json.dumps(msg, ensure_ascii=False) + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError) as exc:
            code = self.proc.poll()
            self._die(f"{self.label} stopped reading its input ({exc}; exit status {code})"
                      + self._stderr_tail(), "crash")

    def _receive(self, timeout: float, what: str) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self._die(f"{self.label} did not answer {what} within {timeout:g}s", "timeout")
            if line is None:
                code = self.proc.wait(timeout=5) if self.proc else None
                self._die(f"{self.label} exited (status {code}) instead of answering {what}"
                          + self._stderr_tail(), "crash")
            if not line.strip():
                continue  # blank lines are ignored
            try:
                msg = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ProtocolError(f"{self.label} sent malformed JSON in answer to {what}: "
                                    f"{_short(line.strip())!r} ({exc.msg})", "malformed") from None
            if not isinstance(msg, dict):
                raise ProtocolError(f"{self.label} sent {_short(line.strip())!r} in answer to {what}; "
                                    "a message is a JSON object", "malformed")
            if msg.get("type") == "log":
                self._stderr.append(str(msg.get("message", "")))
                continue  # free-form logging, allowed at any time
            return msg

    def _drain(self) -> None:
        """Drop stray lines left from an earlier answer, so each act gets its own answer."""
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:  # the program has ended; let _receive report it
                self._lines.put(None)
                return

    def check(self, view: dict) -> str:
        """Start the program and shake hands (``hello``/``ready``) for the seat of ``view``, then stop it.

        Returns the program's name; raises :class:`ProtocolError` when it cannot play at all."""
        try:
            self._start(view)
            return self.program_name or self.command
        finally:
            self.close()

    # --- the Bot interface ------------------------------------------------------------------------
    def choose(self, view: dict, legal: list[str]) -> str:
        if self.dead is not None:
            raise ProtocolError(f"{self.label} was stopped earlier ({self.dead.kind})", self.dead.kind, fatal=True)
        if self.proc is None:
            self._start(view)
        self._drain()
        self._requests += 1
        self._send({"type": "act", "id": self._requests, "view": view, "legal": list(legal)})
        msg = self._receive(self.timeout, f"act #{self._requests}")
        kind = msg.get("type")
        if kind == "error":
            raise ProtocolError(f"{self.label} reported an error: {_short(msg.get('message'))}", "error")
        if kind != "action" or not isinstance(msg.get("action"), str):
            raise ProtocolError(f"{self.label} answered act with {_short(json.dumps(msg))}; expected "
                                '{"type": "action", "action": "<one of legal>"}', "malformed")
        action = msg["action"]
        if action not in legal:
            raise ProtocolError(f"{self.label} chose {_short(action)!r}, which is not legal "
                                f"(legal: {', '.join(legal)})", "illegal")
        return action

    def end(self, view: dict, returns: list[float]) -> None:
        if self.proc is not None and self.dead is None and self.proc.poll() is None:
            try:
                self._send({"type": "end", "view": view, "returns": list(returns)})
            except ProtocolError:
                pass

    def close(self) -> None:
        proc = self.proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                proc.stdin.write(json.dumps({"type": "quit"}) + "\n")
                proc.stdin.flush()
                proc.stdin.close()
                proc.wait(timeout=2)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                self._kill()
        for stream in (proc.stdout, proc.stderr, proc.stdin):
            try:
                stream.close()
            except (OSError, ValueError):
                pass
        self.proc = None

    def __repr__(self) -> str:
        return f"<ExternalBot {self.label!r}>"


# --- stich engine: a stich bot speaking the protocol --------------------------------------------------
def serve(bot_name: str, seed: int | None = None, budget=None, stdin=None, stdout=None) -> int:
    """Answer the protocol on ``stdin``/``stdout`` with the stich bot ``bot_name`` (``stich engine``).

    Each ``hello`` starts a new match with a fresh bot (seeded from ``seed`` and the seat, or
    from the ``seed`` in the hello when ``seed`` is None).  A malformed message gets an
    ``{"type": "error", "message": ...}`` answer and the loop goes on; ``quit`` or the end
    of the input ends it.  Returns the exit status (0).
    """
    import sys

    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    budget = Budget.parse(budget)
    make_bot(bot_name)  # fail early on an unknown name
    bot = None

    def send(msg):
        stdout.write(json.dumps(msg, ensure_ascii=False) + "\n")
        stdout.flush()

    for line in stdin:
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
            if not isinstance(msg, dict):
                raise ValueError("a message is a JSON object")
        except ValueError as exc:
            send({"type": "error", "message": f"malformed message {_short(line.strip())!r}: {exc}"})
            continue
        kind = msg.get("type")
        try:
            if kind == "hello":
                if msg.get("protocol", PROTOCOL) != PROTOCOL:
                    raise ValueError(f"unsupported protocol {msg.get('protocol')!r}; this is {PROTOCOL}")
                seat = msg.get("seat") or 0
                bseed = msg.get("seed") if seed is None else (seed * 1000003 + int(seat)) % 2**63
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
                send({"type": "action", "action": bot.choose(view, legal)})
            elif kind == "end":
                if bot is not None:
                    bot.end(msg.get("view") or {}, msg.get("returns") or [])
            elif kind == "quit":
                break
            else:
                raise ValueError(f"unknown message type {kind!r}")
        except Exception as exc:  # noqa: BLE001 - answered, never fatal
            send({"type": "error", "message": f"{type(exc).__name__}: {exc}"})
    if bot is not None:
        bot.close()
    return 0
