"""Bots: players that choose an action from what one seat may know.

A bot never sees the state, only the seat's view (``state.view(seat)``, a JSON-ready dict)
and the texts of the legal actions::

    from stich.bots import make_bot
    bot = make_bot("random", seed=7)                 # make_bot("ismcts", seed=7, budget="1s")
    action = bot.choose(state.view(seat), [str(a) for a in state.legal_actions()])
    state.apply(action)

``bot_names()`` lists the registered bots; ``register_bot(name, cls)`` adds one;
``default_bot_name(game)`` is the best one available; ``make_bot("cmd:./mybot")`` seats an
outside program that speaks the stich-bot protocol (``docs/protocol.md``).  Tables ask bots
through :func:`stich.arena.table.ask`, which passes private copies of views only.
"""

from stich.bots.base import (
    DEFAULT_BUDGET,
    Bot,
    Budget,
    bot_class,
    bot_names,
    default_bot_name,
    make_bot,
    register_bot,
)
from stich.bots.random_bot import RandomBot

register_bot("random", RandomBot)

__all__ = ["Bot", "Budget", "RandomBot", "DEFAULT_BUDGET", "bot_class", "bot_names", "default_bot_name",
           "make_bot", "register_bot"]
