"""Raise, accept, fold (and hold / concede, Orbi and X answers) by evaluation, for ``pimc``.

The search bot estimates ``p``, the chance that its side wins the hand, from the worlds it
samples: in each world the hand is played out (``rollouts`` playouts, or exactly by alpha-beta
when few cards are left) from the point where the bot goes on playing (it accepts, holds, passes
the raise poll, or plays its card), and the share of won outcomes is ``p``.  The bet arithmetic
of :mod:`stich.bots.bets` then decides, with the match score read from the worlds (the points
each side still needs to the target): accept a raise when ``p`` beats the break-even of its stake
(``1 / (2 (s+1))`` with linear points), raise and re-raise only as the favourite, play a fixed
hand or an Orbi / X turn rather than give the refusal's points when that is worth more.

When the decision also offers cards (a raise during play), the bot decides the raise first; if it
plays on, the same worlds serve the card search.  Other decisions return None (the caller goes
on as before).
"""

from __future__ import annotations

import math

from stich.bots import bets
from stich.bots.bets import GO_ON, kind_of
from stich.bots.search.common import (
    Clock,
    draw_worlds,
    fallback,
    hand_over,
    score_vector,
    utilities,
)
from stich.bots.search.solver import MAX_WORLDS, SOLVE_NODES, cards_left, pimc_choose, playout_scores, solve


def _side(state, seat):
    return state.side_of(seat)


def match_score(world, seat: int, view: dict) -> bets.Score:
    """The points each side still needs, from the world's scores and the match target."""
    target = (view.get("options") or {}).get("target")
    scores = list(world.scores)
    n = world.game.num_players
    if len(scores) == n and n != 4 or n == 2:   # per-seat scores (Watten with 2 or 3 players)
        mine = scores[seat]
        others = [scores[s] for s in range(n) if _side(world, s) != _side(world, seat)] or [0]
        return bets.Score.of(mine, max(others), target)
    me = _side(world, seat)
    return bets.Score.of(scores[me], scores[1 - me], target)


def gains(world, seat: int, end) -> tuple[int, int]:
    """Points my side and the best opposing side scored between ``world`` and ``end``."""
    before, after = list(world.scores), list(end.scores)
    d = [b - a for a, b in zip(before, after, strict=True)]
    n = world.game.num_players
    if len(d) == n and n != 4 or n == 2:
        others = [d[s] for s in range(n) if _side(world, s) != _side(world, seat)] or [0]
        return d[seat], max(others)
    me = _side(world, seat)
    return d[me], d[1 - me]


#: what each raise of the opponents in this hand takes off the log-odds of ``p`` (the value fitted
#: for the heuristic, ``heuristic.raising.CURVES``): the worlds' weights alone left both sides of a
#: raising war the favourite in their own eyes
THEIR_RAISE = 0.4

#: how sharply an opponent's raise says "my side is the favourite" (a logistic step around 1/2)
RAISE_SIGNAL = 0.08


def raise_weights(worlds, view: dict) -> list[float]:
    """The likelihood of the opponents' raises in this hand in each world.

    A raise says its side thinks itself the favourite.  Each world is weighted by how likely the
    raises are given the raisers' hands there: ``p'``, the raiser's chance to win by the
    heuristic's hand strength in that world (``heuristic.raising``), gives each raise the
    likelihood ``1 / (1 + exp(-(p' - 1/2) / RAISE_SIGNAL))``.  Without this, both sides of a
    raising war sample worlds in which they are the favourite and raise on and on."""
    seat = view["seat"]
    try:
        from stich.bots.heuristic.raising import READERS
        from stich.bots.heuristic.raising import win_chance as crude
    except Exception:  # noqa: BLE001 - no heuristic: no weights
        return [1.0] * len(worlds)
    game = view.get("game")
    if game not in READERS or not worlds:
        return [1.0] * len(worlds)
    side = _side(worlds[0], seat)
    raisers: dict[int, int] = {}
    for who, text, _i in view.get("actions") or []:
        if text == "raise" and who != seat and _side(worlds[0], who) != side:
            raisers[who] = raisers.get(who, 0) + 1
    if not raisers:
        return [1.0] * len(worlds)
    out = []
    for world in worlds:
        w = 1.0
        for who, k in raisers.items():
            try:
                q = crude(game, READERS[game](world.view(who))[0])   # before any raise of ours
            except Exception:  # noqa: BLE001
                continue
            w *= (1.0 / (1.0 + math.exp(-(q - 0.5) / RAISE_SIGNAL))) ** k
        out.append(w)
    total = sum(out)
    return out if total > 0 else [1.0] * len(worlds)


def win_chance(worlds, seat: int, first: str | None, rng, rollouts: int, exact_cards: int,
               weights: list[float] | None = None) -> tuple[float, int]:
    """The share of won outcomes of the hand after ``first`` (None: play on from the world as it
    is) over the worlds (each world counting by its weight), and the stake then played for."""
    won = 0.0
    weight = 0.0
    stake = None
    for i, world in enumerate(worlds):
        wins = total = 0.0
        game = world.game
        hand = world.hand_number
        start = score_vector(world)
        s = world.clone()
        if first is not None:
            s.apply(first)
        if stake is None:
            stake = getattr(s, "stake", 2)
        if hand_over(s, hand):
            total += 1
            wins += utilities(game, start, score_vector(s))[seat] > 0
        elif game.two_sided and cards_left(s) <= exact_cards:
            v = solve(s, seat, hand, start, -1e300, 1e300, [SOLVE_NODES])
            total += 1
            wins += 1.0 if v > 0 else (0.5 if v == 0 else 0.0)
        else:
            for _ in range(rollouts):
                total += 1
                wins += utilities(game, start, playout_scores(s, hand, rng))[seat] > 0
        w = 1.0 if weights is None else weights[i]
        won += w * wins / total
        weight += w
    return (won / weight if weight else 0.5), (stake or 2)


def their_raises(world, view: dict) -> int:
    seat = view["seat"]
    side = _side(world, seat)
    return sum(1 for who, text, _i in view.get("actions") or []
               if text == "raise" and _side(world, who) != side)


def discounted(p: float, raises: int) -> float:
    """``p`` with the log-odds lowered by :data:`THEIR_RAISE` per raise of the opponents."""
    if not raises or p <= 0.0 or p >= 1.0:
        return p
    return 1.0 / (1.0 + math.exp(-(math.log(p / (1 - p)) - THEIR_RAISE * raises)))


def refusal_cost(world, seat: int, verb: str) -> int:
    """The points the opponents get when I fold / concede / refuse (exact, from one world)."""
    s = world.clone()
    s.apply(verb)
    return gains(world, seat, s)[1]


def choose(bot, view: dict, legal: list[str]) -> str | None:
    """The bot's answer to a bet decision, or None when ``legal`` is not one."""
    kind = kind_of(legal)
    if kind is None:
        return None
    seat = view["seat"]
    clock = Clock(bot.budget, bot.default_iterations)
    count = min(clock.iterations, MAX_WORLDS) if clock.iterations is not None else 400
    worlds = draw_worlds(view, bot.rng, count, clock.deadline and clock.start + 0.3 * clock.seconds, bot._model())
    if not worlds:
        return fallback(view, legal, bot.rng)
    score = match_score(worlds[0], seat, view)
    rollouts, exact = bot.rollouts, bot.exact_cards
    weights = raise_weights(worlds, view)
    raised = their_raises(worlds[0], view)
    if kind == "answer":
        p, _ = win_chance(worlds, seat, "accept", bot.rng, rollouts, exact, weights)
        p = discounted(p, raised)
        stake = getattr(worlds[0], "stake", 2)
        cost = refusal_cost(worlds[0], seat, "fold")
        choice = bets.respond(score, p, stake, fold_loses=cost, can_raise="raise" in legal)
        bot.last_bet = ("answer", p, stake, choice)
        return choice
    if kind == "go_on":
        verb = next(v for v in ("hold", "orbi_accept", "x_play") if v in legal)
        p, stake = win_chance(worlds, seat, verb, bot.rng, rollouts, exact, weights)
        p = discounted(p, raised)
        give = refusal_cost(worlds[0], seat, GO_ON[verb])
        choice = verb if bets.play_or_give(score, p, stake, give) else GO_ON[verb]
        bot.last_bet = ("go_on", p, stake, choice)
        return choice
    # a raise or play on (a card, or "pass" when polled)
    first = "pass" if "pass" in legal else None
    p, stake = win_chance(worlds, seat, first, bot.rng, rollouts, exact, weights)
    p = discounted(p, raised)
    raising = bets.should_raise(score, p, stake)
    bot.last_bet = ("raise", p, stake, "raise" if raising else "on")
    if raising:
        return "raise"
    if first is not None:
        return first
    cards = [a for a in legal if a.startswith("play ")]
    own = fallback(view, legal, bot.rng)   # another verb the heuristic takes (Euregio's exchange request)
    if own not in cards and own != "raise":
        return own
    if len(cards) == 1:
        return cards[0]
    return pimc_choose(worlds, seat, cards, clock, bot.rng, bot.rollouts, bot.exact_cards)


#: verbs the opponent model of the evaluating ``pimc`` does not check: the bets (their raises
#: weight the worlds in :func:`raise_weights` instead; as a filter almost every world failed
#: them, which cost most of the sampling time) and answers that nearly every hand gives
SKIP_IN_MODEL = frozenset({"raise", "accept", "fold", "pass", "hold", "concede", "orbi_accept", "orbi_refuse",
                           "x_play", "x_decline", "scheanara_pass", "cut", "cut_done"})


def lean_model(eps: float = 0.2):
    """The heuristic opponent model (``common.heuristic_model``) for the informative decisions
    only - the Ansage, Schlòk and Trumpf, bids, calls, contracts, doubles, exchange requests -
    without replaying the heuristic for the verbs of :data:`SKIP_IN_MODEL`."""
    from stich.bots.search.common import heuristic_model

    full = heuristic_model(eps)
    if full is None:
        return None

    def model(world, who, text):
        if text.split(" ", 1)[0] in SKIP_IN_MODEL:
            return 1.0
        return full(world, who, text)
    return model
