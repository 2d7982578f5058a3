"""The clubs' pages: ``/clubs`` (one's clubs, making one), ``/clubs/{club}`` (a member's club: start a
table from a preset, the open tables, the leaderboard, the history, the members; an admin's invite
links, presets and members' roles) and ``/clubs/{club}/join`` (an invite link: its token is in the
address's fragment, which the browser never sends, and ``/static/clubs.js`` posts it).  Server-rendered;
the buttons post JSON to the clubs' API (docs/web-protocol.md, "Clubs")."""

from __future__ import annotations

import time

from starlette.requests import Request
from starlette.routing import Route

from stich.bots.levels import LEVELS
from stich.web.ratings import keys
from stich.web.ui.env import variant_words
from stich.web.ui.pages import games_catalogue, levels, page
from stich.web.ui.profile import key_words, tournament_rows

TIMER_CHOICES = ("off", "relaxed", "fast")


def _date(ts: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(ts))


def preset_summary(table: dict, titles: dict) -> dict:
    """What a preset's line says: the game's title, its variant, how many people and bots, rated."""
    seats = table.get("seats") or []
    bots = sum(1 for s in seats if isinstance(s, str) and s.lower().startswith("bot"))
    return {"title": titles.get(table.get("game"), table.get("game")), "variant": table.get("variant"),
            "people": len(seats) - bots if seats else 1, "bots": bots, "rated": bool(table.get("rated")),
            "timer": table.get("timer", "off")}


def _no_store(response):
    response.headers["Cache-Control"] = "no-store"
    return response


async def clubs_page(request: Request):
    facade = request.app.state.stich
    me = await facade.me(request)
    mine = await facade.clubs_of(me["id"]) if me else []
    return _no_store(page(request, "clubs.html", me=me, clubs=mine))


async def club_page(request: Request):
    facade = request.app.state.stich
    me = await facade.me(request)
    key = request.query_params.get("key") or keys()[0]
    if key not in keys():
        return page(request, "error.html", status=404, message_id="no_leaderboard")
    data = None if me is None else await facade.club_page(request.path_params["club"], me["id"], key)
    if data is None:   # an unknown club and another club read the same
        return _no_store(page(request, "error.html", status=404, message_id="no_club"))
    catalogue = games_catalogue()
    titles = {g["name"]: g["title"] for g in catalogue}
    for p in data["presets"]:
        p["summary"] = preset_summary(p["table"], titles)
    for t in data["tables"]:
        t["title"] = titles.get(t["game"], t["game"])
        t["free"] = any(s["kind"] == "human" and not s["taken"] for s in t["seats"])
    for h in data["history"]:
        h["title"], h["date"] = titles.get(h["game"], h["game"]), _date(h["finished"])
    tournament_rows(data["tournaments"])
    for i in data["invites"]:
        i["date"] = _date(i["created"])
    return _no_store(page(request, "club.html", me=me, club=data, key=key, key_words=key_words(request),
                          games=catalogue, variant_words=variant_words(), levels=levels(),
                          default_level="club" if "club" in LEVELS else next(iter(LEVELS)), timers=TIMER_CHOICES))


async def join_page(request: Request):
    me = await request.app.state.stich.me(request)
    return _no_store(page(request, "club_join.html", me=me, club_id=request.path_params["club"]))


def routes() -> list:
    return [
        Route("/clubs", clubs_page, name="clubs"),
        Route("/clubs/{club}", club_page, name="club"),
        Route("/clubs/{club}/join", join_page, name="club_join"),
    ]
