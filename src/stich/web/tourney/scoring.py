"""A table's result, and the standings with their tie-breaks (docs/tournaments.md, "Scoring").

A match's result is read from its record (:func:`match_result`: each seat's final match points from the
last public ``scores`` event, partners sharing their side's, and who won from the record's ``returns``)
or typed in from a paper score sheet (:func:`paper_result`).  :func:`standings` ranks the players:

* ``rounds`` and ``swiss`` in a game of two sides (Watten, Battn): 20 tournament points for each match
  won, as at a Preiswatten (wattn.com's tournament: "a won game counts 20 points"); first tie-break the
  match points scored (the sum of the side's final scores, e.g. 15 for 15:9), as a score sheet adds them;
* in a game where every player is placed (Barbu, Biscambiggia): the sum of the final match scores, as
  French Tarot's "donnes libres" rank by the sum of table scores; first tie-break the matches won;
* ``swiss`` adds Buchholz (chess: the sum of the final scores of the opponents one met) before those;
* ``duplicate``: match points as at a bridge club (ACBL: 1 for each result one beat among those who held
  the same cards, 1/2 for each tie); tie-breaks the tops (results beating every other at that seat), then
  the sum of the raw scores.

Players still level share their rank (1, 2, 2, 4).  Bots are never ranked among people (their rank
is None); a tournament of bots only (a test, a demonstration) ranks its bots."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from stich.engine.views import seat_scores
from stich.web.spec import BadRequest

WIN_POINTS = 20


def places(values: list[float]) -> list[int]:
    """1 for the best, ties sharing the better place (competition ranking: 1, 2, 2, 4)."""
    return [1 + sum(1 for other in values if other > v) for v in values]


def _final_scores(events: list[dict], n: int) -> list[float] | None:
    """Per seat, the points of the last public ``scores`` event that gives them."""
    for ev in reversed(events):
        if ev.get("audience") is None and ev.get("type") == "scores":
            points = seat_scores(ev, n)
            if points is not None:
                return points
    return None


def match_result(record: dict, two_sided: bool) -> dict:
    """``{"scores", "won", "place"}`` per seat of a finished match's record."""
    returns = [float(r) for r in record["returns"]]
    n = len(returns)
    scores = _final_scores(record["events"], n) or returns
    place = places(returns)
    won = [r > 0 for r in returns] if two_sided else [p == 1 for p in place]
    return {"scores": [num(s) for s in scores], "won": won, "place": place}


def paper_result(scores, sides: list[int], two_sided: bool) -> dict:
    """A result typed from a score sheet: each seat's final match points (partners the same)."""
    n = len(sides)
    if not isinstance(scores, list) or len(scores) != n or any(
            isinstance(s, bool) or not isinstance(s, (int, float)) or abs(s) > 1e6 for s in scores):
        raise BadRequest(f"'scores' is a list of {n} numbers, each seat's final match points")
    for i in range(n):
        for j in range(i):
            if sides[i] == sides[j] and scores[i] != scores[j]:
                raise BadRequest(f"seats {j + 1} and {i + 1} are partners: their match points are the same")
    place = places([float(s) for s in scores])
    if two_sided:
        top = max(scores)
        won = [s == top and sum(1 for t in scores if t == top) < n for s in scores]
    else:
        won = [p == 1 for p in place]
    return {"scores": [num(s) for s in scores], "won": won, "place": place}


def num(x: float):
    return int(x) if float(x).is_integer() else round(float(x), 2)


@dataclass
class Played:
    """One finished match of one table: its round, its table's number, who sat where, its result."""

    round: int
    number: int
    seats: list[int]
    result: dict


def standings(names: list[str], bots: list[bool], played: list[Played], kind: str, two_sided: bool,
              sides: list[int]) -> list[dict]:
    """The ranking: ``[{"name", "rank", "score", "bot", "tiebreaks", "matches"}]``, best first."""
    n = len(names)
    score = [0.0] * n
    tb: list[dict] = [defaultdict(float) for _ in range(n)]
    matches = [0] * n
    if kind == "duplicate":
        _duplicate(played, score, tb)
    for m in played:
        for seat, p in enumerate(m.seats):
            matches[p] += 1
            if kind == "duplicate":
                tb[p]["raw"] += m.result["scores"][seat]
            elif two_sided:
                score[p] += WIN_POINTS * m.result["won"][seat]
                tb[p]["points"] += m.result["scores"][seat]
            else:
                score[p] += m.result["scores"][seat]
                tb[p]["won"] += m.result["won"][seat]
    order = ["tops", "raw"] if kind == "duplicate" else ["points"] if two_sided else ["won"]
    if kind == "swiss":
        _buchholz(played, score, tb, sides)
        order = ["buchholz", *order]
    ranked = all(bots) or not any(bots)
    keys = [(score[p], *(tb[p][k] for k in order)) for p in range(n)]
    counted = [p for p in range(n) if ranked or not bots[p]]
    out = []
    # the ranked people first, best first; the bots that filled seats after them, by their score: a
    # ranking sheet read from the top names the people who can win a prize
    for p in sorted(range(n), key=lambda p: (bots[p] and not ranked, [-x for x in keys[p]], p)):
        rank = 1 + sum(1 for q in counted if keys[q] > keys[p]) if p in counted else None
        out.append({"name": names[p], "rank": rank, "score": num(score[p]), "bot": bots[p],
                    "tiebreaks": {k: num(tb[p][k]) for k in order}, "matches": matches[p]})
    return out


def _duplicate(played: list[Played], score: list[float], tb: list[dict]) -> None:
    """Match points: each result against the others of its round that held the same seat's cards."""
    by_seat: dict[tuple[int, int], list[tuple[int, float]]] = defaultdict(list)
    for m in played:
        for seat, p in enumerate(m.seats):
            by_seat[(m.round, seat)].append((p, m.result["scores"][seat]))
    for results in by_seat.values():
        for p, mine in results:
            others = [theirs for q, theirs in results if q != p]
            points = sum(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0 for theirs in others)
            score[p] += points
            if others and all(mine > theirs for theirs in others):
                tb[p]["tops"] += 1


def _buchholz(played: list[Played], score: list[float], tb: list[dict], sides: list[int]) -> None:
    """Swiss: the final scores of the opponents met, once per round (partners are not opponents)."""
    met: dict[int, set[tuple[int, int]]] = defaultdict(set)
    for m in played:
        for i, p in enumerate(m.seats):
            for j, q in enumerate(m.seats):
                if sides[i] != sides[j]:
                    met[p].add((m.round, q))
    for p, opponents in met.items():
        tb[p]["buchholz"] = sum(score[q] for _r, q in opponents)
