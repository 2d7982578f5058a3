"""The repository's scripts (``benchmarks/``, ``examples/``) loaded as modules, for their tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_script(relative: str, name: str | None = None):
    """The script at ``relative`` (to the repository's root), run as a fresh module named ``name``
    (default: its file name)."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
