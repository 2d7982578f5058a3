"""The keys of a tournament: the director's token (stored hashed, checked in constant time) and each
person's token derived from it, so that the director's page can show every person's link again."""

from __future__ import annotations

import base64
import hashlib
import hmac

from stich.web.tokens import token_hash


def check_token(stored: str | None, given) -> bool:
    return isinstance(given, str) and stored is not None and hmac.compare_digest(stored, token_hash(given))


def player_token(director: str, tid: str, number: int) -> str:
    """A person's token, derived from the director's (HMAC-SHA256): tokens are stored hashed only, so this is
    how the director's page can show each person's link again; without the director's token nobody can
    derive it (it is as unguessable as ``new_token``'s 192 bits)."""
    mac = hmac.new(director.encode(), f"stich tournament {tid} player {number}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:24]).decode()
