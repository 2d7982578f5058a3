"""The table server (``stich serve``): play together online, with bots in any empty seat.

Layers: :mod:`spec` reads requests, :mod:`store` keeps the log (group commit, Alembic migrations),
:mod:`table` is the actor that owns each table's state, :mod:`botpool` thinks for bots in worker
processes, :mod:`server` ties them together, :mod:`app` is the Starlette application and
:mod:`serve` runs it.  The protocol is in ``docs/web-protocol.md``."""


def create_app(db=None, bot_workers=None, redis=None):
    from stich.web.app import create_app as make

    return make(db=db, bot_workers=bot_workers, redis=redis)


__all__ = ["create_app"]
