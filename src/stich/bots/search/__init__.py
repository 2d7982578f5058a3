"""Search bots: ``pimc``, ``ismcts`` (from the seat's view only) and ``cheat`` (an upper bound
that sees every hidden card, for measurement only).  See ``docs/search.md``.

Importing this package registers the three bots.
"""

from stich.bots.base import register_bot
from stich.bots.search.cheat import CheatBot
from stich.bots.search.ismcts import ISMCTSBot
from stich.bots.search.pimc import ClassicPIMCBot, PIMCBot

register_bot("pimc", PIMCBot)
register_bot("pimc-classic", ClassicPIMCBot)
register_bot("ismcts", ISMCTSBot)
register_bot("cheat", CheatBot)

__all__ = ["CheatBot", "ClassicPIMCBot", "ISMCTSBot", "PIMCBot"]
