"""Levels for people: ``beginner``, ``club``, ``strong`` and ``max`` (bot names like any other).

Each level is a named configuration of an existing bot, accepted wherever a bot name is
(``make_bot("club")``, ``stich play --bots strong``, the arena):

* ``beginner`` - the ``heuristic`` bot that, like someone learning the game, plays a random legal
  card a third of the time (its bids, raises and answers stay the heuristic's: sane, by the bet
  arithmetic).  Instant.
* ``club`` - the ``heuristic`` bot: rule-of-thumb card play, raising by the bet arithmetic with
  its hand strength.  Instant.
* ``strong`` - ``pimc`` at its default budget (16 sampled worlds per decision; 48 in Watten
  Guate and Tyrolean, 40 in Bavarian 2, as the game declares: ``PIMCBot.default_worlds``;
  raises, accepts and folds by the chance to win the hand estimated on those worlds and
  calibrated, a raise during the card play from the card search itself; the Ansage, bids,
  calls, contracts and doubles by evaluating the heuristic's best few candidates on them).
  About 0.015-0.025 s of CPU a decision on average in full-length Watten matches at 16 worlds,
  0.04-0.06 s at 40-48 (2026-11-26), 0.02-0.03 s on the harder decisions of
  ``benchmarks/bot_speed.py`` (Biscambiggia 0.05-0.06 s), about 0.1 s at most (an Ansage, a
  bid, a contract; 2026-11-25).
* ``max`` - ``pimc`` with 1 s per decision (more worlds, more rollouts) unless a budget is given:
  for analysis and for players who want the strongest opponent.

``docs/bots.md`` gives their measured strength.
"""

from __future__ import annotations

from stich.bots.base import Budget, register_bot
from stich.bots.heuristic import HeuristicBot
from stich.bots.search.pimc import PIMCBot

#: the share of card plays a ``beginner`` makes at random
BEGINNER_SLIPS = 1 / 3


class BeginnerBot(HeuristicBot):
    """The level for beginners: the heuristic, with a random legal card a third of the time."""

    def choose(self, view: dict, legal: list[str]) -> str:
        cards = [a for a in legal if a.startswith("play ")]
        if len(cards) > 1 and self.rng.random() < BEGINNER_SLIPS:
            return self.rng.choice(cards)
        return super().choose(view, legal)


class ClubBot(HeuristicBot):
    """The club level: the heuristic bot (rule-of-thumb play, raising by the bet arithmetic)."""


class StrongBot(PIMCBot):
    """The strong level: ``pimc`` at its default budget (16 worlds per decision, or the game's)."""


class MaxBot(PIMCBot):
    """The strongest level, for analysis: ``pimc`` with 1 s per decision unless a budget is given."""

    default_budget = Budget(seconds=1.0)

    def __init__(self, seed=None, budget=None, **options):
        super().__init__(seed=seed, budget=budget if Budget.parse(budget) else self.default_budget, **options)


#: level name -> bot class, weakest first
LEVELS = {"beginner": BeginnerBot, "club": ClubBot, "strong": StrongBot, "max": MaxBot}

for _name, _cls in LEVELS.items():
    register_bot(_name, _cls)
