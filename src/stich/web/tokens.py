"""The random names and capabilities of the table server: ids of tables, tournaments and records, seat
tokens (shown once, stored only as SHA-256 hashes) and a seat's address.  Apart from the server so that
what only needs a token (a rematch, a registration, the socket) does not lean on the server's core."""

from __future__ import annotations

import hashlib
import secrets


def new_id() -> str:
    return secrets.token_urlsafe(9)  # 12 characters, 72 random bits


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def seat_url(table_id: str, token: str) -> str:
    return f"/t/{table_id}?token={token}"
