"""Raise, accept, fold (and the other play-on / give-away answers) by evaluation, for ``pimc``.

What these are in each game (its verbs, the stake) is the game's declaration
(``rulesets/<game>/bets.py``, read through :func:`stich.bots.bets.declared`): this module names
no game and no game verb.

The search bot estimates ``p``, the chance that its side wins the hand, from the worlds it
samples: in each world the hand is played out (``rollouts`` playouts, or exactly by alpha-beta
when few cards are left) from the point where the bot goes on playing (it accepts, holds, passes
the raise poll, or plays its card), and the share of won outcomes is ``p``.  The bet arithmetic
of :mod:`stich.bots.bets` then decides, with the match score read from the worlds (the points
each side still needs to the target): accept a raise when ``p`` beats the break-even of its stake
(``1 / (2 (s+1))`` with linear points), raise and re-raise only as the favourite, play a fixed
hand (a declared play-on verb: Watten's hold, Battn's Orbi / X answers) rather than give the
refusal's points when that is worth more.

When the decision also offers cards (a raise during play), one card search decides both: it values
every card on the worlds and counts each card's won outcomes, and ``p`` is the best card's share
(:func:`stich.bots.search.solver.pimc_search`); the bot raises on it, or plays that card.
Other decisions return None (the caller goes on as before).
"""

from __future__ import annotations

import math
import time

from stich.bots import bets, fallbacks
from stich.bots.search import calibration
from stich.bots.search.common import (
    fallback,
    hand_over,
    score_vector,
    utilities,
)
from stich.bots.search.solver import (
    SOLVE_NODES,
    cards_left,
    pimc_search,
    playout_scores,
    solve,
    won_share,
)


def _side(state, seat):
    return state.side_of(seat)


def match_score(world, seat: int, view: dict) -> bets.Score:
    """The points each side still needs, from the world's scores (``Game.scores_by``: per seat
    or per side) and the match target."""
    target = (view.get("options") or {}).get("target")
    scores = list(world.scores)
    n = world.game.num_players
    me = _side(world, seat)
    if world.game.scores_by == "seat":
        opponents = [scores[s] for s in range(n) if _side(world, s) != me] or [0]
        partners = [scores[s] for s in range(n) if s != seat and _side(world, s) == me]
        return bets.Score.race(scores[seat], opponents, partners, target)
    return bets.Score.of(scores[me], scores[1 - me], target)


def gains(world, seat: int, end) -> tuple[int, int]:
    """Points my side and the best opposing side scored between ``world`` and ``end``."""
    before, after = list(world.scores), list(end.scores)
    d = [b - a for a, b in zip(before, after, strict=True)]
    n = world.game.num_players
    if world.game.scores_by == "seat":
        others = [d[s] for s in range(n) if _side(world, s) != _side(world, seat)] or [0]
        return d[seat], max(others)
    me = _side(world, seat)
    return d[me], d[1 - me]


#: what each raise of the opponents in this hand takes off the log-odds of ``p`` (after the
#: calibration): a raise says the raiser thinks himself the favourite.  The worlds' weights alone
#: left both sides of a raising war the favourite in their own eyes; 0.4 (the heuristic's fitted
#: value) made pimc fold too often to pimc-classic's loose raises (Bavarian 4, 300 matches, the
#: same seeds: 51.3 % against 57.7 % with 0.2), and 0.2 keeps pimc's self-play raising sane
#: (``docs/bots.md``, "Raising with the calibrated p")
THEIR_RAISE = 0.2

#: how sharply an opponent's raise says "my side is the favourite" (a logistic step around 1/2)
RAISE_SIGNAL = 0.08


def raise_weights(worlds, view: dict) -> list[float]:
    """The likelihood of the opponents' raises in this hand in each world.

    A raise says its side thinks itself the favourite.  Each world is weighted by how likely the
    raises are given the raisers' hands there: ``p'``, the raiser's chance to win by the
    heuristic's hand strength in that world (``heuristic.raising.hand_win_chance``), gives each
    raise the likelihood ``1 / (1 + exp(-(p' - 1/2) / RAISE_SIGNAL))``.  Without this, both sides
    of a raising war sample worlds in which they are the favourite and raise on and on."""
    from stich.bots.heuristic.raising import hand_win_chance, reads_bets

    seat = view["seat"]
    verb = bets.declared(view.get("game")).raise_verb
    if verb is None or not worlds or not reads_bets(view.get("game")):
        return [1.0] * len(worlds)
    side = _side(worlds[0], seat)
    raisers: dict[int, int] = {}
    for who, text, _i in view.get("actions") or []:
        if text == verb and who != seat and _side(worlds[0], who) != side:
            raisers[who] = raisers.get(who, 0) + 1
    if not raisers:
        return [1.0] * len(worlds)
    out = []
    for world in worlds:
        w = 1.0
        for who, k in raisers.items():
            try:
                q = hand_win_chance(world.view(who))   # before any raise of ours
            except Exception as exc:  # noqa: BLE001 - the world keeps its weight (counted, raised in tests)
                fallbacks.fell_back("raise_weights", exc)
                continue
            if q is None:
                continue
            w *= (1.0 / (1.0 + math.exp(-(q - 0.5) / RAISE_SIGNAL))) ** k
        out.append(w)
    total = sum(out)
    return out if total > 0 else [1.0] * len(worlds)


def model_weights(worlds) -> list[float]:
    """Each world's likelihood of the others' informative decisions under the opponent model
    (:func:`lean_model` records it on the world while it is drawn; 1 without a model)."""
    return [getattr(w, WEIGHT, 1.0) for w in worlds]


def world_weights(worlds, view: dict) -> list[float]:
    """The weight of each world: the opponent model's likelihood times the raises' likelihood."""
    out = [a * b for a, b in zip(model_weights(worlds), raise_weights(worlds, view), strict=True)]
    return out if sum(out) > 0 else [1.0] * len(worlds)


#: the fewest worlds a time-budgeted estimate of ``p`` looks at, however late it is
MIN_WORLDS = 8


def win_chance(worlds, seat: int, first: str | None, rng, rollouts: int, exact_cards: int,
               weights: list[float] | None = None, decl: bets.Declaration | None = None,
               deadline: float | None = None) -> tuple[float, int]:
    """The share of won outcomes of the hand after ``first`` (None: play on from the world as it
    is) over the worlds (each world counting by its weight), and the stake then played for.

    With a ``deadline`` (a ``time.perf_counter`` value) it stops at the first world past it, once
    :data:`MIN_WORLDS` are counted: a time budget draws up to 400 worlds, and playing each out
    (or solving it exactly, with two players) took a raise decision to 1-4 s against 0.25 s."""
    won = 0.0
    weight = 0.0
    stake = None
    for i, world in enumerate(worlds):
        if deadline is not None and i >= MIN_WORLDS and time.perf_counter() >= deadline:
            break
        wins = total = 0.0
        game = world.game
        hand = world.hand_number
        start = score_vector(world)
        s = world.clone()
        if first is not None:
            s.apply(first)
        if stake is None:
            stake = decl.state_stake(s) if decl is not None else getattr(s, "stake", 2)
        if hand_over(s, hand):
            total += 1
            wins += utilities(game, start, score_vector(s))[seat] > 0
        elif game.two_sided and cards_left(s) <= exact_cards:
            total += 1
            wins += won_share(solve(s, seat, hand, start, -1e300, 1e300, [SOLVE_NODES]))
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
    verb = bets.declared(view.get("game")).raise_verb
    return sum(1 for who, text, _i in view.get("actions") or []
               if verb is not None and text == verb and _side(world, who) != side)


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


def _calibrated(bot, p: float, view: dict, kind: str, raised: int) -> float:
    """``p`` as the calibration (``calibration.py``) corrects the worlds' overconfidence for this
    game and kind of bet, then lowered by :data:`THEIR_RAISE` per raise of the opponents
    (:func:`discounted`).  The bot keeps the raw value in ``last_raw_p`` (what
    ``benchmarks/calibrate_bets.py`` fits on); ``bot.calibrate = False`` skips the calibration."""
    bot.last_raw_p = p
    fitted = calibration.calibrated(p, view, kind) if getattr(bot, "calibrate", True) else None
    return discounted(p if fitted is None else fitted, raised)


def choose(bot, view: dict, legal: list[str]) -> str | None:
    """The bot's answer to a bet decision, or None when ``legal`` is not one."""
    decl = bets.declared(view.get("game"))
    kind = decl.kind_of(legal)
    if kind is None:
        return None
    seat = view["seat"]
    clock, worlds = bot.draw(view, weighted_model(bot))
    if not worlds:
        return fallback(view, legal, bot.rng)
    score = match_score(worlds[0], seat, view)
    rollouts, exact = bot.rollouts, bot.exact_cards
    weights = world_weights(worlds, view)
    raised = their_raises(worlds[0], view)
    if kind == "answer":
        p, _ = win_chance(worlds, seat, decl.accept, bot.rng, rollouts, exact, weights, decl, clock.deadline)
        p = _calibrated(bot, p, view, kind, raised)
        stake = decl.state_stake(worlds[0])
        cost = refusal_cost(worlds[0], seat, decl.fold)
        choice = bets.respond(score, p, stake, fold_loses=cost, can_raise=decl.raise_verb in legal)
        choice = decl.answers[choice]
        bot.last_bet = ("answer", p, stake, choice)
        return choice
    if kind == "go_on":
        verb = decl.go_on_verb(legal)
        p, stake = win_chance(worlds, seat, verb, bot.rng, rollouts, exact, weights, decl, clock.deadline)
        p = _calibrated(bot, p, view, kind, raised)
        give = refusal_cost(worlds[0], seat, decl.go_on[verb])
        choice = verb if bets.play_or_give(score, p, stake, give) else decl.go_on[verb]
        bot.last_bet = ("go_on", p, stake, choice)
        return choice
    # a raise or play on: the poll's pass, else (kind_of) a card
    on = decl.poll_pass if decl.poll_pass in legal else None
    if on is None:
        cards = [a for a in legal if a.split(" ", 1)[0] == decl.card_verb]
        own = fallback(view, legal, bot.rng)   # another verb the heuristic takes (an exchange request)
        if own not in cards and own != decl.raise_verb:
            return own
        # One search serves both decisions: the card search's evaluations give each card's chance
        # to win too, and the best card's chance decides the raise.  (A separate playout of every
        # world for p took 60 % of the budget and left the cards 40 %: at equal time the card play
        # was weaker than the heuristic-raising pimc's.)  A lone card needs only p: half the budget.
        if len(cards) == 1 and clock.deadline is not None:
            clock.deadline = clock.start + 0.5 * clock.seconds
        on, p = pimc_search(worlds, seat, cards, clock, bot.rng, rollouts, exact, weights)
        stake = decl.state_stake(worlds[0])
    else:
        p, stake = win_chance(worlds, seat, on, bot.rng, rollouts, exact, weights, decl, clock.deadline)
    p = _calibrated(bot, p, view, kind, raised)
    raising = bets.should_raise(score, p, stake)
    bot.last_bet = (bets.RAISE, p, stake, bets.RAISE if raising else "on")
    return decl.raise_verb if raising else on


#: the attribute on which :func:`lean_model` records a world's likelihood while it is drawn (it
#: survives ``State.clone``, which copies the instance dict)
WEIGHT = "_stich_model_weight"

#: the least probability with which the sampler keeps a world whose observed decision the model
#: finds unlikely; the rest of the likelihood goes into the world's weight (importance weighting:
#: fewer rejected worlds, the same expected distribution)
KEEP_FLOOR = 0.5


def lean_model(eps: float = 0.2, floor: float = KEEP_FLOOR):
    """The heuristic opponent model (``common.heuristic_model``: the heuristic's decision in the
    acting seat's shoes, softened: likelihood 1 if it agrees, else ``eps``) for the informative
    decisions only - the Ansage, bids, calls, contracts, doubles, exchange requests - without
    replaying the heuristic for the verbs the game declares uninformative
    (``Declaration.uninformative``: bets, weighted by :func:`raise_weights` instead - as a filter
    almost every world failed them, which cost most of the sampling time - and routine answers).

    The likelihood weights the world rather than only filtering it: the sampler keeps the world
    with probability ``max(likelihood, floor)`` and the world carries the rest (``likelihood /
    keep``, :data:`WEIGHT`), which :func:`world_weights` multiplies in.  ``floor=0``: a filter
    only (the card search, whose averages take no weights)."""
    from stich.bots.search.common import heuristic_model

    full = heuristic_model(eps)
    if full is None:
        return None
    skip: dict[str, frozenset[str]] = {}

    def model(world, who, text):
        name = world.game.name
        quiet = skip.get(name)
        if quiet is None:
            quiet = skip[name] = bets.declared(name).uninformative
        if text.split(" ", 1)[0] in quiet:
            return 1.0
        like = full(world, who, text)
        keep = max(like, floor)
        if keep != like:
            setattr(world, WEIGHT, getattr(world, WEIGHT, 1.0) * like / keep)
        return keep
    return model


def weighted_model(bot):
    """The opponent model for the decisions whose evaluation weights the worlds (bets and the
    declared decisions): :func:`lean_model` with the keep floor; the bot's own otherwise."""
    if getattr(bot, "decisions", None) != "evaluate" or not bot.opponent_model:
        return bot._model()
    fn = getattr(bot, "_weighted_fn", None)
    if fn is None:
        fn = bot._weighted_fn = lean_model()
    return fn
