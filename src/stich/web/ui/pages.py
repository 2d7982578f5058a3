"""The pages: home, lobby, table, replay, rules, and the static files.

Pages are rendered on the server in the reader's language (``?lang=`` > the ``lang`` cookie >
``Accept-Language``); the table's live part arrives over the socket as fragments from
``render_table``.  The JSON API the pages call (quick play, create, join, lobby) is the server's.
"""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

import stich
from stich.bots.levels import LEVELS
from stich.i18n import LANGS, negotiate
from stich.web import jsonin
from stich.web.spec import signals_refusal
from stich.web.ui import analysis as analysis_model
from stich.web.ui import replay as replay_model
from stich.web.ui import rulesdoc
from stich.web.ui.env import LEVEL_WORDS, STATIC, environment, option_words

RECORD_MAX = 4 * 1024 * 1024


#: the level quick play and new seats start from: the strength quick play had before levels existed (pimc)
DEFAULT_LEVEL = "strong"
#: seconds a bot waits before it moves at the pages' tables (the server's ``bot_delay``; its API default
#: is 0): without a pause the bots answer a card at once and a person never sees a trick being played
BOT_DELAYS = (0, 0.5, 1, 2)
PAGE_BOT_DELAY = 1
#: the installed app's colour (its title bar, its splash screen): the felt of the table (stich.css --felt)
THEME = "#1f6b46"


def levels() -> list[dict]:
    """The bot levels for the forms, in the order of ``stich.bots.levels.LEVELS`` (weakest first)."""
    return [{"name": name, "word": LEVEL_WORDS[name][0], "help": LEVEL_WORDS[name][1]} for name in LEVELS]


def language(request: Request) -> str:
    lang = request.query_params.get("lang")
    if lang in LANGS:
        return lang
    lang = request.cookies.get("lang")
    if lang in LANGS:
        return lang
    return negotiate(request.headers.get("accept-language"))


def page(request: Request, template: str, status: int = 200, lang_to: tuple[str, dict] | None = None,
         **data) -> HTMLResponse:
    """``template`` in the reader's language.  Its language switch asks for the same page again (a ``GET`` of
    this address and query); ``lang_to`` (path, query) names another address for it: a page that answers a
    form's ``POST`` has an address that a ``GET`` may not open (405), and the query of a form is its body."""
    lang = language(request)
    env = environment()
    path, query = lang_to or (request.url.path, dict(request.query_params))
    html = env.get_template(template).render(request=request, path=path, query=query, **env.i18n_globals(lang),
                                             **data)
    response = HTMLResponse(html, status_code=status)
    if request.query_params.get("lang") in LANGS:   # a chosen language is remembered for a year
        response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="lax")
    response.headers["Content-Language"] = lang
    return response


def games_catalogue() -> list[dict]:
    """Every game, its variants and its options with their explanation and rule, for the forms."""
    out = []
    for name in stich.games():
        g = stich.game(name)
        variants = []
        for v in g.variants:
            gv = stich.game(name, v)
            variants.append({"name": v, "players": gv.num_players, "signals": signals_refusal(gv) is None})
        options = []
        words = option_words(name)
        for spec in g.option_specs:
            w = words[spec.name]
            # every value as a msgid (the template translates): ``only_hearts_left`` -> "only when you hold
            # nothing else"; a number stays a number
            def word(v, w=w):
                return w["values"].get(str(v), str(v))
            values = None if spec.values is int else [(str(x), word(x)) for x in spec.values]
            default = word(spec.default) if not isinstance(spec.default, dict) else None
            options.append({"name": spec.name, "label": w["label"], "choices": values, "default": default,
                            "defaults": {k: word(v) for k, v in spec.default.items()}
                            if isinstance(spec.default, dict) else None,
                            "help": w["help"], "rule": spec.rule, "variants": list(spec.variants or []),
                            "minimum": spec.minimum, "maximum": spec.maximum})
        out.append({"name": name, "title": g.title, "variants": variants, "default_variant": g.default_variant,
                    "options": options})
    return out


async def home(request: Request):
    return page(request, "home.html", games=games_catalogue(), levels=levels(), default_level=DEFAULT_LEVEL,
                bot_delays=BOT_DELAYS, bot_delay=PAGE_BOT_DELAY)


async def lobby(request: Request):
    return page(request, "lobby.html", games=games_catalogue())


async def table_page(request: Request):
    table_id = request.path_params["table_id"]
    meta = None
    facade = getattr(request.app.state, "stich", None)
    if facade is not None:
        try:
            meta = await facade.table_meta(table_id)
        except Exception:
            meta = None
        if meta is None:
            return page(request, "error.html", status=404, message_id="no_table")
    return page(request, "table_page.html", table_id=table_id, meta=meta or {})


async def replay_page(request: Request):
    table_id = request.path_params["table_id"]
    facade = getattr(request.app.state, "stich", None)
    record = None
    if facade is not None:
        try:
            record = await facade.record(table_id)
        except Exception:
            record = None
    if record is None:
        return page(request, "error.html", status=404, message_id="no_record")
    # ?analysis=K: seat K's stored analysis shown with the replay (stich.web.ui.analysis)
    asked = request.query_params.get("analysis", "")
    result = await facade.analysis(table_id, int(asked)) if asked.isdigit() and len(asked) < 3 else None
    return _replay(request, record, table_id=table_id, analysed=result, asked=asked)


def _replay(request: Request, record: dict, table_id=None, form=None, analysed=None, asked="") -> HTMLResponse:
    lang = language(request)
    raw_step = (form or request.query_params).get("step", "")
    seat = (form or request.query_params).get("seat", "")
    try:
        model = replay_model.build(record, raw_step, seat, lang)
    except stich.RecordError as exc:
        return page(request, "error.html", status=400, message_id="bad_record", detail=str(exc))
    uploaded = json.dumps(record, separators=(",", ":")) if table_id is None else None
    shown = None if analysed is None else analysis_model.build(analysed, model["step"], table_id, lang)
    return page(request, "replay.html", table_id=table_id, r=model, uploaded=uploaded, analysis=shown,
                asked=asked, analysable=table_id is not None and bool(record.get("terminal")))


async def replay_upload(request: Request):
    if request.method == "GET":
        return page(request, "upload.html")
    form = await request.form()
    data = form.get("record")
    try:
        if hasattr(data, "read"):
            raw = await data.read(RECORD_MAX + 1)
        else:
            raw = (data or "").encode()
        if len(raw) > RECORD_MAX:
            raise jsonin.BadJSON("it is larger than 4 MB")
        record = jsonin.loads(raw, "it")
    except jsonin.BadJSON as exc:
        return page(request, "error.html", status=400, message_id="bad_record",
                    detail=f"the file is not a JSON record: {exc}")
    return _replay(request, record, form=form)


async def rules(request: Request):
    """A game's rules in the reader's language: the players' guide first, then the complete rulebook with an
    anchor per numbered ruling; ``?rule=R14`` (the search field) answers with the address of that ruling."""
    game = request.path_params["game"]
    if game not in stich.games():
        return page(request, "error.html", status=404, message_id="no_game")
    asked = request.query_params.get("rule")
    if asked is not None and asked.strip():
        where = rulesdoc.find(game, asked)
        if where is not None:
            return RedirectResponse(where, status_code=303)
    lang = language(request)
    guide, guide_lang = rulesdoc.guide(game, lang)
    book = rulesdoc.rulebook(game)
    g = stich.game(game)
    return page(request, "rules.html", game=game, title=g.title, guide=guide and guide.html, guide_lang=guide_lang,
                body=book and book.html, has_notes=rulesdoc.notes(game) is not None, asked=asked,
                not_found=asked is not None and bool(asked.strip()), summary=g.rules_summary(),
                games=games_catalogue())


async def rules_notes(request: Request):
    """The project's notes on a game (``docs/<game>.md``): how stich writes it down and its project rulings."""
    game = request.path_params["game"]
    doc = rulesdoc.notes(game) if game in stich.games() else None
    if doc is None:
        return page(request, "error.html", status=404, message_id="no_game")
    return page(request, "rules.html", game=game, title=stich.game(game).title, guide=None, guide_lang=None,
                body=doc.html, notes_page=True, has_notes=True, asked=None, not_found=False, summary="",
                games=games_catalogue())


async def manifest(request: Request):
    """The web app manifest: what a phone's "add to home screen" installs (Chromium's installability: a name,
    icons of 192 and 512 px, a start URL, standalone display), in the reader's language."""
    lang = language(request)
    _ = environment().translator_for(lang).gettext
    v = environment().globals["static_version"]
    body = {
        "name": _("stich — card games of the Alps"), "short_name": "stich", "lang": lang,
        "description": _("The trick-taking games of the Alps, Italy and France: play with friends or with bots, "
                         "no account needed."),
        "start_url": "/", "scope": "/", "display": "standalone", "theme_color": THEME, "background_color": THEME,
        "icons": [{"src": f"/static/icon-{n}.png?v={v}", "sizes": f"{n}x{n}", "type": "image/png", "purpose": "any"}
                  for n in (192, 512)] + [{"src": f"/static/icon.svg?v={v}", "sizes": "any", "type": "image/svg+xml"}],
    }
    return Response(json.dumps(body, ensure_ascii=False), media_type="application/manifest+json",
                    headers={"Cache-Control": "no-cache", "Content-Language": lang})


async def service_worker(request: Request):
    """The service worker at the site's root (its scope is every page): the static ``sw.js``, never cached
    by the browser's HTTP cache so that a release reaches it at the next visit."""
    return Response((STATIC / "sw.js").read_text(encoding="utf-8"), media_type="text/javascript",
                    headers={"Cache-Control": "no-cache"})


async def robots(request: Request):
    return PlainTextResponse("User-agent: *\nDisallow: /t/\nDisallow: /replay/\n")


class CachedStatic(StaticFiles):
    """Static files with a long cache: their URLs carry a fingerprint of the contents."""

    async def get_response(self, path, scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code == 200:
            response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
        return response


def routes() -> list:
    return [
        Route("/", home, name="home"),
        Route("/lobby", lobby, name="lobby"),
        Route("/t/{table_id}", table_page, name="table"),
        Route("/replay", replay_upload, methods=["GET", "POST"], name="replay_upload"),
        Route("/replay/{table_id}", replay_page, name="replay"),
        Route("/rules/{game}", rules, name="rules"),
        Route("/rules/{game}/notes", rules_notes, name="rules_notes"),
        Route("/robots.txt", robots),
        Route("/manifest.webmanifest", manifest, name="manifest"),
        Route("/sw.js", service_worker, name="service_worker"),
        Mount("/static", app=CachedStatic(directory=str(STATIC)), name="static"),
    ]
