"""The director's form to create a tournament: ``/tournaments/new`` (docs/tournaments.md, "Run a tournament in
the browser").

Two plain forms, no script needed: the first (``GET``, ``?play=GAME/VARIANT``) picks the game and variant, so
that the second shows that variant's options in words, as the home page's create form does; the second
(``POST``) holds the format, the rounds, the people's names (one a line) and the bots that fill the tables.
:func:`parse` turns it into the body of ``POST /api/tournaments`` or into the reader's words for what is
wrong (nothing is created then); the tournament is made by the API's own code path
(``Facade.create_tournament``) and the director lands on the tournament's page with the director's key in its
address (``?director=``)."""

from __future__ import annotations

from urllib.parse import parse_qsl, quote

from starlette.requests import ClientDisconnect, Request
from starlette.responses import RedirectResponse

import stich
from stich.bots.levels import LEVELS
from stich.web.spec import BadRequest
from stich.web.tourney.rules import DUPLICATE, KINDS, MAX_DEALS, MAX_MATCHES, MAX_PLAYERS, MAX_ROUNDS
from stich.web.ui.env import N_, environment
from stich.web.ui.pages import games_catalogue, language, levels, page

#: the formats offered, each with one line saying what it is (docs/tournaments.md, "Formats")
FORMATS = {
    "rounds": (N_("Rounds drawn by lot (as at a prize tournament in the inn)"),
               N_("Each round the tables and the partners are drawn again by lot, avoiding repeated partners.")),
    "swiss": (N_("Swiss"),
              N_("After the first round, players of about the same standing meet; nobody meets the same players twice where it can be avoided.")),  # noqa: E501
    "duplicate": (N_("Duplicate"),
                  N_("Every table of a round plays the same cards; each result counts against those who held the same hand.")),  # noqa: E501
}
NAME_MAX = 40                 # as a table's seat name (stich.web.spec.clean_name)
FORM_MAX = 64 * 1024          # bytes of a posted form (128 names of 40 characters fit many times over)
DEFAULTS = {"format": "rounds", "rounds": "3", "games": "3", "bots": "0", "level": "club"}


class FormRefused(Exception):
    """A posted form that cannot be read (too large, not a form): answered 400 with these words."""


async def read_form(request: Request) -> dict[str, list[str]]:
    """A posted ``application/x-www-form-urlencoded`` body, read up to :data:`FORM_MAX` bytes: field -> values."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise FormRefused(N_("The form did not arrive as a form."))
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > FORM_MAX:
                raise FormRefused(N_("The form is too large."))
            chunks.append(chunk)
    except ClientDisconnect:
        raise FormRefused(N_("The form did not arrive as a form.")) from None
    out: dict[str, list[str]] = {}
    try:
        pairs = parse_qsl(b"".join(chunks).decode("utf-8"), keep_blank_values=True, max_num_fields=400)
    except (UnicodeDecodeError, ValueError):
        raise FormRefused(N_("The form did not arrive as a form.")) from None
    for key, value in pairs:
        out.setdefault(key, []).append(value)
    return out


def chosen(play: str | None) -> tuple[str, str] | None:
    """``GAME/VARIANT`` -> (game, variant) when both exist, else None."""
    game, _, variant = (play or "").partition("/")
    if game not in stich.games() or variant not in stich.game(game).variants:
        return None
    return game, variant


def _whole(raw: str, low: int, high: int) -> int | None:
    raw = raw.strip()
    if not raw.lstrip("-").isdigit():
        return None
    value = int(raw)
    return value if low <= value <= high else None


def _options(form: dict, game: str, variant: str, _) -> tuple[dict, list[str]]:
    """The options typed for this variant (an empty field: as the variant plays it), checked in words."""
    from stich.web.ui.env import option_words
    words = option_words(game)
    options, errors = {}, []
    for spec in stich.game(game).option_specs:
        raw = form.get(f"opt-{spec.name}", "").strip()
        if not raw or not spec.applies_to(variant):
            continue
        label = _(words[spec.name]["label"])
        if spec.values is int:
            low = spec.minimum if spec.minimum is not None else -10**6
            high = spec.maximum if spec.maximum is not None else 10**6
            value = _whole(raw, low, high)
            if value is None:
                errors.append((_("%(option)s: a whole number from %(low)s to %(high)s.") if spec.maximum is not None
                               else _("%(option)s: a whole number, at least %(low)s."))
                              % {"option": label, "low": low, "high": high})
                continue
            options[spec.name] = value
        else:
            match = [v for v in spec.values if str(v) == raw]
            if not match:
                errors.append(_("%(option)s: choose one of the values offered.") % {"option": label})
                continue
            options[spec.name] = match[0]
    return options, errors


def _names(text: str, _) -> tuple[list[str], list[str]]:
    """The people's names, one a line (blank lines left out), each checked; duplicates named."""
    names, errors, seen = [], [], {}
    for line in text.splitlines():
        name = "".join(ch for ch in line if ch.isprintable()).strip()
        if not name:
            continue
        if len(name) > NAME_MAX:
            errors.append(_("“%(name)s” is longer than %(n)s characters.") % {"name": name, "n": NAME_MAX})
            continue
        if name.casefold() in seen:
            errors.append(_("The name “%(name)s” is typed twice: each player needs a name of their own.")
                          % {"name": name})
            continue
        seen[name.casefold()] = True
        names.append(name)
    return names, errors


def parse(form: dict, _) -> tuple[dict | None, list[str]]:
    """The create form's fields (field -> text) -> (the body of ``POST /api/tournaments``, []) or (None, what is
    wrong in the reader's words, ``_`` their gettext).  Nothing here is stored."""
    picked = chosen(form.get("play"))
    if picked is None:
        return None, [_("Choose a game and its variant first.")]
    game, variant = picked
    seats = stich.game(game, variant).num_players
    options, errors = _options(form, game, variant, _)
    kind = form.get("format", "")
    if kind not in KINDS or (kind == "duplicate" and game not in DUPLICATE):
        errors.append(_("Choose one of the formats offered."))
    duplicate = kind == "duplicate"
    rounds = _whole(form.get("rounds", ""), 1, MAX_ROUNDS)
    if rounds is None:
        errors.append(_("Rounds: a whole number from 1 to %(n)s.") % {"n": MAX_ROUNDS})
    most = MAX_DEALS if duplicate else MAX_MATCHES
    games = _whole(form.get("games", ""), 1, most)
    if games is None:
        errors.append((_("Deals per round: a whole number from 1 to %(n)s.") if duplicate else
                       _("Matches per round: a whole number from 1 to %(n)s.")) % {"n": most})
    elif duplicate and game in DUPLICATE and DUPLICATE[game](games) is None:
        errors.append(_("A match of %(game)s is its 28 deals: in duplicate, type 28 deals per round.")
                      % {"game": stich.game(game).title})
    names, name_errors = _names(form.get("people", ""), _)
    errors += name_errors
    bots = _whole(form.get("bots", "") or "0", 0, MAX_PLAYERS)
    if bots is None:
        errors.append(_("Bots: a whole number from 0 to %(n)s.") % {"n": MAX_PLAYERS})
        bots = 0
    level = form.get("level", "")
    if bots and level not in LEVELS:
        errors.append(_("Choose how well the bots play."))
    total = len(names) + bots
    registration = form.get("registration") == "on"   # people register by link: the tables are counted at the draw
    if not names and not name_errors and not registration:
        errors.append(_("Type the people's names, one a line."))
    elif total > MAX_PLAYERS:
        errors.append(_("A tournament has at most %(n)s players and bots, not %(count)s.")
                      % {"n": MAX_PLAYERS, "count": total})
    elif registration:
        pass
    elif total % seats and not name_errors:
        more = seats - total % seats
        errors.append(_("%(count)s players and bots do not fill tables of %(n)s: add %(more)s (people or bots).")
                      % {"count": total, "n": seats, "more": more})
    elif duplicate and total < 2 * seats and not name_errors:
        errors.append(_("Duplicate compares the tables that held the same cards: it needs at least two tables (%(n)s players and bots).")  # noqa: E501
                      % {"n": 2 * seats})
    if errors:
        return None, errors
    players = [{"name": n, "kind": "human"} for n in names]
    taken = {n.casefold() for n in names}
    number = 0
    while len(players) < total:    # the bots' names: "Bot 1", "Bot 2", ... skipping a person's name
        number += 1
        name = _("Bot %(n)s") % {"n": number}
        if name.casefold() not in taken:
            players.append({"name": name, "kind": f"bot:{level}"})
    body = {"game": game, "variant": variant, "options": options,
            "format": {"kind": kind, "rounds": rounds, "games_per_round": games}, "players": players}
    if registration:
        body["registration"] = True
    return body, []


def from_preset(table: dict) -> dict[str, str]:
    """A club's preset (a ``POST /api/tables`` body, ``stich.web.clubs``) as the form's fields: the game and
    variant (``play``) and each option as typed (``opt-NAME``).  Its seats and table settings (grace, timer,
    signals) are not a tournament's: its tables are seated by the draw and use the usual settings.
    ``ValueError`` when the game's rules no longer take the preset."""
    try:
        game = stich.game(table["game"], table.get("variant"), **(table.get("options") or {}))
    except Exception as exc:  # noqa: BLE001 - a preset checked when saved, but the rules may have changed since
        raise ValueError(str(exc)) from None
    fields = {"play": f"{game.name}/{game.variant}"}
    for name, value in (table.get("options") or {}).items():
        fields[f"opt-{name}"] = str(value)
    return fields


def _catalogue(picked) -> tuple[list[dict], dict | None]:
    """The games for the chooser, and the chosen variant's game with only the options that apply to it."""
    games = games_catalogue()
    if picked is None:
        return games, None
    game, variant = picked
    g = next(g for g in games if g["name"] == game)
    shown = dict(g, options=[o for o in g["options"] if not o["variants"] or variant in o["variants"]],
                 variant=variant, players=stich.game(game, variant).num_players,
                 formats=[k for k in KINDS if k != "duplicate" or game in DUPLICATE])
    return games, shown


def _form_page(request: Request, form: dict, errors: list[str], status: int = 200, club: dict | None = None):
    picked = chosen(form.get("play"))
    games, shown = _catalogue(picked)
    # the answer to the posted form: its language switch opens the form again (a GET) for the same game and
    # club; what was typed stays behind (names in an address would be shared with every link to it)
    kept = {"play": "/".join(picked) if picked else None, "club": club and club["club"]}
    lang_to = None if request.method == "GET" else ("/tournaments/new", {k: v for k, v in kept.items() if v})
    response = page(request, "tournament_new.html", status=status, lang_to=lang_to, games=games, g=shown,
                    form=form, errors=errors,
                    club=club,
                    formats=FORMATS, levels=levels(), play=form.get("play", ""),
                    typed_options=[k[4:] for k, v in form.items() if k.startswith("opt-") and v])
    response.headers["Cache-Control"] = "no-store"
    return response


NOT_CLUB_ADMIN = N_("Only an admin of this club can start a tournament for it: sign in as one of its admins, or leave the club out.")  # noqa: E501


async def _club(request: Request, club_id: str | None, form: dict):
    """(the club {"club", "name"} the form is for, None) when the reader is its admin or no club is asked;
    (None, the 403 form page) otherwise (an unknown club and another's read the same)."""
    if club_id is None:
        return None, None
    facade = request.app.state.stich
    club = await facade.admin_club(club_id, await facade.me(request))
    if club is None:
        _ = environment().translator_for(language(request)).gettext
        return None, _form_page(request, {k: v for k, v in form.items() if k != "club"}, [_(NOT_CLUB_ADMIN)],
                                status=403)
    return club, None


async def new(request: Request):
    if request.method == "GET":
        form = {**DEFAULTS, "play": request.query_params.get("play", "")}
        club, refused = await _club(request, request.query_params.get("club"), form)
        if refused is not None:
            return refused
        preset_id = request.query_params.get("preset")
        if club is not None and preset_id:   # the club's house rules: its game, variant and options
            preset = next((p for p in club["presets"] if str(p["preset"]) == preset_id), None)
            _ = environment().translator_for(language(request)).gettext
            if preset is None:
                return _form_page(request, form, [_("This club has no such preset.")], status=404, club=club)
            try:
                form.update(from_preset(preset["table"]), preset=preset_id)
            except ValueError as exc:
                return _form_page(request, form, [_("The game's rules no longer take this preset: %(why)s")
                                                  % {"why": str(exc)}], status=409, club=club)
        picked = chosen(form["play"])
        if picked is None and form["play"]:
            return _form_page(request, form, [], status=404, club=club)
        if picked is None:   # the game's own default variant until another is chosen
            first = stich.game(stich.games()[0])
            form["play"] = f"{first.name}/{first.default_variant}"
        return _form_page(request, form, [], club=club)
    _ = environment().translator_for(language(request)).gettext
    # another site's page must not make a visitor's browser create tournaments.  Its Origin cannot tell: with
    # the pages' no-referrer policy a browser sends "Origin: null" even for this site's own form; the fetch
    # metadata can (sent by every current browser; a program without it is no browser to misuse)
    if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        return _form_page(request, {**DEFAULTS}, [_("This form was sent from another site.")], status=403)
    try:
        fields = {k: v[-1] for k, v in (await read_form(request)).items()}
    except FormRefused as exc:
        return _form_page(request, {**DEFAULTS}, [_(str(exc))], status=400)
    club, refused = await _club(request, fields.get("club"), fields)
    if refused is not None:
        return refused
    body, errors = parse(fields, _)
    if errors:
        return _form_page(request, fields, errors, status=400, club=club)
    facade = request.app.state.stich
    try:
        made = await facade.create_tournament(body, club and club["club"], await facade.me(request))
    except BadRequest as exc:   # what the form cannot know beforehand (a combination of options): the API's words
        return _form_page(request, fields, [_("The tournament cannot be created: %(why)s") % {"why": str(exc)}],
                          status=exc.status, club=club)
    where = f"/tournaments/{made['tournament']}?director={quote(made['director_token'], safe='')}"
    return RedirectResponse(where, status_code=303)
