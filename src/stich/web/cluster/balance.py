"""Sharing the tables out again: a process that owns more than its fair share of the cluster's
tables hands some of its idle ones to the process that owns the fewest, so a process that was
restarted (or added) takes its share back within seconds, instead of serving only the tables created
on it from then on.

Live processes are those subscribed to their node channel on Redis (``PUBSUB CHANNELS``: a killed
process's subscription ends with its connection); the shares are counted from the unexpired leases.
A table is handed over as a graceful shutdown hands it: in its actor's task (no commit of it in
flight), its lease is given up (expiry 0), the table becomes a replica here, and the new owner is
told on its node channel (``take``) and takes the lease at once.  If that message is lost, any
process's sweep takes the table, as an orphan (its lease names no owner), within a renew period."""

from __future__ import annotations

import logging
import math
import time

from sqlalchemy import func, select, update

from stich.web import store
from stich.web.cluster.channels import kind_of, n_channel
from stich.web.logs import event

log = logging.getLogger("stich.web")

BALANCE_EVERY = 3         # renew periods between two looks at the shares
HAND_AT_ONCE = 16         # tables handed over in one look, at most (the rest at the next look)


class Balance:
    """The balancing methods of :class:`~stich.web.cluster.node.Cluster` (which has the fields they use)."""

    async def live_nodes(self) -> set[str]:
        """The node ids of the processes of this cluster that Redis hears now."""
        channels = await self.redis.pubsub_channels(n_channel("*"))
        return {kind_of(ch)[1] for ch in channels}

    async def rebalance(self) -> int:
        """Hand idle tables to the process with the fewest when this one has more than its share;
        returns how many were handed over."""
        if self.closing:
            return 0
        nodes = await self.live_nodes()
        if self.node not in nodes or len(nodes) < 2:
            return 0
        L = store.leases
        rows = await store.fetch_all(self.server.engine, select(L.c.owner, func.count().label("n")).where(
            L.c.expires >= time.time()).group_by(L.c.owner))
        counts = {n: 0 for n in nodes}
        for r in rows:
            if r["owner"] in counts:
                counts[r["owner"]] = r["n"]
        total = sum(counts.values())
        fair, floor = math.ceil(total / len(nodes)), total // len(nodes)
        mine = counts[self.node]
        target = min((n for n in nodes if n != self.node), key=lambda n: (counts[n], n))
        give = min(mine - fair, floor - counts[target], HAND_AT_ONCE)
        if give <= 0:
            return 0
        idle = sorted((t for t in self.server.tables.values() if t.owner and not t.finished
                       and getattr(t.role, "bot_pending", None) is None),
                      key=lambda t: (len(t.conns), t.id))[:give]
        for actor in idle:
            actor.submit(self._hand_over, actor, target)
        if idle:
            event(log, "tables rebalanced", node=self.node, to=target, tables=len(idle), owned=mine, fair=fair)
        return len(idle)

    async def _hand_over(self, actor, target: str) -> None:
        """In the table's actor: give up its lease, follow it as a replica, and tell ``target``."""
        if not actor.owner or actor.finished or self.closing:
            return
        L = store.leases
        async with self.server.engine.begin() as conn:
            # nobody's: no renewal of ours keeps it, any process may take it (the target first)
            r = await conn.execute(update(L).where(L.c.table_id == actor.id, L.c.owner == self.node).values(
                owner="", expires=0.0))
        if r.rowcount != 1:
            return   # not ours any more: the renewal notices and demotes it
        await actor.demote()
        self.publish(n_channel(target), {"k": "take", "tables": [actor.id], "node": self.node})
        if not actor.conns:   # nobody here watches it: no replica to keep
            self.server.evict(actor.id)
