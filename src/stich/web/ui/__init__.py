"""The browser pages of ``stich serve``: server-rendered HTML, one small vanilla JS module, no build step.

* ``render_table(ctx) -> str``: one seat's table as an HTML fragment (the socket's ``html`` messages).
* ``routes()``: the Starlette routes of the pages (``/``, ``/lobby``, ``/t/{ID}``, ``/replay/{ID}``,
  ``/rules/{game}``, ``/static/...``; ``/tournaments/{ID}``, the director's ``/tournaments/new``, the
  registration ``/tournaments/{ID}/join``; the players' ``/players/{name}``, ``/leaderboard``, ``/me``; the
  clubs' ``/clubs``, ``/clubs/{club}``, ``/clubs/{club}/join``), included by the server app.
"""

from __future__ import annotations


def render_table(ctx: dict) -> str:
    from stich.web.ui.table import render_table as render
    return render(ctx)


def routes():
    from stich.web.ui.club import routes as club_routes
    from stich.web.ui.pages import routes as page_routes
    from stich.web.ui.profile import routes as player_routes
    from stich.web.ui.tourney import routes as tournament_routes
    from stich.web.ui.tourney_director import routes as director_routes
    from stich.web.ui.tourney_join import routes as join_routes
    return player_routes() + club_routes() + director_routes() + join_routes() + tournament_routes() + page_routes()


__all__ = ["render_table", "routes"]
