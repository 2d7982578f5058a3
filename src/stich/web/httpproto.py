"""uvicorn's HTTP protocol with deadlines for a request's head and body (issue #35: slowloris).

uvicorn times out only an idle keep-alive connection, and only until its first byte: a client that
sends half a request line, or a header a minute, or announces a body and never sends it, holds its
connection (and a file descriptor, and the parser's buffers) for ever.  500 such connections were
held open in the probe.  Here a request's head must be complete ``header_seconds`` after the
connection opened (or the previous answer was sent), its body ``body_seconds`` after the head, and a
head may not grow past :data:`MAX_HEAD` bytes; otherwise the connection gets ``408`` (``431``) and is
closed.  A WebSocket upgrade leaves this protocol once its head is read (the socket has its own
pings).  The deadlines are fixed when set, not renewed by each byte: a trickle does not extend them."""

from __future__ import annotations

import json

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from stich.web import metrics

MAX_HEAD = 64 * 1024      # bytes of a request line and headers (browsers send 1-2 KiB)


def _answer(status: int, reason: str, message: str) -> bytes:
    body = json.dumps({"error": message}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            "connection: close\r\n\r\n").encode() + body


def protocol_class(header_seconds: float, body_seconds: float) -> type:
    """An ``HttpToolsProtocol`` with these deadlines (for ``uvicorn.Config(http=...)``)."""

    class TimedHttpProtocol(HttpToolsProtocol):
        _deadline = None       # the TimerHandle of the head's or the body's deadline
        _head_bytes = 0
        _in_body = False

        def _arm(self, seconds: float, what: str) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(seconds, self._expired, what)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expired(self, what: str) -> None:
            self._deadline = None
            if self.transport.is_closing():
                return
            metrics.error("timed_out")
            if what == "head" or (self.cycle is not None and not self.cycle.response_started):
                self.transport.write(_answer(408, "Request Timeout", f"the request's {what} did not arrive "
                                                                     "in time"))
            self.transport.close()

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._arm(header_seconds, "head")

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            # still reading a head after these bytes (a body that came with its head does not count)
            if self._deadline is not None and not self._in_body and not self.transport.is_closing():
                self._head_bytes += len(data)
                if self._head_bytes > MAX_HEAD:
                    self._disarm()
                    self.transport.write(_answer(431, "Request Header Fields Too Large",
                                                 f"the request's head is larger than {MAX_HEAD} bytes"))
                    self.transport.close()

        def on_headers_complete(self) -> None:
            self._disarm()
            self._head_bytes = 0
            upgrade = self.parser.should_upgrade() and self._should_upgrade()
            super().on_headers_complete()
            if not upgrade:   # the body, if any, has its own deadline; an upgrade leaves this protocol
                self._in_body = True
                self._arm(body_seconds, "body")

        def on_message_complete(self) -> None:
            self._disarm()
            self._in_body = False
            super().on_message_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self._deadline is None and not self._in_body:
                # keep-alive: uvicorn's own timer ends an idle connection; once a next request begins,
                # its head has the same deadline as the first one's
                self._arm(header_seconds + self.timeout_keep_alive, "head")

    return TimedHttpProtocol
