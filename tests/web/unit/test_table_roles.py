"""A table's two roles, owner and replica, are one interface: the table calls its role without asking
which one it has, so both must answer every method the same way (name and arguments).  A role that
has been replaced (the table changed owner) must drop the steps it had queued: a grace period or a
turn timer of a process that no longer decides must not move the match."""

from __future__ import annotations

import asyncio
import inspect

import stich
from stich.web.table import Seat, TableActor
from stich.web.table.owner import Owner
from stich.web.table.replica import Replica


def interface(cls) -> dict[str, inspect.Signature]:
    return {name: inspect.signature(fn) for name, fn in vars(cls).items()
            if callable(fn) and not name.startswith("_")}


def test_owner_and_replica_have_the_same_methods():
    owner, replica = interface(Owner), interface(Replica)
    # what only the owner does for itself (its timers and bots), called by the owner alone
    own = {"current", "seat_here", "start_grace", "controller", "schedule"}
    assert set(owner) - own == set(replica)
    for name, sig in replica.items():
        assert owner[name] == sig, name
    assert Owner.owner and not Replica.owner


def test_a_replaced_owner_drops_its_queued_steps():
    async def main():
        game = stich.game("watten", variant="bavarian_2")
        seats = [Seat(i, "human", None, None, None, False) for i in range(game.num_players)]
        # no server: a step that went on would reach for it (the takeover bot, the cluster) and fail
        actor = TableActor(None, "t1", game, game.new_state(seed=1), seats, {"grace": 1}, False, {}, [], [0])
        old = actor.role
        actor.take_role(owner=False)
        assert isinstance(actor.role, Replica) and not actor.owner
        seat = actor.state.current_player
        await old._timer_over(actor, actor.seq, seat)
        await old._grace_over(actor, seat)
        await old._bot_move(actor, seat, actor.seq, "anything", "bot")
        assert not actor.seats[seat].bot_playing and actor.seq == 0 and actor.turn_deadline is None
        actor.take_role(owner=True)
        assert isinstance(actor.role, Owner) and actor.role is not old and actor.owner
        assert actor.role.remote == {} and actor.role.bot_pending is None
        actor.stop()

    asyncio.run(main())
