"""The random bot: a uniformly random legal action."""

from __future__ import annotations

from stich.bots.base import Bot


class RandomBot(Bot):
    """Chooses uniformly among the legal actions, reproducibly for a given seed; it also answers
    polls (uniformly among the polled seat's actions and ``wait``)."""

    answers_polls = True
    instant = True

    def choose(self, view: dict, legal: list[str]) -> str:
        if not legal:
            raise ValueError("RandomBot.choose: there is no legal action to choose from")
        return legal[self.rng.randrange(len(legal))]
