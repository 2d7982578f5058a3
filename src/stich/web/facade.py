"""What the browser's pages may ask of the server (``request.app.state.stich``): public facts, finished
records, players, clubs and tournaments, and the director's forms through the API's own code paths.  The
pages (``stich.web.ui``) see only this, never the server's tables or database."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stich.web import again, clubs_api, players, ratings, records, tables_api, tournaments
from stich.web.catalogue import games_catalogue
from stich.web.spec import BadRequest
from stich.web.tourney import people as tourney_people
from stich.web.tourney import register as tourney_register

if TYPE_CHECKING:
    from stich.web.server import Server


class Facade:
    """What server-side pages may ask (``request.app.state.stich``): public facts and finished records."""

    def __init__(self, server: Server):
        self._server = server

    async def record(self, table_id: str) -> dict | None:
        """The record of a finished match or an uploaded record; None while a match runs or if unknown
        (or while a duplicate round's other tables still play its deals)."""
        if await self._server.tournaments.withheld(table_id):
            return None
        return await records.record(self._server.engine, table_id)

    async def table_meta(self, table_id: str) -> dict | None:
        """Game, variant, options, settings, seats (names escaped), finished, seq; None if unknown."""
        actor = await self._server.table(table_id)
        return None if actor is None else actor.meta()

    async def lobby(self) -> dict:
        return await tables_api.lobby(self._server)

    def games(self) -> dict:
        return games_catalogue()

    # players (stich.web.players): a profile's page, a leaderboard, who the reader is
    async def player_page(self, name: str) -> dict | None:
        return await players.page_data(self._server.engine, name)

    async def leaderboard(self, key: str) -> dict:
        return await players.leaderboard_data(self._server.engine, key)

    async def people(self, player_id: int) -> list[dict]:
        """The players someone played with lately (``GET /api/me/people``)."""
        return await ratings.people(self._server.engine, player_id)

    async def analysis(self, table_id: str, seat: int) -> dict | None:
        """The stored analysis of ``seat`` in a finished match (``stich.web.analyses``), or None."""
        return await self._server.analyses.stored(table_id, seat)

    async def tournament(self, tid: str, token: str | None = None, director: str | None = None,
                         player: dict | None = None) -> dict | None:
        """A tournament as its page shows it (``stich.web.tournaments.page_data``; ``player``, the signed-in
        reader, takes the entry of ``token``); None if unknown."""
        return await tournaments.page_data(self._server, tid, token, director, player)

    async def admin_club(self, club_id: str, player: dict | None) -> dict | None:
        """``{"club", "name", "presets"}`` of a club ``player`` is an admin of, else None (the new-tournament
        form's club; its presets, ``[{"preset", "name", "table"}]``, may give the form its game and options)."""
        try:
            club_id = await tourney_people.check_club_admin(self._server.engine, club_id, player)
        except BadRequest:
            return None
        club = await clubs_api.clubs.club(self._server.engine, club_id)
        if club is None:
            return None
        return {"club": club_id, "name": club["name"],
                "presets": await clubs_api.clubs.preset_list(self._server.engine, club_id)}

    async def registration(self, tid: str) -> dict | None:
        """Whether a tournament takes registrations by link (``stich.web.tourney.register.state``)."""
        return await tourney_register.state(self._server.engine, tid)

    async def join_tournament(self, tid: str, body, player: dict | None) -> dict:
        """Register by link (``POST /api/tournaments/{ID}/players``'s code): ``register.Refused`` as there."""
        return await tourney_register.join(self._server.engine, tid, body, player)

    async def player_tournaments(self, player_id: int) -> list[dict]:
        """The tournaments a player's entries are in (``stich.web.tourney.people.of_player``)."""
        return await tourney_people.of_player(self._server.engine, player_id)

    # the director's forms (stich.web.ui.tourney_form): the API's own code paths, BadRequest as there
    async def create_tournament(self, body, club: str | None = None, player: dict | None = None) -> dict:
        """``club``: a club's tournament, refused (BadRequest 401/403) unless ``player`` is its admin."""
        if club is not None:
            club = await tourney_people.check_club_admin(self._server.engine, club, player)
        return await self._server.tournaments.create(body, club)

    async def draw_round(self, tid: str, body) -> tuple[int, dict]:
        return await self._server.tournaments.next_round(tid, body)

    async def enter_result(self, tid: str, table_id: str, body) -> tuple[int, dict]:
        return await self._server.tournaments.enter(tid, table_id, body)

    async def set_registration(self, tid: str, body) -> tuple[int, dict]:
        """Close registration by link before round 1, or open it again (``tourney.register.set_open``)."""
        return await tourney_register.set_open(self._server.engine, tid, body)

    # clubs (stich.web.clubs): a member's view of a club, and one's clubs
    async def club_page(self, club_id: str, player_id: int, key: str) -> dict | None:
        """A club as its member sees it (None for anyone else), with its leaderboard of ``key``."""
        return await clubs_api.page_data(self._server.engine, club_id, player_id, key)

    async def invitations(self, player_id: int) -> list[dict]:
        """Tables with a seat reserved for the player (``GET /api/me/invitations``)."""
        return await again.invitations(self._server.engine, player_id)

    async def clubs_of(self, player_id: int) -> list[dict]:
        return await clubs_api.clubs_of(self._server.engine, player_id)

    async def me(self, conn) -> dict | None:
        """The player a page's request comes from (its cookie or bearer header), or None."""
        try:
            return (await players.identify(conn, self._server.engine))[0]
        except players.BadCredential:
            return None
