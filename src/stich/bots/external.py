"""``cmd:PROGRAM`` bots: outside programs speaking the stich-bot protocol (:mod:`stich.protocol`).

Registered here, in a bot module, so that ``stich.bots.base`` never imports the protocol that is
built on it (``make_bot("cmd:./mybot --fast")`` finds this factory when it first needs it)."""

from stich.bots.base import register_bot_factory
from stich.protocol import ExternalBot

register_bot_factory("cmd", ExternalBot)
