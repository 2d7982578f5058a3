"""Run the stich benchmark: ``python benchmarks/run.py [--game G] [--variant V] [--seconds S]``.

The same as ``stich bench``; the logic lives in :mod:`stich.cli.bench`.
"""

import argparse
import sys

from stich.cli.bench import run_bench


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Random-play speed of the stich games (vs OpenSpiel when installed).")
    parser.add_argument("--game", "-g", help="only this game (default: all)")
    parser.add_argument("--variant", "-v", help="only this variant")
    parser.add_argument("--seconds", "-s", type=float, default=2.0, help="seconds per measurement (default 2)")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel euchre/hearts comparison")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    try:
        run_bench(args.game, args.variant, args.seconds, openspiel=not args.no_openspiel)
    except ValueError as exc:
        parser.error(str(exc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
