"""Registration by link: ``/tournaments/{ID}/join`` (docs/tournaments.md, "Registration by link").

A plain form (no script needed): a person types their name, or, signed in as a player, registers under
the player's name with one button.  The work is the API's own (``POST /api/tournaments/{ID}/players``
through ``Facade.join_tournament``); a refusal comes back on the form in the reader's words, with the
name as typed.  Registered, the person lands on their own link (``/tournaments/{ID}?token=T``): the
tournament's page, which leads them to their table once the director draws the round."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse
from starlette.routing import Route

import stich
from stich.web.spec import BadRequest
from stich.web.ui.env import N_, environment
from stich.web.ui.pages import language, page
from stich.web.ui.tourney_new import NAME_MAX, FormRefused, read_form

#: why a registration is refused (``stich.web.tourney.register.Refused.why``), in words
WHY = {
    "closed": N_("Registration is closed: round 1 has been drawn."),
    "closed_early": N_("Registration is closed: the director has closed it."),
    "not_open": N_("This tournament takes no registrations: its director registers the players."),
    "name": N_("Type your name: at most %(n)s characters."),
    "form": N_("Type your name: at most %(n)s characters."),
    "taken": N_("The name “%(name)s” is taken in this tournament: choose another."),
    "registered": N_("You are registered in this tournament already: your link is the one you were given then."),
    "full": N_("This tournament is full."),
}


def _page(request: Request, tid: str, state: dict, me, status: int = 200, error: str | None = None,
          name: str = ""):
    response = page(request, "tournament_join.html", status=status, tid=tid, state=state, me=me, error=error,
                    name=name, name_max=NAME_MAX, title=stich.game(state["game"]).title)
    response.headers["Cache-Control"] = "no-store"
    return response


async def join(request: Request):
    tid = request.path_params["tid"]
    facade = request.app.state.stich
    state = await facade.registration(tid)
    if state is None:
        return page(request, "error.html", status=404, message_id="no_tournament")
    me = await facade.me(request)
    if request.method == "GET":
        return _page(request, tid, state, me)
    _ = environment().translator_for(language(request)).gettext
    # another site's page must not register a visitor (the creation form's rule: tourney_new.new)
    if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        return _page(request, tid, state, me, 403, _("This form was sent from another site."))
    try:
        fields = {k: v[-1] for k, v in (await read_form(request)).items()}
    except FormRefused as exc:
        return _page(request, tid, state, me, 400, _(str(exc)))
    typed = fields.get("name", "")
    try:
        made = await facade.join_tournament(tid, {} if me else {"name": typed}, me)
    except BadRequest as exc:   # tourney.register.Refused: ``why`` names the reason
        words = _(WHY.get(getattr(exc, "why", "form"), WHY["form"])) % {"n": NAME_MAX, "name": typed}
        return _page(request, tid, await facade.registration(tid) or state, me, exc.status, words, typed)
    return RedirectResponse(made["url"], status_code=303)


def routes() -> list:
    """Before the pages' ``/tournaments/{ID}``-prefixed routes (their paths do not overlap)."""
    return [Route("/tournaments/{tid}/join", join, methods=["GET", "POST"], name="tournament_join")]
