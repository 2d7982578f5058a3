"""``cmd:PROGRAM`` bots: outside programs speaking the stich-bot protocol (:mod:`stich.protocol`), seated
as bots at stich's tables.

Here, in a bot module built on the protocol, so that neither ``stich.bots.base`` nor the protocol imports
the other's side: ``make_bot("cmd:./mybot --fast")`` finds the factory registered below when it first
needs it."""

from __future__ import annotations

import json
import os
import queue
import select
import shlex
import signal
import subprocess
import threading
import time
from collections import deque

from stich.bots.base import Bot, register_bot_factory
from stich.protocol import ACT_GRACE, HELLO_TIMEOUT, MAX_LINE, MAX_QUEUED, PROTOCOL, ProtocolError, shorten

TOO_LONG = object()  # queued in place of a line longer than MAX_LINE


class ExternalBot(Bot):
    """A program that speaks the stich-bot protocol, seated as a bot (``cmd:PROGRAM ARGS``).

    The program is started on the first decision (``hello`` is built from the view: game,
    variant, options, seat) and stopped by :meth:`close`.  Its stderr is collected; the last
    lines are quoted when it crashes.  Every failure raises :class:`ProtocolError` naming the
    bot and what it sent; the table reports it and plays a fallback action.  After a crash or
    a timeout the program is stopped and every later decision raises at once (fatal).

    What a program cannot do to the table: hang it (the deadline is checked on every line it
    writes and on every write to it), fill its memory (lines over :data:`MAX_LINE` bytes are
    refused, at most :data:`MAX_QUEUED` lines wait), shift answers (an answer carrying another
    request's ``id`` is dropped), or outlive it (it runs in its own process group, and the whole
    group is killed when it is stopped).
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
        self._lines: queue.Queue = queue.Queue(maxsize=MAX_QUEUED)
        self._stderr: deque = deque(maxlen=20)
        self._requests = 0
        self._stop = threading.Event()

    # --- process handling ----------------------------------------------------------------------
    def _start(self, view: dict) -> None:
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, cwd=self.cwd,
                                         env=dict(os.environ, PYTHONUNBUFFERED="1"),
                                         start_new_session=True)  # its own process group: killed whole
        except OSError as exc:
            self._die(f"cannot start {self.command!r}: {exc}", "crash")
        os.set_blocking(self.proc.stdin.fileno(), False)  # writes wait with a deadline (select)
        threading.Thread(target=self._pump, args=(self.proc.stdout,), daemon=True).start()
        threading.Thread(target=self._pump_err, args=(self.proc.stderr,), daemon=True).start()
        hello = {"type": "hello", "protocol": PROTOCOL, "game": view.get("game"), "variant": view.get("variant"),
                 "options": view.get("options", {}), "seat": view.get("seat"),
                 "num_players": view.get("num_players"), "seed": self.seed,
                 "budget": str(self.budget) if self.budget else None}
        self._send(hello, self.hello_timeout)
        try:
            msg = self._receive(self.hello_timeout, "hello")
        except ProtocolError as exc:
            if exc.fatal:
                raise
            self._die(str(exc), exc.kind)  # no handshake, no game: stop the program
        if msg.get("type") != "ready":
            self._die(f"{self.label} answered hello with {shorten(json.dumps(msg))}; expected "
                      '{"type": "ready", "name": ...}', "malformed")
        self.program_name = shorten(msg.get("name") or self.command, 100)

    def _put(self, item) -> bool:
        """Queue a line for the table; wait while the queue is full (the program then blocks on its
        pipe), give up once the bot is closed."""
        while not self._stop.is_set():
            try:
                self._lines.put(item, timeout=0.2)
                return True
            except queue.Full:
                continue
        return False

    def _pump(self, stream) -> None:
        try:
            while True:
                line = stream.readline(MAX_LINE + 1)
                if not line:
                    break
                if len(line) > MAX_LINE and not line.endswith(b"\n"):
                    while line and not line.endswith(b"\n"):  # skip the rest of the line, unread
                        line = stream.readline(MAX_LINE)
                    line = TOO_LONG
                if not self._put(line):
                    break
        except (OSError, ValueError):
            pass
        self._put(None)  # end of output
        _close_quietly(stream)

    def _pump_err(self, stream) -> None:
        try:
            while True:
                line = stream.readline(4096)
                if not line or self._stop.is_set():
                    break
                self._stderr.append(shorten(line.decode("utf-8", "replace").rstrip("\n")))
        except (OSError, ValueError):
            pass
        _close_quietly(stream)

    def _stderr_tail(self) -> str:
        time.sleep(0.05)  # let the stderr reader catch the last lines
        tail = "\n".join(list(self._stderr)[-5:])
        return f"; its stderr ends with:\n{tail}" if tail else ""

    def _die(self, message: str, kind: str):
        self.dead = ProtocolError(message, kind, fatal=True)
        self._kill()
        raise self.dead

    def _exited(self, timeout: float = 0.0) -> int | None:
        """Wait up to ``timeout`` s for the program to end, **without reaping it**: its exit status
        (negative: killed by that signal), or None while it runs.

        Unreaped, its process id stays taken, so its process group id cannot pass to an unrelated
        process before :meth:`_kill` has killed the group."""
        proc = self.proc
        if proc is None:
            return None
        if proc.returncode is not None:
            return proc.returncode
        deadline = time.monotonic() + timeout
        while not hasattr(os, "waitid"):  # macOS before Python 3.13: poll, which reaps
            code = proc.poll()
            if code is not None or time.monotonic() >= deadline:
                return code
            time.sleep(0.01)
        while True:
            try:
                info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:  # reaped elsewhere
                return proc.returncode if proc.returncode is not None else -1
            if info is not None and info.si_pid:
                return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.01)

    def _kill(self) -> None:
        """Kill the program's whole process group (a wrapper script's children too), then reap it."""
        proc = self.proc
        if proc is None:
            return
        _close_quietly(proc.stdin)  # first: a program waiting for input sees the end of it
        if proc.returncode is None:  # not reaped yet, so the group id is still this program's
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass

    def _send(self, msg: dict, timeout: float | None = None) -> None:
        """Write one message; a program that stops reading its input is timed out like a silent one."""
        data = memoryview((json.dumps(msg, ensure_ascii=False) + "\n").encode("utf-8"))
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        try:
            fd = self.proc.stdin.fileno()
            while data:
                left = deadline - time.monotonic()
                if left <= 0:
                    self._die(f"{self.label} did not read its input within {limit:g}s", "timeout")
                _, ready, _ = select.select([], [fd], [], left)
                if not ready:
                    continue
                try:
                    data = data[os.write(fd, data):]
                except BlockingIOError:
                    continue
        except (OSError, ValueError) as exc:
            code = self._exited(0.2)
            self._die(f"{self.label} stopped reading its input ({exc}; exit status {code})"
                      + self._stderr_tail(), "crash")

    def _receive(self, timeout: float, what: str, request: int | None = None) -> dict:
        """The next message answering ``what``; the deadline holds however many lines the program writes.

        Blank lines and ``log`` messages are skipped, and so is an answer whose ``id`` is not
        ``request`` (a late or extra answer to an earlier request)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                if left <= 0:
                    raise queue.Empty
                line = self._lines.get(timeout=left)
            except queue.Empty:
                self._die(f"{self.label} did not answer {what} within {timeout:g}s", "timeout")
            if line is None:
                self._lines.put(None)  # stays the end for whoever asks next
                self._ended(what)
            if line is TOO_LONG:
                raise ProtocolError(f"{self.label} sent a line longer than {MAX_LINE} bytes in answer to {what}",
                                    "malformed")
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError:
                raise ProtocolError(f"{self.label} sent bytes that are not UTF-8 text in answer to {what}: "
                                    f"{shorten(line)}", "malformed") from None
            if not text.strip():
                continue  # blank lines are ignored
            try:
                msg = json.loads(text)
            except (ValueError, RecursionError) as exc:
                reason = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
                raise ProtocolError(f"{self.label} sent malformed JSON in answer to {what}: "
                                    f"{shorten(text.strip())!r} ({reason})", "malformed") from None
            if not isinstance(msg, dict):
                raise ProtocolError(f"{self.label} sent {shorten(text.strip())!r} in answer to {what}; "
                                    "a message is a JSON object", "malformed")
            if msg.get("type") == "log":
                self._stderr.append(shorten(msg.get("message", "")))
                continue  # free-form logging, allowed at any time
            if request is not None and "id" in msg and str(msg["id"]) != str(request):
                continue  # an answer to an earlier request, arrived late: dropped
            return msg

    def _ended(self, what: str):
        """The program's output ended: it exited, or closed its output and lives on (stopped either way)."""
        code = self._exited(0.5)
        if code is None:
            self._die(f"{self.label} closed its output without exiting, instead of answering {what}; "
                      "it was stopped" + self._stderr_tail(), "crash")
        self._die(f"{self.label} exited (status {code}) instead of answering {what}" + self._stderr_tail(), "crash")

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
        msg = self._receive(self.timeout, f"act #{self._requests}", request=self._requests)
        kind = msg.get("type")
        if kind == "error":
            raise ProtocolError(f"{self.label} reported an error: {shorten(msg.get('message'))}", "error")
        if kind != "action" or not isinstance(msg.get("action"), str):
            raise ProtocolError(f"{self.label} answered act with {shorten(json.dumps(msg))}; expected "
                                '{"type": "action", "action": "<one of legal>"}', "malformed")
        action = msg["action"]
        if action not in legal:
            raise ProtocolError(f"{self.label} chose {shorten(action)!r}, which is not legal "
                                f"(legal: {shorten(', '.join(legal), 1000)})", "illegal")
        return action

    def end(self, view: dict, returns: list[float]) -> None:
        if self.proc is not None and self.dead is None and self._exited() is None:
            try:
                self._send({"type": "end", "view": view, "returns": list(returns)}, timeout=2.0)
            except ProtocolError:
                pass

    def close(self) -> None:
        """Say ``quit``, close the program's input, give it 2 s to exit, then kill its process group."""
        proc = self.proc
        if proc is None:
            return
        if self.dead is None and self._exited() is None:
            try:
                self._send({"type": "quit"}, timeout=1.0)
                _close_quietly(proc.stdin)
                self._exited(2.0)
            except ProtocolError:
                pass
        self._kill()  # the group: children a wrapper left behind, or a program that did not exit
        self._stop.set()  # the reader threads close their pipes themselves
        self.proc = None

    def __repr__(self) -> str:
        return f"<ExternalBot {self.label!r}>"


def _close_quietly(stream) -> None:
    try:
        if stream is not None:
            stream.close()
    except (OSError, ValueError):
        pass


register_bot_factory("cmd", ExternalBot)
