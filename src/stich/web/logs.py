"""Structured logging: one JSON object per line on stderr (never a token, a seed or a hidden card)."""

from __future__ import annotations

import json
import logging
import sys
import time


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {"ts": round(record.created, 3), "level": record.levelname.lower(), "logger": record.name,
               "event": record.getMessage()}
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            out.update(fields)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
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


__all__ = ["JsonFormatter", "setup", "event", "time"]
