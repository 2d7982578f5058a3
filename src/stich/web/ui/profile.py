"""The players' pages: a profile (``/players/{name}``: ratings, the rating's course as a small SVG
drawn here, the matches with their replays, partners and opponents), the leaderboards
(``/leaderboard``) and one's own page (``/me``: become a player, sign in, a one-time code, a password,
one's data, leaving).  Server-rendered; the forms of ``/me`` post JSON through ``/static/players.js``
(no inline script)."""

from __future__ import annotations

import time

from starlette.requests import Request
from starlette.routing import Route

import stich
from stich.web.ratings import keys
from stich.web.ui import figures
from stich.web.ui.env import LEVEL_WORDS, N_, environment, variant_words
from stich.web.ui.pages import language, page

PLAYERS_WORDS = N_("%(game)s, %(n)s players")   # a key of a game played by different numbers of players
#: the bots measured on the rating scale (web/botscale.py): the levels by their words, and the floor
BOT_WORDS = {"random": N_("random (any legal move)"), **{k: v[0] for k, v in LEVEL_WORDS.items()}}
GRAPH_W, GRAPH_H, GRAPH_PAD = 320, 120, 12


def graph(values: list[float]) -> dict:
    """A rating's course as an SVG polyline's points (the first value is the rating before the first
    rated match), with the lowest and highest values for the axis labels."""
    low, high = min(values), max(values)
    if high - low < 20:   # a flat course still gets a visible scale
        low, high = low - 10, high + 10
    step = (GRAPH_W - 2 * GRAPH_PAD) / max(1, len(values) - 1)
    points = []
    for i, v in enumerate(values):
        x = GRAPH_PAD + i * step
        y = GRAPH_PAD + (high - v) / (high - low) * (GRAPH_H - 2 * GRAPH_PAD)
        points.append((round(x, 1), round(y, 1)))
    return {"points": " ".join(f"{x},{y}" for x, y in points), "dots": points, "low": round(low), "high": round(high),
            "first": round(values[0]), "last": round(values[-1]), "width": GRAPH_W, "height": GRAPH_H}


BAR_W, BAR_ROW, BAR_LABEL_W = 320, 26, 250


def bars(stats: list[dict], label) -> dict:
    """The share of matches won per game and variant as an SVG bar chart's rows: each row a label
    (``label(item)``), a track and a bar as long as the share, and the share as a percentage."""
    rows = []
    for i, item in enumerate(stats):
        rows.append({"y": i * BAR_ROW, "label": label(item), "width": round(item["share"] * BAR_LABEL_W, 1),
                     "percent": round(item["share"] * 100), "game": item["game"], "variant": item["variant"]})
    return {"rows": rows, "width": BAR_W, "track": BAR_LABEL_W, "height": max(1, len(rows)) * BAR_ROW}


def key_words(request: Request) -> dict[str, str]:
    """Each rating key's words in the reader's language, in the games' order."""
    gettext = environment().translator_for(language(request)).gettext
    out = {}
    for key in keys():
        name, _, n = key.partition("/")
        out[key] = gettext(PLAYERS_WORDS) % {"game": _title(name), "n": n} if n else _title(name)
    return out


def _date(ts: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(ts))


def tournament_rows(items: list[dict]) -> list[dict]:
    """Tournaments for ``_tournaments.html`` (stich.web.tourney.people.summary): with their date and game's title."""
    for t in items:
        t["date"], t["title"] = _date(t["created"]), _title(t["game"])
    return items


async def profile(request: Request):
    facade = request.app.state.stich
    data = await facade.player_page(request.path_params["name"])
    if data is None:
        return page(request, "error.html", status=404, message_id="no_player")
    game = request.query_params.get("game") or ""
    with_name = (request.query_params.get("with") or "").strip()
    matches = data["matches"]
    if game:
        matches = [m for m in matches if m["game"] == game]
    if with_name:
        folded = with_name.casefold()
        matches = [m for m in matches if any((o["name"] or "").casefold() == folded for o in m["others"])]
    for m in matches:
        m["date"] = _date(m["finished"])
        m["change"] = None if not m["rated"] else round(m["after"] - m["before"])
        m["title"] = _title(m["game"])
    words = key_words(request)
    graphs = [{"key": key, "word": words.get(key, key), **graph(values)} for key, values in data["course"].items()]
    me = await facade.me(request)
    gettext = environment().translator_for(language(request)).gettext
    variants = variant_words()
    for item in data["stats"]:
        item["title"] = _title(item["game"])
        item["variant_word"] = gettext(variants.get(item["variant"], item["variant"]))
    chart = bars(data["stats"], lambda item: f"{item['title']} {item['variant_word']}")
    return page(request, "profile.html", player=data["player"], ratings=data["ratings"], matches=matches,
                stats=data["stats"], chart=chart, graphs=graphs, key_words=words,
                figures=figures.tables(data["figures"], gettext, _title),
                games=sorted({m["game"] for m in data["matches"]}),
                game=game, with_name=with_name, variant_words=variant_words(), titles=_titles(),
                tournaments=tournament_rows(data["tournaments"]),
                own=me is not None and me["name"] == data["player"])


def _title(game: str) -> str:
    try:
        return stich.engine.game_class(game).title or game
    except Exception:  # noqa: BLE001 - a game no longer installed is still named
        return game


def _titles() -> dict:
    return {name: _title(name) for name in stich.games()}


async def leaderboard(request: Request):
    key = request.query_params.get("key") or keys()[0]   # the first game's first key
    if key not in keys():
        return page(request, "error.html", status=404, message_id="no_leaderboard")
    board = await request.app.state.stich.leaderboard(key)
    return page(request, "leaderboard.html", key=key, key_words=key_words(request), board=board, bot_words=BOT_WORDS)


async def me(request: Request):
    facade = request.app.state.stich
    player = await facade.me(request)
    people = await facade.people(player["id"]) if player else []
    for p in people:
        p["date"] = _date(p["last"])
    invitations = await facade.invitations(player["id"]) if player else []
    for i in invitations:
        i["title"] = _title(i["game"])
    tournaments = tournament_rows(await facade.player_tournaments(player["id"])) if player else []
    response = page(request, "me.html", me=player, people=people, invitations=invitations,
                    variant_words=variant_words(), tournaments=tournaments)
    response.headers["Cache-Control"] = "no-store"
    return response


def routes() -> list:
    return [
        Route("/players/{name}", profile, name="player"),
        Route("/leaderboard", leaderboard, name="leaderboard"),
        Route("/me", me, name="me"),
    ]
