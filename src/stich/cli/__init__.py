"""The ``stich`` command line: ``games``, ``play``, ``replay``, ``bench`` (see docs/cli.md)."""
