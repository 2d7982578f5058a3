"""JSON from a client - an API body, a socket message, an uploaded record - read with a specific
error for everything that is not plain JSON the server can keep: not UTF-8, not JSON, nested deeper
than anything stich sends (a deeply nested body made ``json.loads`` or later code recurse past
Python's limit: a plain-text 500), or text with a lone surrogate (valid JSON escapes, but no
Unicode: the database write failed later with a 500, or the socket went silent)."""

from __future__ import annotations

import json

#: how deep a client's JSON may nest: a record, stich's deepest document, nests about 6 deep
MAX_DEPTH = 32


class BadJSON(ValueError):
    """The client's JSON cannot be taken; the message says why, naming ``what`` was sent."""


def loads(raw: str | bytes, what: str):
    """The value of ``raw``, or :class:`BadJSON` (``what``: "the request body", "a message" ...)."""
    if isinstance(raw, (bytes, bytearray)):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadJSON(f"{what} is not UTF-8 text") from None
    try:
        value = json.loads(raw)
    except RecursionError:
        raise BadJSON(f"{what} is nested more than {MAX_DEPTH} deep") from None
    except ValueError as exc:
        raise BadJSON(f"{what} is not valid JSON: {exc}") from None
    check(value, what)
    return value


def check(value, what: str) -> None:
    """:class:`BadJSON` where ``value`` nests deeper than :data:`MAX_DEPTH` or holds text that is not
    Unicode (walked without recursion, so any depth is answered)."""
    todo = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if depth > MAX_DEPTH:
            raise BadJSON(f"{what} is nested more than {MAX_DEPTH} deep")
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise BadJSON(f"{what} holds text that is not valid Unicode (a lone surrogate)") from None
        elif isinstance(item, dict):
            for key, v in item.items():
                todo.append((key, depth + 1))
                todo.append((v, depth + 1))
        elif isinstance(item, list):
            todo.extend((v, depth + 1) for v in item)
