"""Plumbing of :mod:`stich.engine.core` kept apart: the generated slot copiers of ``State.clone`` and
the seeded permutation of every shuffle."""

from __future__ import annotations

import hashlib
import struct


def _slot_function(names, header: str, statement: str):
    """A function ``header`` whose body is ``statement`` (with ``{n}``) for every slot name, as plain
    statements (generated, as dataclasses does: setattr() in a loop costs ten times as much, and
    clone() is hot in search)."""
    ns: dict = {}
    exec(f"def {header}:\n" + "".join("    " + statement.format(n=n) + "\n" for n in names), ns)
    return ns[header.split("(")[0]]


def _slot_copier(names):
    """``copy(a, b)``: ``b.<name> = a.<name>`` for every name."""
    return _slot_function(names, "copy(a, b)", "b.{n} = a.{n}")


def _slot_clearer(names):
    """``clear(a)``: ``a.<name> = None`` for every name."""
    return _slot_function(names, "clear(a)", "a.{n} = None")


_UNPACKERS: dict[int, struct.Struct] = {}


def _permutation(n: int, key: bytes) -> list[int]:
    unpack = _UNPACKERS.get(n)
    if unpack is None:
        unpack = _UNPACKERS[n] = struct.Struct(f"<{n}I")
    sort_keys = unpack.unpack(hashlib.shake_128(key).digest(4 * n))
    # Ties of two 32-bit keys (about 1 in 10**7 deals of 52 cards) keep index order: harmless.
    return sorted(range(n), key=sort_keys.__getitem__)
