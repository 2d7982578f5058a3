"""Reading records from files and text with limits: every failure is a :class:`RecordError` naming the file.

Records are made to be shared, so a record file is untrusted input: it may be huge, binary,
nested a hundred thousand levels deep or not JSON at all.  None of that may end in a traceback.
"""

from __future__ import annotations

import json
import os

from stich.engine.errors import RecordError

#: the largest record file read (bytes); the longest match of any of stich's games is well under 1 MiB
MAX_RECORD_BYTES = 64 << 20
#: the longest piece of input quoted in an error message
QUOTE = 80


def quote(value, limit: int = QUOTE) -> str:
    """``repr(value)``, cut to ``limit`` characters: an error message never carries the whole input."""
    try:
        text = repr(value)
    except RecursionError:
        return f"a {type(value).__name__} nested too deeply to show"
    return text if len(text) <= limit else text[:limit] + f"… ({len(text)} characters)"


def parse_json(text: str | bytes, where: str = "the record") -> object:
    """JSON text -> value; RecordError (naming ``where``) for bytes that are not UTF-8, bad JSON or deep nesting."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError(f"{where} is not UTF-8 text (byte {exc.start} is {text[exc.start]:#04x}); "
                              "a record is a JSON file") from None
    try:
        return json.loads(text)
    except RecursionError:
        raise RecordError(f"{where} is nested too deeply to be a record") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where} is not a JSON record: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except ValueError as exc:  # e.g. an integer with too many digits
        raise RecordError(f"{where} is not a JSON record: {quote(str(exc), 200)}") from None


def load_record(path) -> dict:
    """The record in the file ``path`` (a JSON object); RecordError naming the file when it cannot be one."""
    where = os.fspath(path)
    try:
        size = os.path.getsize(where)
        if size > MAX_RECORD_BYTES:
            raise RecordError(f"{where} is {size} bytes; a record is at most {MAX_RECORD_BYTES}")
        with open(where, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise RecordError(f"cannot read {where}: {exc.strerror or exc}") from None
    rec = parse_json(data, where)
    if not isinstance(rec, dict):
        raise RecordError(f"{where} is not a record: a record is a JSON object, not {type(rec).__name__}")
    return rec


def save_record(path, rec: dict) -> None:
    """Write ``rec`` to ``path`` atomically: a temporary file beside it, fsync, rename, fsync the folder.

    Whenever the writer is killed, ``path`` holds the old record or the new one, never a torn one."""
    where = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(where))
    tmp = os.path.join(folder, f".{os.path.basename(where)}.tmp")  # one name: a killed writer leaves one file
    data = (json.dumps(rec, ensure_ascii=False) + "\n").encode("utf-8")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, where)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
