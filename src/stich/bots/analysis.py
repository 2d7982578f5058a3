"""Analysis of a finished match: where did a player lose expected points?

``analyse(record, seat)`` replays a record (``stich.replay`` format) and evaluates every decision
of ``seat`` that had a choice, from that seat's view only, on sampled worlds
(``stich.engine.worlds``):

* a card: each legal action is applied in every world and the rest of the hand played out
  (``pimc``'s evaluation: the exact solve of the last tricks, else rollouts); its value is the
  seat's side's expected change of score in the hand, in points;
* a decision the game declares ``DECIDED`` (the Ansage, Schlòk / Trumpf, bids and the call,
  contracts and doubles): valued as ``pimc`` decides it (``bots/search/decide.py``): the
  heuristic's best few candidates and the action played, each applied in every world (weighted by
  the opponent model and the raises) and the hand played out with the later decisions taken by
  the heuristic in each seat's shoes - not by random rollouts, which would, say, answer a Schlag
  with a random trump - in points as above;
* a bet (raise, accept, fold, hold, Orbi / X answers): the chance ``p`` to win the hand is
  estimated on the worlds and each answer valued in points with the bet arithmetic
  (``stich.bots.bets``, linear points: fold ``-s``, accept ``(2p-1)(s+1)``, raise ``min(s,
  (2p-1)(s+1))``).

Each decision gets the best action, the value of each action and ``loss`` = best - played (in
points; 0 when the played action was the best).  ``stich analyse RECORD --seat K`` prints a table
and writes the JSON.  The estimates are noisy (a few dozen worlds): a loss below about half a
point is within the noise.
"""

from __future__ import annotations

import random

#: a decision whose loss reaches this many points is marked as a mistake
MISTAKE = 0.5


def _bet_values(worlds, seat, legal, rng, kind, decl):
    from stich.bots.search.betting import refusal_cost, win_chance

    out = {}
    if kind == "answer":
        p, stake_after = win_chance(worlds, seat, decl.accept, rng, 4, 12, decl=decl)
        s = stake_after - 1
        out[decl.accept] = (2 * p - 1) * (s + 1)
        out[decl.fold] = -float(refusal_cost(worlds[0], seat, decl.fold))
        if decl.raise_verb in legal:
            out[decl.raise_verb] = min(float(s + 1), (2 * p - 1) * (s + 2))
    elif kind == "go_on":
        verb = decl.go_on_verb(legal)
        p, stake = win_chance(worlds, seat, verb, rng, 4, 12, decl=decl)
        out[verb] = (2 * p - 1) * stake
        out[decl.go_on[verb]] = -float(refusal_cost(worlds[0], seat, decl.go_on[verb]))
    else:
        first = decl.poll_pass if decl.poll_pass in legal else None
        p, s = win_chance(worlds, seat, first, rng, 4, 12, decl=decl)
        out[decl.raise_verb] = min(float(s), (2 * p - 1) * (s + 1))
        if first:
            out[first] = (2 * p - 1) * s
        return out, p
    return out, p


class _Seeds:
    """What ``decide.evaluate`` asks of a bot: the random numbers its playouts are seeded from."""

    def __init__(self, rng):
        self.rng = rng


def _decided_values(view, legal, decided, worlds, rng, played) -> dict[str, float]:
    """``pimc``'s evaluation of a declared decision (``decide.evaluate``), in points: the
    heuristic's candidates (its choice first) and the action played."""
    from stich.bots.search import decide
    from stich.bots.search.betting import world_weights
    from stich.bots.search.common import Clock, fallback

    own = fallback(view, legal, rng)
    cands = decide.candidates(view, decided, own if own in decided else decided[0])
    if played in decided and played not in cands:
        cands.append(played)
    weights = world_weights(worlds, view)
    mean = sum(weights) / len(weights)
    weights = [w / mean for w in weights]
    samples = decide.evaluate(_Seeds(rng), view, cands, worlds, weights, Clock(None, len(worlds)),
                              value=decide.points(worlds[0].game, view["seat"]))
    return {a: sum(v) / len(v) for a, v in samples.items() if v}


def evaluate_decision(view: dict, legal: list[str], worlds_count: int = 24, seed: int = 0,
                      played: str | None = None) -> dict:
    """The value in points of each legal action of one decision (see the module docstring; a
    declared decision values the candidates ``pimc`` would weigh and ``played``).  ``by`` says
    how: ``"bet"``, ``"decision"`` (``decide.py``) or ``"search"`` (the card search)."""
    from stich.bots.bets import declared
    from stich.bots.search.betting import lean_model
    from stich.bots.search.common import draw_worlds, heuristic_model
    from stich.bots.search.solver import evaluate

    rng = random.Random(seed)
    seat = view["seat"]
    decl = declared(view.get("game"))
    kind = decl.kind_of(legal)
    decided = [a for a in legal if a.split(" ", 1)[0] in decl.decided] if kind is None else []
    # as pimc draws them: for a declared decision weighted by the opponent model, else filtered
    worlds = draw_worlds(view, rng, worlds_count, None, lean_model() if len(decided) > 1 else heuristic_model())
    if not worlds:
        return {"values": {}, "p": None, "by": None}
    values: dict[str, float] = {}
    p = None
    by = "search"
    if kind is not None:
        values, p = _bet_values(worlds, seat, legal, rng, kind, decl)
        by = "bet"
    elif len(decided) > 1:
        values = _decided_values(view, legal, decided, worlds, rng, played)
        by = "decision"
        decided_set = set(decided)
        legal = [a for a in legal if a not in decided_set or a in values]   # the others: not weighed
    rest = [a for a in legal if a not in values]
    if rest:
        totals = dict.fromkeys(rest, 0.0)
        for world in worlds:
            vals, _exact = evaluate(world, seat, rest, rng, 4, 12)
            for a, v in vals.items():
                totals[a] += v
        if kind == "raise" and rest:
            # playing on is worth the best card; the raise was valued by the bet arithmetic
            best_card = max(rest, key=lambda a: totals[a])
            on = (2 * p - 1) * decl.state_stake(worlds[0])
            shift = on - totals[best_card] / len(worlds)
            values.update({a: totals[a] / len(worlds) + shift for a in rest})
        else:
            values.update({a: totals[a] / len(worlds) for a in rest})
    return {"values": values, "p": p, "by": by}


def analyse(record: dict, seat: int, worlds: int = 24, seed: int = 0) -> dict:
    """Evaluate every decision of ``seat`` (0-based) in a finished match record."""
    import stich

    final = stich.replay(record)
    g = final.game
    if not 0 <= seat < g.num_players:
        raise ValueError(f"seat must be 0 to {g.num_players - 1}, not {seat}")
    state = g.new_state(record["seed"], **(record.get("setup") or {}))
    rows = []
    for i, (who, text) in enumerate(record["actions"]):
        legal = [str(a) for a in state.legal_actions()]
        if who == seat and len(legal) > 1 and not text.startswith("cut"):
            res = evaluate_decision(state.view(seat), legal, worlds, seed + i, played=text)
            vals = res["values"]
            if vals and text in vals:
                best = max(vals, key=vals.get)
                loss = round(vals[best] - vals[text], 3)
                rows.append({"index": i, "hand": state.hand_number, "played": text, "best": best,
                             "loss": loss, "mistake": loss >= MISTAKE, "p_win_hand": res["p"],
                             "by": res["by"], "values": {a: round(v, 3) for a, v in vals.items()}})
        state.apply(text)
    total = round(sum(r["loss"] for r in rows), 3)
    return {"game": g.name, "variant": g.variant, "seat": seat, "worlds": worlds, "decisions": rows,
            "total_loss": total, "mistakes": sum(r["mistake"] for r in rows)}


def table(result: dict) -> str:
    """A readable table of :func:`analyse`'s result (a ``!`` marks a mistake)."""
    lines = [f"{result['game']} ({result['variant']}), seat {result['seat'] + 1}: {len(result['decisions'])} "
             f"decisions, {result['mistakes']} mistakes, {result['total_loss']:.2f} expected points lost",
             f"{'#':>4} {'hand':>4}  {'played':<14} {'best':<14} {'loss':>6}"]
    for r in result["decisions"]:
        mark = " !" if r["mistake"] else ""
        lines.append(f"{r['index']:>4} {r['hand']:>4}  {r['played']:<14} {r['best']:<14} {r['loss']:>6.2f}{mark}")
    return "\n".join(lines)
