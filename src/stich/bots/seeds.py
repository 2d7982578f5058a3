"""One-way seeds for bots: a bot's seed must never lead back to the deal.

A bot that knows the match seed can call ``new_state(seed=...)`` and see every hand, so a
bot's seed is a keyed hash (HMAC-SHA256) of a **secret** key and public parts (the seat, the
move number, ...).  Without the key, the seed says nothing about the key or the deal; with
the same key, the same bots are rebuilt (a resumed match, a rerun arena).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_key() -> str:
    """A fresh secret key (128 random bits, as hex text that fits in a JSON record)."""
    return secrets.token_hex(16)


def one_way_seed(key, *parts) -> int:
    """A 63-bit seed from a secret ``key`` and ``parts``; learning it reveals neither ``key`` nor the deal."""
    raw = key if isinstance(key, bytes) else str(key).encode()
    msg = "/".join(map(str, parts)).encode()
    return int.from_bytes(hmac.new(raw, msg, hashlib.sha256).digest()[:8], "big") % 2**63
