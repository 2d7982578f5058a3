"""The tournament's pages: ``/tournaments/{ID}`` (rounds, tables with their links, results as they come,
the standings with their tie-breaks; printable: the print style sheet leaves the ranking and the round)
and ``/tournaments/{ID}/sheet/{round}/{number}``, a table's score sheet to print for a paper table.
The page follows the tournament by itself (``/static/tournament.js`` reloads it when a result comes in).
Opened with the director's key (``?director=KEY``) it adds the director's parts: the key to bookmark, each
person's link, the draw and the score sheets (``_director.html``; their forms: ``stich.web.ui.tourney_director``)."""

from __future__ import annotations

import time

from starlette.requests import Request
from starlette.routing import Route

import stich
from stich.web.ui.env import N_
from stich.web.ui.pages import levels, page

#: the formats in words (docs/tournaments.md)
FORMAT_WORDS = {"rounds": N_("rounds drawn by lot"), "swiss": N_("swiss (by standing)"),
                "duplicate": N_("duplicate (the same cards at every table)")}
#: the tie-breaks in words (stich.web.tourney.scoring)
TIEBREAK_WORDS = {"points": N_("match points"), "won": N_("matches won"), "buchholz": N_("Buchholz"),
                  "tops": N_("tops"), "raw": N_("raw score")}


async def _data(request: Request):
    token = request.query_params.get("token")
    return await request.app.state.stich.tournament(request.path_params["tid"], token), token


def render(request: Request, data: dict, token: str | None = None, status: int = 200, error: str | None = None,
           typed: dict | None = None):
    """The tournament's page; opened with the director's key (``data["director"]``) it adds the director's
    parts (stich.web.ui.tourney_director): ``error`` in the reader's words, ``typed`` the score sheet form
    sent back with its fields as typed (``{"form": id, "fields": {...}}``)."""
    d = data.get("director")
    # the answer to a director's form: its language switch opens the page itself (the form's address takes no
    # GET), as the director opened it
    lang_to = None if request.method == "GET" else (
        f"/tournaments/{data['tournament']}", {"director": d["key"]} if d and not d.get("refused") else {})
    response = page(request, "tournament.html", status=status, lang_to=lang_to, t=data, token=token, d=d,
                    title=stich.game(data["game"]).title, format_words=FORMAT_WORDS, tiebreak_words=TIEBREAK_WORDS,
                    error=error, typed=typed or {}, origin=str(request.base_url).rstrip("/"),
                    side_groups=side_groups, when=when, levels=levels())
    response.headers["Cache-Control"] = "no-store"   # a player's page carries a token and changes live
    return response


def side_groups(players: list[str], sides: list[int]) -> list[tuple[str, list[int]]]:
    """The sides of a table in seat order: (the partners' names, "Anna & Sepp"; their seats).  A game that
    places every player has a side per seat; a score sheet has a line per side (partners score together)."""
    out: dict[int, list[int]] = {}
    for seat, side in enumerate(sides):
        out.setdefault(side, []).append(seat)
    return [(" & ".join(players[s] for s in seats), seats) for seats in out.values()]


def when(at: float) -> str:
    """A moment of the log, in UTC (the server's clock; the page does not know the reader's zone)."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))


async def tournament(request: Request):
    director = request.query_params.get("director")
    token = request.query_params.get("token")
    facade = request.app.state.stich
    # a person's link opened while signed in as a player: the entry becomes that player's (their history)
    player = await facade.me(request) if token else None
    data = await facade.tournament(request.path_params["tid"], token, director, player)
    if data is None:
        return page(request, "error.html", status=404, message_id="no_tournament")
    return render(request, data, token)


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
