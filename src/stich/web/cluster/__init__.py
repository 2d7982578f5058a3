"""Several ``stich serve`` processes on one database (``--redis``): table ownership and Redis pub/sub.

Each unfinished table is **owned** by one process at a time: the one holding its lease (a row of
``leases`` in the shared database, renewed every ``ttl/3`` seconds).  Only the owner applies actions,
runs the table's bots, timers and grace periods; each of its commits also renews the lease in the
same transaction and fails if the lease is no longer its own (a :class:`~stich.web.store.Guard`), so
two processes can never both extend one table's log.

Every other process with a connection to the table keeps a **replica** (a
:class:`~stich.web.table.TableActor` in the role :class:`~stich.web.table.replica.Replica`): the owner
publishes each committed action on the table's channel, and followers apply it to their copy and send
their own connections their own frames (each built from ``view(seat)`` on the follower, as on the
owner).  A follower forwards its connections' actions, chat, names and signals to the owner's channel;
the owner answers through the follower's node channel.  Channels:

``stich:t:ID``   owner -> followers: ``applied``, ``seats``, ``chat``, ``signal``, ``owner``
``stich:o:ID``   followers -> owner: ``call`` (act, say, rename, signal, join), ``presence``
``stich:n:NODE`` owner -> one process: ``send`` (a frame for one of its connections), ``done``;
                 a process with more than its share -> a newcomer: ``take`` (tables to own now)
``stich:released``  a process that shuts down names the tables it gave up: others take them at once

(``stich`` is the cluster's prefix, ``STICH_REDIS_PREFIX``: clusters with different prefixes share a
Redis without hearing each other.)

An action is committed before it is published, so a follower that sees a gap in seqs (or joins late)
reads the log again; a forwarded action whose answer does not come is sent again with the same client
id (idempotent), to whichever process owns the table by then.  When PUBLISH to ``stich:o:ID`` reaches
nobody, the owner is gone: the follower takes the lease as soon as it has expired.

Redis holds nothing that matters: every message is either in the log already or answered again.  While
it is away, owners go on committing (their own clients play on), a forwarded action is given up after
``REDIS_WAIT`` seconds and its client told to send it again with the same id, and when the connection
comes back (redis-py subscribes again on the next read) every replica reads the log it missed and every
owner announces its seq and seats.

The pieces: :mod:`~stich.web.cluster.node` (the :class:`Cluster` of this process: Redis connections,
dispatch), :mod:`~stich.web.cluster.forwarding` (calls to owners), :mod:`~stich.web.cluster.leases`
(ownership), :mod:`~stich.web.cluster.balance` (sharing the tables out again when a process comes
back), :mod:`~stich.web.cluster.channels` (the channels' names)."""

from __future__ import annotations

from stich.web.cluster.channels import FORWARDED, n_channel, o_channel, released, t_channel
from stich.web.cluster.forwarding import UNDELIVERED, RemoteConn, undelivered
from stich.web.cluster.leases import lease_ttl
from stich.web.cluster.node import Cluster

__all__ = ["FORWARDED", "UNDELIVERED", "Cluster", "RemoteConn", "lease_ttl", "n_channel", "o_channel",
           "released", "t_channel", "undelivered"]
