"""The whole suite runs with the bots strict: a fallback of a bot because game code raised (a
heuristic, a ranking, a world sampler: ``stich.bots.fallbacks``) raises instead of being counted,
so a broken companion fails a test rather than quietly changing how a bot plays.  The environment
variable carries it into the processes the tests start (a CLI, a server, bot workers)."""

import os

os.environ["STICH_BOTS_STRICT"] = "1"

from stich.bots import fallbacks  # noqa: E402 - after the variable, for the processes started from here

fallbacks.STRICT = True

# pytest-xdist's workers are started by execnet with COLUMNS=80 and LINES=24 in their environment; the
# suite runs as it does without workers (the CLI's output to a pipe is 120 columns wide unless COLUMNS
# says otherwise), so those two made-up values are dropped in a worker
if os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get("COLUMNS") == "80":
    os.environ.pop("COLUMNS", None)
    os.environ.pop("LINES", None)
