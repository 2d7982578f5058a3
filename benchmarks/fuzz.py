"""The long fuzz run: ``python benchmarks/fuzz.py [--examples N] [-k PATTERN]``.

Runs the properties of ``tests/test_fuzz.py`` (``apply``, ``new_state``, ``replay``, the record
loader, the ``stich-bot/1`` messages) with ``N`` examples each (default 5,000; CI runs 40) and
reports the time taken.  Exit status 0 when every property holds; a failure prints hypothesis's
smallest failing example.
"""

import argparse
import os
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Fuzz the engine, records and protocol for longer than CI does.")
    parser.add_argument("--examples", "-n", type=int, default=5000, help="examples per property (default 5000)")
    parser.add_argument("-k", dest="pattern", help="only the properties whose name contains this")
    args = parser.parse_args(argv)
    if args.examples < 1:
        parser.error("--examples must be at least 1")
    os.environ["STICH_FUZZ_EXAMPLES"] = str(args.examples)
    start = time.perf_counter()
    extra = ["-k", args.pattern] if args.pattern else []
    code = pytest.main(["-q", "-p", "no:cacheprovider", "--timeout=0", str(ROOT / "tests" / "test_fuzz.py"), *extra])
    print(f"fuzz: {args.examples} examples per property in {time.perf_counter() - start:.1f}s "
          f"({'all hold' if code == 0 else 'FAILED'})")
    return int(code)


if __name__ == "__main__":
    sys.exit(main())
