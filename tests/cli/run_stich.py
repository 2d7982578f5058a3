"""Run the ``stich`` command with the fixture game ``toy`` registered (for pexpect tests)."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "src"), ROOT]   # this checkout's stich before any installed one

import stich.engine  # noqa: E402

stich.engine.register("toy", "tests.cli.toygame:ToyGame")

from stich.cli.main import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
