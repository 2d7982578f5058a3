"""The director's forms on the tournament's page (opened with ``?director=KEY``): draw the next round, with the
tables played on paper, type a table's score sheet or correct a finished table's result, and close
registration by link before round 1 (or open it again).

Plain form posts (no script needed), each carrying the director's key in a hidden field, answered by a
redirect back to the page (``303``) or by the page again with what went wrong in the reader's words and the
fields as typed.  The work is the API's own (``POST /api/tournaments/{ID}/rounds`` and
``.../tables/{TABLE}/result`` through ``Facade.draw_round`` and ``Facade.enter_result``); :func:`parse_sheet`
checks a sheet before anything is stored, so a mistyped field changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

import stich
from stich.bots.levels import LEVELS
from stich.web.spec import BadRequest
from stich.web.ui.env import N_, environment
from stich.web.ui.pages import language, page
from stich.web.ui.tourney import render, side_groups
from stich.web.ui.tourney_new import FormRefused, new, read_form

MOST = 1e6   # the largest score a sheet may hold (stich.web.tourney.scoring.paper_result)
STILL_PLAYED = N_("Round %(n)s is still being played (%(done)s of %(all)s tables finished): draw the next round once every table has its result.")  # noqa: E501
NOT_FILLED = N_("%(count)s players do not fill tables of %(n)s: %(more)s more must register, or let bots fill the last table.")  # noqa: E501
DUPLICATE_TWO = N_("Duplicate compares the tables that held the same cards: it needs at least two tables (%(n)s players and bots).")  # noqa: E501
NOT_DIRECTOR = N_("This is not the director's key of this tournament: only the director may type a result.")


def _number(raw: str) -> int | float | None:
    """A typed score: ``15``, ``-3``, ``7.5`` or ``7,5`` (a decimal comma, as German, Italian and French write)."""
    try:
        value = float(raw.replace(",", ".", 1))
    except ValueError:
        return None
    if value != value or abs(value) > MOST:   # NaN or too large
        return None
    return int(value) if value.is_integer() else round(value, 2)


def parse_sheet(fields: dict, table: dict, sides: list[int], _) -> tuple[list[tuple[str, list]], list[str]]:
    """A table's score sheet form -> ([(match's table id, each seat's points)] to store, []) or ([], what is
    wrong in the reader's words).  Field ``s-M-I`` is match M's points of the table's side I (partners share
    one field: the sheet cannot give them different points).  A match left blank, or typed as it stands, is
    not stored again; an online match still being played is not offered."""
    groups = side_groups(table["players"], sides)
    out, errors = [], []
    for m, match in enumerate(table["matches"]):
        if not table["paper"] and not match["finished"]:
            continue
        raw = [fields.get(f"s-{m}-{i}", "").strip() for i in range(len(groups))]
        if not any(raw):
            continue
        if not all(raw):
            errors.append(_("Match %(n)s: type the points of every side.") % {"n": m + 1})
            continue
        values = [_number(r) for r in raw]
        bad = [(label, r) for (label, _seats), r, v in zip(groups, raw, values, strict=True) if v is None]
        for label, r in bad:
            errors.append(_("Match %(n)s, %(who)s: “%(value)s” is not a number.") % {"n": m + 1, "who": label,
                                                                                    "value": r})
        if bad:
            continue
        scores = [0] * len(sides)
        for (_label, seats), v in zip(groups, values, strict=True):
            for s in seats:
                scores[s] = v
        if match["result"] is not None and match["result"]["scores"] == scores:
            continue
        out.append((match["table"], scores))
    if not out and not errors:
        errors.append(_("Nothing to save: no points were typed or changed."))
    return (out if not errors else []), errors


def _director_url(tid: str, key: str, anchor: str = "") -> str:
    return f"/tournaments/{tid}?director={quote(key, safe='')}" + (f"#{anchor}" if anchor else "")


async def _again(request: Request, tid: str, key: str, status: int, error: str, typed: dict | None = None):
    """The page again (as the director sees it) with ``error``; a tournament gone meanwhile: 404."""
    data = await request.app.state.stich.tournament(tid, None, key)
    if data is None:
        return page(request, "error.html", status=404, message_id="no_tournament")
    return render(request, data, status=status, error=error, typed=typed)


@dataclass
class Posted:
    """A director's form as posted: the tournament's id, the reader's gettext, each field's last value, the
    tables ticked as played on paper, and the director's key (a hidden field of every form)."""

    tid: str
    _: Callable[[str], str]
    fields: dict[str, str]
    paper: list[str]
    key: str


async def _posted(request: Request) -> Posted | Response:
    """What every director's form begins with: the posted form read (:func:`read_form`'s limits) in the
    reader's language, or the 400 page saying why it cannot be read."""
    _ = environment().translator_for(language(request)).gettext
    try:
        form = await read_form(request)
    except FormRefused as exc:
        return page(request, "error.html", status=400, message_id="bad_form", detail=_(str(exc)))
    fields = {k: v[-1] for k, v in form.items()}
    return Posted(request.path_params["tid"], _, fields, form.get("paper", []), fields.get("director", ""))


def _short(data: dict):
    """For a tournament open to registration whose players cannot be drawn yet: a function of ``_`` giving
    why in words; else None."""
    if data["drawn"] or not data["director"] or not data["director"].get("registration"):
        return None
    n = stich.game(data["game"], data["variant"]).num_players
    count = len(data["players"])
    if count < n or count % n:
        more = n - count % n if count >= n else n - count
        return lambda _: _(NOT_FILLED) % {"count": count, "n": n, "more": more}
    if data["format"]["kind"] == "duplicate" and count < 2 * n:
        return lambda _: _(DUPLICATE_TWO) % {"n": 2 * n}
    return None


async def draw(request: Request):
    """``POST /tournaments/{ID}/draw``: the next round, the ticked tables on paper."""
    got = await _posted(request)
    if not isinstance(got, Posted):
        return got
    tid, _, fields, paper, key = got.tid, got._, got.fields, got.paper, got.key
    if any(not p.isdigit() or len(p) > 3 for p in paper):
        return await _again(request, tid, key, 400, _("Tick the tables played on paper among those offered."))
    asked = {"token": key, "paper": sorted({int(p) for p in paper})}
    fill = fields.get("fill", "")
    if fill:   # a tournament open to registration, at its first draw: bots of this level fill the last table
        if fill not in LEVELS:
            return await _again(request, tid, key, 400, _("Choose how well the bots play."))
        asked["fill"] = f"bot:{fill}"
    facade = request.app.state.stich
    try:
        status, body = await facade.draw_round(tid, asked)
    except BadRequest as exc:
        return await _again(request, tid, key, exc.status, _("The round was not drawn: %(why)s") % {"why": str(exc)})
    if status == 201:
        return RedirectResponse(_director_url(tid, key, f"round-{body['round']}"), status_code=303)
    if status == 404:
        return page(request, "error.html", status=404, message_id="no_tournament")
    data = await facade.tournament(tid, None, key)
    if data is None:
        return page(request, "error.html", status=404, message_id="no_tournament")
    if status == 403:
        error = _("This is not the director's key of this tournament: only the director may draw a round.")
    elif data["drawn"] >= data["format"]["rounds"]:
        error = _("All %(n)s rounds are drawn.") % {"n": data["format"]["rounds"]}
    elif short := _short(data):   # open to registration: the people do not fill the tables
        error = short(_)
    elif data["rounds"] and not all(tb["finished"] for tb in data["rounds"][-1]["tables"]):
        tables = data["rounds"][-1]["tables"]
        error = _(STILL_PLAYED) % {"n": data["drawn"], "all": len(tables),
                                   "done": sum(1 for tb in tables if tb["finished"])}
    else:
        error = _("This round was drawn at the same moment by another request: here it is.")
    return render(request, data, status=status, error=error)


async def result(request: Request):
    """``POST /tournaments/{ID}/result/{ROUND}/{TABLE}``: a table's score sheet typed, or its result corrected."""
    got = await _posted(request)
    if not isinstance(got, Posted):
        return got
    tid, _, fields, key = got.tid, got._, got.fields, got.key
    facade = request.app.state.stich
    data = await facade.tournament(tid, None, key)
    if data is None:
        return page(request, "error.html", status=404, message_id="no_tournament")
    d = data["director"]
    if not d or d.get("refused"):
        return render(request, data, status=403, error=_(NOT_DIRECTOR))
    try:
        rnd = data["rounds"][int(request.path_params["round"]) - 1]
        table = next(tb for tb in rnd["tables"] if tb["number"] == int(request.path_params["number"]))
    except (ValueError, IndexError, StopIteration):
        return page(request, "error.html", status=404, message_id="no_tournament")
    form_id = f"sheet-{rnd['round']}-{table['number']}"
    typed = {"form": form_id, "fields": fields}
    entries, errors = parse_sheet(fields, table, d["sides"], _)
    if errors:
        return render(request, data, status=400, error=" ".join(errors), typed=typed)
    for table_id, scores in entries:
        try:
            status, body = await facade.enter_result(tid, table_id, {"token": key, "scores": scores})
        except BadRequest as exc:
            status, body = exc.status, {"error": str(exc)}
        if status == 200:
            continue
        if status == 409:
            error = _("This table's match is still being played: its result can be corrected once it is over.")
        elif status == 403:
            error = _(NOT_DIRECTOR)
        else:
            error = _("The result was not saved: %(why)s") % {"why": body.get("error", "")}
        return await _again(request, tid, key, status, error, typed)
    return RedirectResponse(_director_url(tid, key, form_id), status_code=303)


async def registration(request: Request):
    """``POST /tournaments/{ID}/registration``: the director closes registration by link (``open=no``) before
    round 1, or opens it again (``open=yes``)."""
    got = await _posted(request)
    if not isinstance(got, Posted):
        return got
    tid, _, key = got.tid, got._, got.key
    wanted = got.fields.get("open")
    if wanted not in ("yes", "no"):
        return await _again(request, tid, key, 400, _("Choose whether registration is open or closed."))
    status, body = await request.app.state.stich.set_registration(tid, {"token": key, "open": wanted == "yes"})
    if status == 200:
        return RedirectResponse(_director_url(tid, key, "registration"), status_code=303)
    if status == 404:
        return page(request, "error.html", status=404, message_id="no_tournament")
    error = {403: _("This is not the director's key of this tournament: only the director may close or open registration."),  # noqa: E501
             409: _("Registration cannot change any more: round 1 has been drawn.")}.get(
        status, _("Registration was not changed: %(why)s") % {"why": body.get("error", "")})
    return await _again(request, tid, key, status, error)


def routes() -> list:
    """The director's forms; ``/tournaments/new`` comes before the pages' ``/tournaments/{ID}``."""
    return [
        Route("/tournaments/new", new, methods=["GET", "POST"], name="tournament_new"),
        Route("/tournaments/{tid}/draw", draw, methods=["POST"], name="tournament_draw"),
        Route("/tournaments/{tid}/result/{round}/{number}", result, methods=["POST"], name="tournament_result"),
        Route("/tournaments/{tid}/registration", registration, methods=["POST"], name="tournament_registration"),
    ]
