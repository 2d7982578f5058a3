"""Bots: players that choose an action from what one seat may know.

A bot never sees the state, only the seat's view (``state.view(seat)``, a JSON-ready dict)
and the texts of the legal actions::

    from stich.bots import make_bot
    bot = make_bot("random", seed=7)
    action = bot.choose(state.view(seat), [str(a) for a in state.legal_actions()])
    state.apply(action)

``bot_names()`` lists the registered bots; ``register_bot(name, cls)`` adds one.
"""

from stich.bots.base import Bot, bot_names, make_bot, register_bot
from stich.bots.random_bot import RandomBot

register_bot("random", RandomBot)

__all__ = ["Bot", "RandomBot", "bot_names", "make_bot", "register_bot"]
