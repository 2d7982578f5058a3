"""What every HTTP request passes first (issue #35): the browser security headers on every answer, the
per-address rates of the requests that create something (``429`` with ``Retry-After``), and who may
read ``/metrics`` (a bearer token, or a separate address); and the socket's ``Origin`` check.

One small ASGI middleware (:class:`Guard`); the limits themselves are in :mod:`stich.web.quotas`."""

from __future__ import annotations

import hmac
import json
from urllib.parse import urlsplit

from stich.web import metrics
from stich.web.quotas import Quotas, retry_after

# No inline script or style anywhere: the pages load /static/stich.js and stich.css only, and their
# data blocks are <script type="application/json">, which CSP does not run.  'self' covers the
# page's own ws:// or wss:// socket.  No framing (clickjacking of the table's buttons).
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
# Invite links carry a seat's token in the query (/t/ID?token=...): no page may send its address on,
# not even to this server (no-referrer rather than same-origin: its own logs should not hold tokens).
HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY")]

#: the requests that create something, by the rate of :class:`~stich.web.quotas.Limits` they count for
RATED = {("POST", "/api/tables"): ("tables", "tables created from this address"),
         ("POST", "/api/quickplay"): ("tables", "tables created from this address"),
         ("POST", "/api/tournaments"): ("tables", "tables created from this address"),
         ("POST", "/tournaments/new"): ("tables", "tables created from this address"),   # the director's form
         ("POST", "/api/records"): ("uploads", "records uploaded from this address"),
         ("POST", "/replay"): ("uploads", "records uploaded from this address"),
         ("POST", "/api/players"): ("players", "players created from this address"),
         ("POST", "/api/clubs"): ("clubs", "clubs created from this address"),
         ("POST", "/api/me/again"): ("tables", "tables created from this address")}
JOIN = ("joins", "seats claimed from this address")
ANALYSIS = ("analyses", "analyses asked for from this address")
#: a club's table started from a preset (POST /api/clubs/{club}/presets/{preset}/start) is a table created
CLUB_START = ("tables", "tables created from this address")
#: what a separate metrics address serves (besides /metrics)
METRICS_SIDE = ("/metrics", "/healthz", "/readyz")


def _rated(method: str, path: str):
    if method == "POST" and path.endswith("/join") and path.startswith(("/api/tables/", "/api/clubs/")):
        return JOIN   # a public table's seat, or a club table's (/api/clubs/{club}/tables/{table}/join)
    if method == "POST" and path.startswith("/api/me/invitations/"):
        return JOIN   # a new link to a seat reserved for the player
    if method == "POST" and path.startswith("/api/clubs/") and path.endswith("/start"):
        return CLUB_START
    if method == "POST" and path.startswith("/api/tables/") and path.endswith("/analysis"):
        return ANALYSIS

    if method == "POST" and (path.startswith("/api/tournaments/") and path.endswith("/rounds")
                             or path.startswith("/tournaments/") and path.endswith("/draw")):
        return RATED[("POST", "/api/tables")]   # a round's draw makes its tables (the API's, the director's form)
    return RATED.get((method, path))


def address(scope) -> str:
    """The client's address: the peer's, or where a trusted proxy says the request came from
    (uvicorn's proxy headers, ``STICH_TRUSTED_PROXIES``, have set ``client`` already)."""
    client = scope.get("client")
    return client[0] if client else "unknown"


class Guard:
    """ASGI middleware: headers, rates and the metrics door (see the module's docstring)."""

    def __init__(self, app, quotas: Quotas):
        self.app = app
        self.quotas = quotas

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = dict(message, headers=list(message.get("headers", [])) + HEADERS)
            await send(message)

        answer = self._door(scope)
        if answer is not None:
            status, body, extra = answer
            return await _json(send_with_headers, status, body, extra)
        return await self.app(scope, receive, send_with_headers)

    def _door(self, scope):
        """(status, body, headers) when the request is answered here, else None."""
        path, method = scope["path"], scope["method"]
        port = self.quotas.metrics_port
        if port is not None:   # /metrics on its own address only, and nothing else there
            on_metrics_side = (scope.get("server") or (None, None))[1] == port
            if on_metrics_side and path not in METRICS_SIDE:
                return 404, {"error": "this address serves /metrics, /healthz and /readyz only"}, []
            if path == "/metrics" and not on_metrics_side:
                return 404, {"error": "metrics are served on their own address"}, []
        if path == "/metrics" and self.quotas.limits.metrics_token:
            given = dict(scope["headers"]).get(b"authorization", b"").decode("latin-1")
            expected = f"Bearer {self.quotas.limits.metrics_token}"
            if not hmac.compare_digest(given.encode("latin-1"), expected.encode("latin-1", "replace")):
                return 401, {"error": "metrics need 'Authorization: Bearer' with the metrics token"}, [
                    (b"www-authenticate", b'Bearer realm="stich metrics"')]
        rated = _rated(method, path)
        if rated is not None:
            name, what = rated
            wait = self.quotas.spend(name, address(scope))
            if wait is not None:
                metrics.error("rate_limited")
                return 429, {"error": self.quotas.refusal(name, what) + f"; try again in {retry_after(wait)} s"}, [
                    (b"retry-after", retry_after(wait).encode())]
        return None


async def _json(send, status: int, body: dict, extra: list) -> None:
    data = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(data)).encode()), *extra]})
    await send({"type": "http.response.body", "body": data})


def origin_problem(headers, allowed: frozenset) -> str | None:
    """Why a socket's ``Origin`` is refused, or None.  No ``Origin`` (a program, not a browser) is
    allowed; a browser's must be this server's own (the ``Host`` it asked for) or one of
    ``STICH_ALLOWED_ORIGINS``: another site's page must not open a socket with a visitor's token."""
    origin = headers.get("origin")
    if origin is None:
        return None
    origin = origin.strip().lower().rstrip("/")
    if origin in allowed:
        return None
    host = (headers.get("host") or "").strip().lower()
    try:
        parts = urlsplit(origin)
        netloc, hostname = parts.netloc, parts.hostname or ""
    except ValueError:
        netloc = hostname = ""
    # a proxy may pass the Host without the port the browser used (nginx's $host): the name must match
    if host and (netloc == host or (":" not in host.rsplit("]", 1)[-1] and hostname == host.strip("[]"))):
        return None
    return f"a page of {origin} may not open this server's sockets (its Origin is not allowed)"
