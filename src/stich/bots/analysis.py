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

* a cut: chance (the seat knows none of the cards it cuts among): valued 0, never marked.

Each decision gets the best action, the value of each action, ``loss`` = best - played (in points;
0 when the played action was the best) and a mark (:data:`MARKS`), and in how many of the worlds
the best and the played action win the hand (what the seat could not know: the replay page says it
in the reader's words).  The estimates are noisy (a few dozen worlds): a loss below about three
quarters of a point is within the noise (:data:`MARKS`).  One engine for all who ask:
``stich analyse RECORD --seat K`` prints a table or (``--json``) :func:`contract`'s JSON, which is
also what the server's ``GET /api/tables/{ID}/analysis`` answers (``stich.web.analyses`` runs
:func:`analyse_decision` one decision at a time in the bot workers).
"""

from __future__ import annotations

import random

#: the marks, worst first, each from this many expected points lost (times the game's UNIT): below
#: the last a decision is ``good``.  With 24 worlds the estimates are noisy: the ``strong`` bot's own
#: decisions lose 0.5 points or more in a fifth of the cases and 0.75 in 6 %, a ``random`` seat's in
#: 29 % and 20 % (docs/analysis.md), so nothing under 0.75 is marked; a blunder gives away about a
#: hand's first stake (2 points in Watten)
MARKS = (("blunder", 2.0), ("mistake", 1.25), ("inaccuracy", 0.75))
#: a game whose points are larger than Watten's: Barbu's hands move scores about five times as far
UNIT = {"barbu": 5.0}


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


def _decided_values(view, legal, decided, worlds, rng, played) -> tuple[dict[str, float], dict[str, float]]:
    """``pimc``'s evaluation of a declared decision (``decide.evaluate``), in points: the
    heuristic's candidates (its choice first) and the action played; and in how many of the
    worlds each wins the hand (its samples' share of won outcomes, times the worlds)."""
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
    from stich.bots.search.solver import won_share

    values = {a: sum(v) / len(v) for a, v in samples.items() if v}
    won = {a: sum(map(won_share, v)) * len(worlds) / len(v) for a, v in samples.items() if v}
    return values, won


def evaluate_decision(view: dict, legal: list[str], worlds_count: int = 24, seed: int = 0,
                      played: str | None = None) -> dict:
    """The value in points of each legal action of one decision (see the module docstring; a
    declared decision values the candidates ``pimc`` would weigh and ``played``).  ``by`` says
    how: ``"bet"``, ``"decision"`` (``decide.py``) or ``"search"`` (the card search); ``worlds``
    how many worlds were drawn, ``wins`` in how many of them each action wins the hand (a share
    of the playouts summed over the worlds, rounded; the cards only, where a bet is among the
    actions: ``p`` is the chance to win the hand there)."""
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
        return {"values": {}, "p": None, "by": None, "worlds": 0, "wins": None}
    values: dict[str, float] = {}
    won: dict[str, float] = {}
    p = None
    by = "search"
    if kind is not None:
        values, p = _bet_values(worlds, seat, legal, rng, kind, decl)
        by = "bet"
    elif len(decided) > 1:
        values, won = _decided_values(view, legal, decided, worlds, rng, played)
        by = "decision"
        decided_set = set(decided)
        legal = [a for a in legal if a not in decided_set or a in values]   # the others: not weighed
    rest = [a for a in legal if a not in values]
    if rest:
        totals = dict.fromkeys(rest, 0.0)
        won.update(dict.fromkeys(rest, 0.0))
        for world in worlds:
            shares: dict[str, float] = {}
            vals, _exact = evaluate(world, seat, rest, rng, 4, 12, wins=shares)
            for a, v in vals.items():
                totals[a] += v
                won[a] += shares.get(a, 0.0)
        if kind == "raise" and rest:
            # playing on is worth the best card; the raise was valued by the bet arithmetic
            best_card = max(rest, key=lambda a: totals[a])
            on = (2 * p - 1) * decl.state_stake(worlds[0])
            shift = on - totals[best_card] / len(worlds)
            values.update({a: totals[a] / len(worlds) + shift for a in rest})
        else:
            values.update({a: totals[a] / len(worlds) for a in rest})
    wins = {a: round(w) for a, w in won.items()}   # a bet's own answers are not among them: ``p`` says it
    return {"values": values, "p": p, "by": by, "worlds": len(worlds), "wins": wins}


def decisions_of(record: dict, seat: int) -> list[dict]:
    """Every decision of ``seat`` (0-based) in a finished match that had more than one legal action:
    ``{"step", "hand", "view", "legal", "played"}``, ``step`` the index of the action in the record's
    ``actions`` and ``view`` what the seat saw then.  ``ValueError`` for a seat the game does not
    have, ``stich.RecordError`` for a record that does not replay, ``Unfinished`` for a match that
    is not over (its analysis would tell a seat of a running match what the others hold)."""
    import stich

    final = stich.replay(record)
    g = final.game
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < g.num_players:
        raise ValueError(f"seat must be 0 to {g.num_players - 1}, not {seat!r}")
    if not final.is_terminal():
        raise Unfinished("the match is not over: it can be analysed once it has ended")
    state = g.new_state(record["seed"], **(record.get("setup") or {}))
    out = []
    for i, (who, text) in enumerate(record["actions"]):
        if who == seat:
            legal = [str(a) for a in state.legal_actions()]
            if len(legal) > 1:
                out.append({"step": i, "hand": state.hand_number, "view": state.view(seat), "legal": legal,
                            "played": text})
        state.apply(text)
    return out


class Unfinished(ValueError):
    """The record's match is not over."""


def mark(loss: float, game: str) -> str:
    """``good``, ``inaccuracy``, ``mistake`` or ``blunder`` for ``loss`` expected points (:data:`MARKS`
    in the game's :data:`UNIT`)."""
    unit = UNIT.get(game, 1.0)
    for name, at in MARKS:
        if loss >= at * unit - 1e-9:
            return name
    return "good"


def analyse_decision(game: str, item: dict, worlds: int = 24, seed: int = 0) -> dict:
    """One decision of :func:`decisions_of` analysed: the contract's fields (``step``, ``action``,
    ``best``, ``loss``, ``mark``, ``alternatives``: every action valued, best first) and what the
    page's sentence needs (``hand``, ``by``, ``worlds``, ``wins``, ``p``).  Seeded by ``seed`` and
    the step, so the terminal, the server and a rerun give the same numbers."""
    played = item["played"]
    if played.startswith("cut"):
        # the cut only chooses among unknown cards: nothing the seat knew makes one cut better
        values, res = {played: 0.0}, {"by": "chance", "worlds": 0, "wins": None, "p": None}
    else:
        res = evaluate_decision(item["view"], item["legal"], worlds, seed + item["step"], played=played)
        values = res["values"] if played in res["values"] else {played: 0.0}
    best = max(values, key=lambda a: (values[a], a == played))   # a tie goes to the action played
    loss = round(max(0.0, values[best] - values[played]), 3)
    order = sorted(values, key=lambda a: (-values[a], a != played))
    return {"step": item["step"], "action": played, "best": best, "loss": loss, "mark": mark(loss, game),
            "alternatives": [{"action": a, "value": round(values[a], 3)} for a in order],
            "hand": item["hand"], "by": res["by"], "worlds": res["worlds"], "wins": res["wins"],
            "p": None if res["p"] is None else round(res["p"], 3)}


def analyse(record: dict, seat: int, worlds: int = 24, seed: int = 0) -> dict:
    """Evaluate every decision of ``seat`` (0-based) in a finished match record: the full result
    (:func:`contract` is what the terminal's ``--json`` and the server's API give of it)."""
    import stich

    game = stich.replay(record).game
    rows = [analyse_decision(game.name, item, worlds, seed) for item in decisions_of(record, seat)]
    return result(game.name, game.variant, seat, worlds, rows)


def result(game: str, variant: str, seat: int, worlds: int, rows: list[dict]) -> dict:
    """The analysis of a whole match from its decisions (:func:`analyse_decision`)."""
    counts = {name: sum(r["mark"] == name for r in rows) for name, _ in MARKS}
    return {"game": game, "variant": variant, "seat": seat, "worlds": worlds, "status": "done",
            "progress": 1.0, "decisions": rows, "total_loss": round(sum(r["loss"] for r in rows), 3),
            "marks": counts}


#: the keys of the JSON the API and ``stich analyse --json`` give (issue #38's contract)
CONTRACT_KEYS = ("step", "action", "best", "loss", "mark", "alternatives")


def contract(res: dict, status: str = "done", progress: float = 1.0) -> dict:
    """The contract's JSON of an analysis: ``{"seat", "status", "progress", "decisions"}``, each
    decision with exactly :data:`CONTRACT_KEYS`."""
    return {"seat": res["seat"], "status": status, "progress": progress,
            "decisions": [{k: r[k] for k in CONTRACT_KEYS} for r in res["decisions"]]}


def table(res: dict) -> str:
    """A readable table of :func:`analyse`'s result (``?!`` an inaccuracy, ``?`` a mistake, ``??`` a
    blunder)."""
    sign = {"good": "", "inaccuracy": " ?!", "mistake": " ?", "blunder": " ??"}
    m = res["marks"]
    lines = [f"{res['game']} ({res['variant']}), seat {res['seat'] + 1}: {len(res['decisions'])} decisions, "
             f"{m['inaccuracy']} inaccuracies, {m['mistake']} mistakes, {m['blunder']} blunders, "
             f"{res['total_loss']:.2f} expected points lost",
             f"{'#':>4} {'hand':>4}  {'played':<14} {'best':<14} {'loss':>6}"]
    for r in res["decisions"]:
        lines.append(f"{r['step']:>4} {r['hand']:>4}  {r['action']:<14} {r['best']:<14} {r['loss']:>6.2f}"
                     f"{sign[r['mark']]}")
    return "\n".join(lines)
