"""The tournament's pages: ``/tournaments/{ID}`` (rounds, tables with their links, results as they come,
the standings with their tie-breaks; printable: the print style sheet leaves the ranking and the round)
and ``/tournaments/{ID}/sheet/{round}/{number}``, a table's score sheet to print for a paper table.
The page follows the tournament by itself (``/static/tournament.js`` reloads it when a result comes in)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import Route

import stich
from stich.web.ui.env import N_
from stich.web.ui.pages import page

#: the formats in words (docs/tournaments.md)
FORMAT_WORDS = {"rounds": N_("rounds drawn by lot"), "swiss": N_("swiss (by standing)"),
                "duplicate": N_("duplicate (the same cards at every table)")}
#: the tie-breaks in words (stich.web.tourney.scoring)
TIEBREAK_WORDS = {"points": N_("match points"), "won": N_("matches won"), "buchholz": N_("Buchholz"),
                  "tops": N_("tops"), "raw": N_("raw score")}


async def _data(request: Request):
    token = request.query_params.get("token")
    return await request.app.state.stich.tournament(request.path_params["tid"], token), token


async def tournament(request: Request):
    data, token = await _data(request)
    if data is None:
        return page(request, "error.html", status=404, message_id="no_tournament")
    response = page(request, "tournament.html", t=data, token=token, title=stich.game(data["game"]).title,
                    format_words=FORMAT_WORDS, tiebreak_words=TIEBREAK_WORDS)
    response.headers["Cache-Control"] = "no-store"   # a player's page carries a token and changes live
    return response


async def sheet(request: Request):
    data, _token = await _data(request)
    if data is None:
        return page(request, "error.html", status=404, message_id="no_tournament")
    try:
        rnd = data["rounds"][int(request.path_params["round"]) - 1]
        table = next(t for t in rnd["tables"] if t["number"] == int(request.path_params["number"]))
    except (ValueError, IndexError, StopIteration):
        return page(request, "error.html", status=404, message_id="no_tournament")
    return page(request, "tournament_sheet.html", t=data, round=rnd["round"], table=table,
                title=stich.game(data["game"]).title, matches=range(1, data["format"]["games_per_round"] + 1))


def routes() -> list:
    return [
        Route("/tournaments/{tid}", tournament, name="tournament"),
        Route("/tournaments/{tid}/sheet/{round}/{number}", sheet, name="tournament_sheet"),
    ]
