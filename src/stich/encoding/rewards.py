"""Per-hand rewards shared by the PettingZoo and OpenSpiel adapters."""

from __future__ import annotations


def hand_reward_scale(game) -> float:
    """The divisor of per-hand score changes: the game's ``reward_scale()`` (e.g. the target of a
    match to a few points, the points of a big deal)."""
    return float(game.reward_scale())


def hand_rewards(game, before, after, clip: bool = False) -> list[float]:
    """Zero-sum per-seat rewards from the change of the match scores over a hand.

    ``before``/``after`` are the match scores (per seat, or per side: sides are ``seat % k`` for
    ``k`` sides, as in every stich team game).  Each seat gets the change of its own score (or its
    side's) minus the mean change over the score entries, divided by :func:`hand_reward_scale`.
    With ``clip`` each change is first clipped to ``±scale``, which bounds every reward to
    ``[-2, 2]`` and keeps the sum at zero.
    """
    n = game.num_players
    before = list(before or [])
    after = list(after or [])
    k = max(len(before), len(after))
    if k == 0:
        return [0.0] * n
    before += [0] * (k - len(before))
    after += [0] * (k - len(after))
    scale = hand_reward_scale(game)
    d = [float(a - b) for a, b in zip(after, before, strict=True)]
    if clip:
        d = [max(-scale, min(scale, x)) for x in d]
    mean = sum(d) / k
    return [(d[i % k] - mean) / scale for i in range(n)]
