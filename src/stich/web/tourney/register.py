"""Registration by link (docs/tournaments.md, "Registration by link"): a tournament created with
``"registration": true`` takes people until its first round is drawn, each through
``/tournaments/{ID}/join`` (the page's form) or ``POST /api/tournaments/{ID}/players``, unless the director
closes registration earlier (:func:`set_open`; and may open it again until round 1).

A person types a name; a signed-in player registers under their player's name and the entry is bound to
them at once (``tournament_players.player_id``, as opening one's link signed in binds it:
``tourney.people.bind``).  Each registration gets a random token (the person's link, shown once and
stored hashed: it cannot be derived from the director's key, which the person does not hold).

One transaction per registration: it first updates the tournament's row on the condition that round 1 is
not drawn (holding that row until it commits), then reads the names and adds the entry.  The first draw
holds the same row and checks that the players it read are still all there (``service._start``), so a
registration and a draw at the same moment give either a registration before the draw or a refusal."""

from __future__ import annotations

import logging

from sqlalchemy import func, select, update

from stich.web import store
from stich.web.logs import event
from stich.web.spec import BadRequest, clean_name
from stich.web.tokens import new_token, token_hash
from stich.web.tourney.keys import check_token
from stich.web.tourney.rules import MAX_PLAYERS
from stich.web.tourney.schema import tournament_players, tournaments

TP = tournament_players
log = logging.getLogger("stich.web")
CLOSED_EARLY = "registration is closed: the director has closed it"


class Refused(BadRequest):
    """A registration refused: ``why`` names the reason for the page's words (``stich.web.ui.tourney_join``)."""

    def __init__(self, why: str, message: str, status: int = 409):
        super().__init__(message, status)
        self.why = why


async def state(engine, tid: str) -> dict | None:
    """``{"open", "registration", "drawn", "game", "variant", "registered"}`` of a tournament (open: it takes
    registrations now; registered: how many players it has), or None."""
    if not isinstance(tid, str) or len(tid) > 32:
        return None
    T = tournaments
    row = await store.fetch_one(engine, select(T.c.registration, T.c.registration_closed, T.c.drawn, T.c.game,
                                               T.c.variant).where(T.c.id == tid))
    if row is None:
        return None
    count = await store.fetch_one(engine, select(func.count().label("n")).where(TP.c.tournament_id == tid))
    return {"open": is_open(row), "registration": bool(row["registration"]),
            "closed": bool(row["registration_closed"]), "drawn": row["drawn"], "game": row["game"],
            "variant": row["variant"], "registered": count["n"]}


def is_open(row) -> bool:
    """Whether a tournament's row takes registrations now: created open to them, not closed by its director,
    round 1 not drawn."""
    return bool(row["registration"]) and not row["registration_closed"] and row["drawn"] == 0


async def join(engine, tid: str, body, player: dict | None) -> dict:
    """Register one person -> ``{"name", "token", "url"}``, or :class:`Refused` (nothing stored)."""
    if not isinstance(body, dict) or set(body) - {"name"} or (player is None and "name" not in body):
        raise Refused("form", 'the request body is {"name": N} (signed in as a player: {}, the player\'s name)', 400)
    if player is not None:
        name = player["name"]
    else:
        try:
            name = clean_name(body["name"])
        except BadRequest as exc:
            raise Refused("name", str(exc), 400) from None
    now = await state(engine, tid)
    if now is None:
        raise Refused("unknown", f"there is no tournament {tid}", 404)
    if not now["registration"]:
        raise Refused("not_open", "this tournament takes no registrations: its director registers the players")
    token = new_token()
    async with engine.begin() as conn:
        # the tournament's row first: a draw (or another registration) holds it or waits for it
        held = await conn.execute(update(tournaments).where(
            tournaments.c.id == tid, tournaments.c.drawn == 0, tournaments.c.registration_closed.is_(False))
            .values(registration=True))
        if held.rowcount != 1:
            drawn = (await conn.execute(select(tournaments.c.drawn).where(tournaments.c.id == tid))).scalar()
            if not drawn:
                raise Refused("closed_early", CLOSED_EARLY)
            raise Refused("closed", "registration is closed: round 1 is drawn")
        rows = (await conn.execute(select(TP.c.number, TP.c.name, TP.c.player_id).where(
            TP.c.tournament_id == tid))).mappings().all()
        if player is not None and any(r["player_id"] == player["id"] for r in rows):
            raise Refused("registered", f"you are registered in this tournament already ({name})")
        if any(r["name"].casefold() == name.casefold() for r in rows):
            raise Refused("taken", f"the name {name!r} is taken in this tournament: choose another")
        if len(rows) >= MAX_PLAYERS:
            raise Refused("full", f"a tournament has at most {MAX_PLAYERS} players")
        number = (await conn.execute(select(func.coalesce(func.max(TP.c.number) + 1, 0)).where(
            TP.c.tournament_id == tid))).scalar()
        await conn.execute(TP.insert().values(tournament_id=tid, number=number, name=name, kind="human", bot=None,
                                              token_hash=token_hash(token),
                                              player_id=player["id"] if player else None))
    event(log, "tournament registration", tournament=tid, number=number, player=player is not None)
    return {"name": name, "token": token, "url": f"/tournaments/{tid}?token={token}"}


async def set_open(engine, tid: str, body) -> tuple[int, dict]:
    """``POST /api/tournaments/{ID}/registration`` ``{"token": D, "open": false}``: the director closes
    registration by link before round 1 (``true`` opens it again) -> ``(200, {"tournament", "registration"})``,
    ``registration`` as ``GET /api/tournaments/{ID}`` says it.  The tournament's row is updated on the
    condition that round 1 is not drawn: a registration holds that row first, so each comes before or after."""
    if not isinstance(body, dict) or set(body) != {"token", "open"} or not isinstance(body["open"], bool):
        raise BadRequest('the request body is {"token": DIRECTOR_TOKEN, "open": false} (true: open it again)')
    if not isinstance(tid, str) or len(tid) > 32:
        return 404, {"error": f"there is no tournament {tid}"}
    T = tournaments
    row = await store.fetch_one(engine, select(T.c.director_hash, T.c.registration).where(T.c.id == tid))
    if row is None:
        return 404, {"error": f"there is no tournament {tid}"}
    if not check_token(row["director_hash"], body["token"]):
        return 403, {"error": "only the director may close or open registration (the director_token)"}
    if not row["registration"]:
        return 409, {"error": "this tournament takes no registrations: its director registers the players"}
    async with engine.begin() as conn:
        done = await conn.execute(update(T).where(T.c.id == tid, T.c.drawn == 0).values(
            registration_closed=not body["open"]))
    if done.rowcount != 1:
        return 409, {"error": "registration is closed: round 1 is drawn"}
    event(log, "tournament registration " + ("opened" if body["open"] else "closed"), tournament=tid)
    return 200, {"tournament": tid, "registration": body["open"]}
