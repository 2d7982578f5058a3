"""Structured logging: one JSON object per line on stderr (never a token, a seed or a hidden card).

Lines about a table carry its id (``table``) and its ``seq`` then, so one table's story can be cut
out of the log with ``jq 'select(.table == "...")'``.  The server never passes a token or a seed
to a log line; as a second guard the formatter drops fields of those names and blanks the
``token=`` of any URL that a library puts into a message (uvicorn logs request paths)."""

from __future__ import annotations

import json
import logging
import re
import sys
import time

#: field names a log line never carries, whoever passes them
SECRET_FIELDS = frozenset({"token", "token_hash", "seed", "secret", "setup", "hands", "password", "code",
                           "session"})
_TOKEN_IN_URL = re.compile(r"(token=)[^&\s\"'#]+")


def redact(text: str) -> str:
    """``text`` with the value of every ``token=`` query parameter replaced."""
    return _TOKEN_IN_URL.sub(r"\1[redacted]", text)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {"ts": round(record.created, 3), "level": record.levelname.lower(), "logger": record.name,
               "event": redact(record.getMessage())}
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            out.update((k, v) for k, v in fields.items() if k not in SECRET_FIELDS and k not in out)
        if record.exc_info:
            out["exc"] = redact(self.formatException(record.exc_info))
        return json.dumps(out, ensure_ascii=False, default=str)


def setup(level: str = "info") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    for name in ("stich.web", "uvicorn", "uvicorn.error"):  # uvicorn's own lines as JSON too
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level.upper() if name == "stich.web" else max(logging.WARNING, logging.getLevelName(
            level.upper())))
        logger.propagate = False
    logging.getLogger("uvicorn.access").disabled = True


def event(logger: logging.Logger, name: str, level: int = logging.INFO, **fields) -> None:
    """Log ``name`` with ``fields`` as JSON keys."""
    logger.log(level, name, extra={"fields": fields})


__all__ = ["JsonFormatter", "setup", "event", "redact", "time"]
