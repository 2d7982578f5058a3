"""Run the ``stich`` command with the fixture game ``toy`` registered (for pexpect tests)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import stich.engine  # noqa: E402

stich.engine.register("toy", "tests.cli.toygame:ToyGame")

from stich.cli.main import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
