"""Limits on what one client address, one table or one socket may spend of the server (issue #35).

:class:`Limits` reads every limit from its ``STICH_*`` environment variable once, at start-up (a bad
value is one line before anything listens); :class:`Quotas` keeps the counts.  Rates are moving
windows of the ``limits`` package kept in memory: one process counts for itself (several processes
behind a balancer each count their own clients, see docs/scaling.md, "Limits").  The table of limits,
defaults and answers is in docs/web-protocol.md ("Limits")."""

from __future__ import annotations

import ipaddress
import itertools
import math
import os
import time
from dataclasses import dataclass

from limits import storage, strategies

from stich.web.settings import env_int, env_rates, env_seconds

#: close codes of the socket (docs/web-protocol.md)
TOO_MANY = 4429        # a limit on sockets or messages
BAD_INPUT = 4400       # bad query, or too many messages that are not protocol messages
FORBIDDEN = 4403       # a token of no seat here
# a page of another site (Origin): not 4403, after which the table page forgets its seat's token
FOREIGN_ORIGIN = 4401

#: the socket's message types, by the rate that counts them
MESSAGE_RATES = {"act": "acts", "name": "names", "chat": "chats", "signal": "chats", "start": "names",
                 "ping": "pings", "pong": "pings", "resync": "pings"}


@dataclass(frozen=True)
class Limits:
    """Every limit, read from the environment (``Limits.from_env()``); see docs/web-protocol.md."""

    tables: list            # tables created (POST /api/tables, /api/quickplay) per address
    joins: list             # seats claimed (POST /api/tables/{id}/join) per address
    uploads: list           # records uploaded (POST /api/records) or replayed (POST /replay) per address
    analyses: list          # analyses asked for (POST /api/tables/{id}/analysis) per address
    players: list           # players created (POST /api/players) per address
    clubs: list             # clubs created (POST /api/clubs) per address
    opens: list             # sockets opened per address
    acts: list              # per socket: act
    refusals: list          # per socket: actions refused (illegal, out of turn, a spectator's)
    names: list             # per socket: name
    chats: list             # per socket: chat and signal
    pings: list             # per socket: ping, pong, resync
    sockets_per_address: int
    sockets_per_table: int
    spectators_per_table: int
    bad_messages: int       # per socket, before it is closed
    refusals_kept: int      # refused actions remembered per seat of a table
    record_seconds: float   # an uploaded record is kept this long
    sweep_seconds: float    # how often old uploads and unopened tables are deleted (stich.web.retention)
    unopened_seconds: float  # a table nobody ever opened is kept this long
    finished_seconds: float  # a finished table nobody watches stays in memory this long
    header_seconds: float   # a request's head must arrive within this
    body_seconds: float     # and its body within this after the head
    allowed_origins: frozenset
    metrics_token: str
    trusted_proxies: str    # whose X-Forwarded-For names the client (uvicorn's forwarded_allow_ips)

    @classmethod
    def from_env(cls) -> Limits:
        origins = os.environ.get("STICH_ALLOWED_ORIGINS", "")
        return cls(
            tables=env_rates("STICH_TABLES_PER_ADDRESS", "20/minute;120/hour"),
            joins=env_rates("STICH_JOINS_PER_ADDRESS", "30/minute"),
            uploads=env_rates("STICH_UPLOADS_PER_ADDRESS", "10/hour"),
            analyses=env_rates("STICH_ANALYSES_PER_ADDRESS", "10/minute;60/hour"),
            players=env_rates("STICH_PLAYERS_PER_ADDRESS", "10/minute;60/hour"),
            clubs=env_rates("STICH_CLUBS_PER_ADDRESS", "10/hour"),
            opens=env_rates("STICH_SOCKET_OPENS_PER_ADDRESS", "120/minute"),
            acts=env_rates("STICH_ACTS_PER_SOCKET", "100/second"),
            refusals=env_rates("STICH_REFUSALS_PER_SOCKET", "10/second;120/minute"),
            names=env_rates("STICH_NAMES_PER_SOCKET", "10/minute"),
            chats=env_rates("STICH_CHATS_PER_SOCKET", "30/minute"),
            pings=env_rates("STICH_PINGS_PER_SOCKET", "60/minute"),
            sockets_per_address=env_int("STICH_SOCKETS_PER_ADDRESS", 100, 1, 1_000_000),
            sockets_per_table=env_int("STICH_SOCKETS_PER_TABLE", 100, 1, 1_000_000),
            spectators_per_table=env_int("STICH_SPECTATORS_PER_TABLE", 50, 0, 1_000_000),
            bad_messages=env_int("STICH_BAD_MESSAGES", 10, 1, 1_000_000),
            refusals_kept=env_int("STICH_REFUSALS_KEPT", 100, 0, 1_000_000),
            record_seconds=env_seconds("STICH_RECORD_SECONDS", 30 * 86400, 1, 10 * 365 * 86400),
            sweep_seconds=env_seconds("STICH_SWEEP_SECONDS", 3600, 0.1, 86400),
            unopened_seconds=env_seconds("STICH_UNOPENED_TABLE_SECONDS", 2 * 86400, 1, 365 * 86400),
            finished_seconds=env_seconds("STICH_FINISHED_TABLE_SECONDS", 60, 0, 86400),
            header_seconds=env_seconds("STICH_HEADER_SECONDS", 10, 0.1, 3600),
            body_seconds=env_seconds("STICH_BODY_SECONDS", 30, 0.1, 3600),
            allowed_origins=frozenset(_origin(o) for o in origins.split(",") if o.strip()),
            metrics_token=os.environ.get("STICH_METRICS_TOKEN", ""),
            trusted_proxies=_proxies(os.environ.get("STICH_TRUSTED_PROXIES", "127.0.0.1,::1")),
        )


def _proxies(text: str) -> str:
    """Addresses or networks, comma-separated (uvicorn would take a typo for a host name that never
    matches, and the limits would then count the proxy as the only client)."""
    for item in filter(None, (i.strip() for i in text.split(","))):
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ValueError(f"STICH_TRUSTED_PROXIES lists addresses or networks such as "
                             f"'127.0.0.1,10.0.0.0/8', not {item!r}") from None
    return text


def _origin(text: str) -> str:
    """``scheme://host[:port]``, lower case, as a browser sends it in ``Origin``."""
    text = text.strip().lower().rstrip("/")
    if "://" not in text or "/" in text.split("://", 1)[1]:
        raise ValueError(f"STICH_ALLOWED_ORIGINS lists origins such as 'https://cards.example', not {text!r}")
    return text


def _said(rate) -> str:
    """'20 per 1 minute' as people say it: '20 per minute'."""
    return str(rate).replace(" per 1 ", " per ")


class Quotas:
    """The counts behind :class:`Limits`, for one process."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self._window = strategies.MovingWindowRateLimiter(storage.MemoryStorage())
        self.sockets: dict[str, int] = {}            # open sockets per address
        self.at_table: dict[str, list[int]] = {}     # table id -> [sockets, spectators] admitted here
        self._ids = itertools.count()
        self.metrics_port: int | None = None          # stich serve --metrics-address: its port

    # --- rates --------------------------------------------------------------------------------
    def spend(self, name: str, *key: str) -> float | None:
        """Count one of ``name`` (a rate of :class:`Limits`) for ``key``; None if within every rate,
        else the seconds until it would be (nothing is counted then)."""
        rates = getattr(self.limits, name)
        over = [r for r in rates if not self._window.test(r, name, *key)]
        if over:
            now = time.time()
            return max(max(self._window.get_window_stats(r, name, *key).reset_time - now, 1.0) for r in over)
        for r in rates:
            self._window.hit(r, name, *key)
        return None

    def refusal(self, name: str, what: str) -> str:
        """The sentence for an exceeded rate: 'too many tables created from this address: at most ...'."""
        return f"too many {what}: at most {' and '.join(_said(r) for r in getattr(self.limits, name))}"

    # --- sockets ------------------------------------------------------------------------------
    def may_open(self, address: str) -> tuple[str, float] | None:
        """Whether ``address`` may open one more socket: None, or why not and in how many seconds it
        may try again (asked before the handshake: a refused one costs no WebSocket)."""
        lim = self.limits
        if self.sockets.get(address, 0) >= lim.sockets_per_address:
            return f"too many open sockets from this address (at most {lim.sockets_per_address})", 1.0
        wait = self.spend("opens", address)
        if wait is not None:
            return self.refusal("opens", "sockets opened from this address"), wait
        return None

    def admit(self, address: str, table_id: str, spectator: bool) -> str | None:
        """Take a socket of ``address`` at ``table_id``: None, or why not (then nothing is counted)."""
        lim = self.limits
        if self.sockets.get(address, 0) >= lim.sockets_per_address:   # others opened since may_open
            return f"too many open sockets from this address (at most {lim.sockets_per_address})"
        here = self.at_table.get(table_id, [0, 0])
        if here[0] >= lim.sockets_per_table:
            return f"too many sockets at this table (at most {lim.sockets_per_table})"
        if spectator and here[1] >= lim.spectators_per_table:
            return f"too many spectators at this table (at most {lim.spectators_per_table})"
        self.sockets[address] = self.sockets.get(address, 0) + 1
        here = self.at_table.setdefault(table_id, [0, 0])
        here[0] += 1
        here[1] += spectator
        return None

    def leave(self, address: str, table_id: str, spectator: bool) -> None:
        """A socket :meth:`admit` took is closed."""
        n = self.sockets.get(address, 0) - 1
        if n > 0:
            self.sockets[address] = n
        else:
            self.sockets.pop(address, None)
        here = self.at_table.get(table_id)
        if here is not None:
            here[0] -= 1
            here[1] -= spectator
            if here[0] <= 0:
                del self.at_table[table_id]

    def socket_key(self) -> str:
        """A key for one socket's message rates (never reused, unlike ``id()``)."""
        return f"s{next(self._ids)}"

    def message(self, key: str, kind: str) -> str | None:
        """Count one message of ``kind`` on the socket ``key``: None, or why the socket is closed."""
        name = MESSAGE_RATES.get(kind)
        if name is None or self.spend(name, key) is None:
            return None
        return self.refusal(name, f"'{kind}' messages on this socket") + "; the socket is closed"


def refused_too_often(quotas: Quotas, key: str) -> str | None:
    """Count one refused action of the socket ``key``: None, or why the socket is closed."""
    if quotas.spend("refusals", key) is None:
        return None
    return quotas.refusal("refusals", "refused actions on this socket") + "; the socket is closed"


def retry_after(seconds: float) -> str:
    """A ``Retry-After`` value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))
