"""One table of the web server, in pieces: :mod:`~stich.web.table.actor` (the actor and the path of
one action: check, commit, apply, announce), :mod:`~stich.web.table.owner` and
:mod:`~stich.web.table.replica` (the table's two roles: the process that decides, with its bots,
timers and grace periods, and one that follows it), :mod:`~stich.web.table.talk` (chat, names,
signals), :mod:`~stich.web.table.frames` (what each connection is shown),
:mod:`~stich.web.table.fanout` (sending it: seat lists coalesced, spectators' frames shared) and
:mod:`~stich.web.table.conn` (a socket, a seat, connections coming and going)."""

from stich.web.table.actor import MAX_CLIENT_ID, TableActor
from stich.web.table.conn import Conn, Seat
from stich.web.table.frames import legal_for

__all__ = ["MAX_CLIENT_ID", "Conn", "Seat", "TableActor", "legal_for"]
