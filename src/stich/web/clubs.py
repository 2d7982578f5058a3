"""Clubs: a regular group's home (docs/web-protocol.md, "Clubs"); the HTTP side is :mod:`clubs_api`.

A player makes a club and is its first admin.  Others join through an invite link that an admin
made (the token is shown once and stored as a SHA-256 hash, like seat tokens; an admin can revoke
it).  Admins promote and remove members and save the club's house rules as presets: the body of a
``POST /api/tables``, checked by the same parser when saved.  A member starts a table from a preset
(``club_tables`` marks it as the club's); the club's lobby is its unfinished tables, its history the
finished ones, its leaderboard the members' ratings."""

from __future__ import annotations

import json
import secrets
import time
import unicodedata

from sqlalchemy import Boolean, Column, Float, Integer, String, Table, Text, delete, func, select, update

from stich.web import ratings, store
from stich.web.identity import name_key, players, secret_hash

clubs = Table(
    "clubs", store.metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("created", Float, nullable=False),
    Column("created_by", Integer),
)

members = Table(
    "club_members", store.metadata,
    Column("club_id", String(32), primary_key=True),
    Column("player_id", Integer, primary_key=True),
    Column("admin", Boolean, nullable=False, default=False),
    Column("joined", Float, nullable=False),
)

invites = Table(
    "club_invites", store.metadata,
    Column("id", String(32), primary_key=True),
    Column("club_id", String(32), nullable=False),
    Column("hash", String(64), nullable=False, unique=True),
    Column("created", Float, nullable=False),
    Column("revoked", Boolean, nullable=False, default=False),
)

presets = Table(
    "club_presets", store.metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("club_id", String(32), nullable=False),
    Column("name", String(80), nullable=False),
    Column("body", Text, nullable=False),       # JSON: a POST /api/tables body
    Column("created", Float, nullable=False),
)

club_tables = Table(
    "club_tables", store.metadata,
    Column("table_id", String(32), primary_key=True),
    Column("club_id", String(32), nullable=False),
    Column("preset_id", Integer),
    Column("player_id", Integer),               # who started it
    Column("created", Float, nullable=False),
)

NAME_MIN, NAME_MAX = 2, 40
#: bounds that keep one club's rows few (a club is a group of people, not a data store)
MAX_MEMBERS = 500
MAX_PRESETS = 30
MAX_INVITES = 20            # open (not revoked) invite links at once
MAX_CLUBS_MADE = 10         # clubs one player may have made
HISTORY = 50                # finished tables a club's page and API show


class ClubError(ValueError):
    """A club request refused, with its HTTP status and message."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def check_name(name, what: str = "a club's name") -> str:
    """A club's or a preset's name: text of 2 to 40 printable characters."""
    if not isinstance(name, str):
        raise ClubError(f"{what} is text")
    name = " ".join(unicodedata.normalize("NFC", name).split())
    if not all(ch.isprintable() for ch in name):
        raise ClubError(f"{what} has printable characters only")
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise ClubError(f"{what} has {NAME_MIN} to {NAME_MAX} characters")
    return name


def check_preset(body) -> dict:
    """A preset's table: a ``POST /api/tables`` body the table parser accepts (its own errors), no test hook."""
    from stich.web.spec import BadRequest, parse_table

    if not isinstance(body, dict):
        raise ClubError("'table' is a POST /api/tables body: {\"game\": ..., \"seats\": [...], ...}")
    if "test" in body:
        raise ClubError("a preset has no 'test' field")
    try:
        parse_table(body)
    except BadRequest as exc:
        raise ClubError(f"the preset's table: {exc}") from None
    return body


# --- who is where -------------------------------------------------------------------------------
async def club(engine, club_id: str) -> dict | None:
    if not isinstance(club_id, str) or len(club_id) > 32:
        return None
    row = await store.fetch_one(engine, select(clubs).where(clubs.c.id == club_id))
    return None if row is None else dict(row)


async def membership(engine, club_id: str, player_id: int) -> dict | None:
    """{"admin": bool} for a member, None for anyone else."""
    row = await store.fetch_one(engine, select(members.c.admin).where(
        members.c.club_id == club_id, members.c.player_id == player_id))
    return None if row is None else {"admin": bool(row["admin"])}


async def clubs_of(engine, player_id: int) -> list[dict]:
    """The clubs a player belongs to, by name: [{"club", "name", "admin", "members"}]."""
    counts = select(members.c.club_id, func.count().label("n")).group_by(members.c.club_id).subquery()
    rows = await store.fetch_all(engine, select(clubs.c.id, clubs.c.name, members.c.admin, counts.c.n).select_from(
        members.join(clubs, clubs.c.id == members.c.club_id).join(counts, counts.c.club_id == clubs.c.id))
        .where(members.c.player_id == player_id).order_by(clubs.c.name))
    return [{"club": r["id"], "name": r["name"], "admin": bool(r["admin"]), "members": r["n"]} for r in rows]


async def create(engine, player_id: int, name) -> dict:
    name = check_name(name)
    made = await store.fetch_one(engine, select(func.count().label("n")).select_from(clubs).where(
        clubs.c.created_by == player_id))
    if made["n"] >= MAX_CLUBS_MADE:
        raise ClubError(f"a player may make at most {MAX_CLUBS_MADE} clubs", 409)
    club_id, now = secrets.token_urlsafe(9), time.time()
    async with engine.begin() as conn:
        await conn.execute(clubs.insert().values(id=club_id, name=name, created=now, created_by=player_id))
        await conn.execute(members.insert().values(club_id=club_id, player_id=player_id, admin=True, joined=now))
    return {"club": club_id, "name": name}


async def member_list(engine, club_id: str) -> list[dict]:
    rows = await store.fetch_all(engine, select(players.c.name, members.c.admin, members.c.joined).select_from(
        members.join(players, players.c.id == members.c.player_id)).where(members.c.club_id == club_id)
        .order_by(members.c.admin.desc(), players.c.name_key))
    return [{"player": r["name"], "admin": bool(r["admin"]), "joined": r["joined"]} for r in rows]


async def _member_id(conn, club_id: str, name) -> tuple[int, bool]:
    if not isinstance(name, str) or len(name) > 100:
        raise ClubError("there is no such member", 404)
    row = (await conn.execute(select(members.c.player_id, members.c.admin).select_from(
        members.join(players, players.c.id == members.c.player_id)).where(
        members.c.club_id == club_id, players.c.name_key == name_key(name)))).first()
    if row is None:
        raise ClubError("there is no such member", 404)
    return row.player_id, bool(row.admin)


async def _admins(conn, club_id: str) -> int:
    return (await conn.execute(select(func.count()).select_from(members).where(
        members.c.club_id == club_id, members.c.admin.is_(True)))).scalar()


async def set_admin(engine, club_id: str, name, admin) -> None:
    if not isinstance(admin, bool):
        raise ClubError("'admin' is true or false")
    async with engine.begin() as conn:
        pid, was = await _member_id(conn, club_id, name)
        if was and not admin and await _admins(conn, club_id) == 1:
            raise ClubError("a club keeps at least one admin: make another member an admin first", 409)
        await conn.execute(update(members).where(members.c.club_id == club_id, members.c.player_id == pid)
                           .values(admin=admin))


async def remove(engine, club_id: str, name) -> bool:
    """Remove a member (an admin's choice, or the member's own leaving).  The last admin may not leave
    others without one; the last member's leaving ends the club.  True when the club is gone."""
    async with engine.begin() as conn:
        pid, was = await _member_id(conn, club_id, name)
        left = (await conn.execute(select(func.count()).select_from(members).where(
            members.c.club_id == club_id))).scalar()
        if left == 1:
            for table in (members, invites, presets, club_tables):
                await conn.execute(delete(table).where(table.c.club_id == club_id))
            await conn.execute(delete(clubs).where(clubs.c.id == club_id))
            return True
        if was and await _admins(conn, club_id) == 1:
            raise ClubError("a club keeps at least one admin: make another member an admin first", 409)
        await conn.execute(delete(members).where(members.c.club_id == club_id, members.c.player_id == pid))
    return False


# --- invites ------------------------------------------------------------------------------------
async def new_invite(engine, club_id: str) -> dict:
    """An invite link's id and token (the token shown once, kept hashed)."""
    open_ = await store.fetch_one(engine, select(func.count().label("n")).select_from(invites).where(
        invites.c.club_id == club_id, invites.c.revoked.is_(False)))
    if open_["n"] >= MAX_INVITES:
        raise ClubError(f"a club has at most {MAX_INVITES} open invite links: revoke one first", 409)
    invite_id, token = secrets.token_urlsafe(6), secrets.token_urlsafe(24)
    async with engine.begin() as conn:
        await conn.execute(invites.insert().values(id=invite_id, club_id=club_id, hash=secret_hash(token),
                                                   created=time.time(), revoked=False))
    return {"invite": invite_id, "token": token}


async def invite_list(engine, club_id: str) -> list[dict]:
    rows = await store.fetch_all(engine, select(invites.c.id, invites.c.created).where(
        invites.c.club_id == club_id, invites.c.revoked.is_(False)).order_by(invites.c.created))
    return [{"invite": r["id"], "created": r["created"]} for r in rows]


async def revoke(engine, club_id: str, invite_id: str) -> None:
    async with engine.begin() as conn:
        result = await conn.execute(update(invites).where(invites.c.club_id == club_id, invites.c.id == invite_id,
                                                          invites.c.revoked.is_(False)).values(revoked=True))
    if result.rowcount != 1:
        raise ClubError("there is no such open invite link", 404)


async def join(engine, club_id: str, player_id: int, token) -> None:
    """A player joins with an invite's token (already a member: nothing changes).  A wrong, revoked
    or another club's token reads the same: 403."""
    refused = ClubError("this invite link is not valid (revoked, or not this club's)", 403)
    if not isinstance(token, str) or not 8 <= len(token) <= 200:
        raise refused
    from sqlalchemy.exc import IntegrityError

    try:
        async with engine.begin() as conn:
            row = (await conn.execute(select(invites.c.id).where(
                invites.c.club_id == club_id, invites.c.hash == secret_hash(token),
                invites.c.revoked.is_(False)))).first()
            if row is None:
                raise refused
            if (await conn.execute(select(members.c.player_id).where(
                    members.c.club_id == club_id, members.c.player_id == player_id))).first():
                return
            if (await conn.execute(select(func.count()).select_from(members).where(
                    members.c.club_id == club_id))).scalar() >= MAX_MEMBERS:
                raise ClubError(f"a club has at most {MAX_MEMBERS} members", 409)
            await conn.execute(members.insert().values(club_id=club_id, player_id=player_id, admin=False,
                                                       joined=time.time()))
    except IntegrityError:   # the same player's two joins at once: one row, the other finds it
        return


# --- presets ------------------------------------------------------------------------------------
async def save_preset(engine, club_id: str, name, table) -> int:
    name, table = check_name(name, "a preset's name"), check_preset(table)
    n = await store.fetch_one(engine, select(func.count().label("n")).select_from(presets).where(
        presets.c.club_id == club_id))
    if n["n"] >= MAX_PRESETS:
        raise ClubError(f"a club has at most {MAX_PRESETS} presets: delete one first", 409)
    async with engine.begin() as conn:
        result = await conn.execute(presets.insert().values(club_id=club_id, name=name, body=store.dumps(table),
                                                            created=time.time()))
    return result.inserted_primary_key[0]


async def preset_list(engine, club_id: str) -> list[dict]:
    rows = await store.fetch_all(engine, select(presets).where(presets.c.club_id == club_id).order_by(presets.c.id))
    return [{"preset": r["id"], "name": r["name"], "table": json.loads(r["body"])} for r in rows]


async def preset(engine, club_id: str, preset_id: int) -> dict | None:
    row = await store.fetch_one(engine, select(presets).where(presets.c.club_id == club_id,
                                                              presets.c.id == preset_id))
    return None if row is None else {"preset": row["id"], "name": row["name"], "table": json.loads(row["body"])}


async def delete_preset(engine, club_id: str, preset_id: int) -> None:
    async with engine.begin() as conn:
        result = await conn.execute(delete(presets).where(presets.c.club_id == club_id, presets.c.id == preset_id))
    if result.rowcount != 1:
        raise ClubError("there is no such preset", 404)


# --- the club's tables, leaderboard and history ---------------------------------------------------
async def mark_table(engine, club_id: str, table_id: str, preset_id: int | None, player_id: int) -> None:
    async with engine.begin() as conn:
        await conn.execute(club_tables.insert().values(table_id=table_id, club_id=club_id, preset_id=preset_id,
                                                       player_id=player_id, created=time.time()))


async def is_club_table(engine, club_id: str, table_id: str) -> bool:
    return await store.fetch_one(engine, select(club_tables.c.table_id).where(
        club_tables.c.club_id == club_id, club_tables.c.table_id == table_id)) is not None


async def lobby(engine, club_id: str) -> list[dict]:
    """The club's unfinished tables, oldest first, each seat with its person's name if taken (the
    database's word: every process of a cluster reads the same)."""
    T, S = store.tables, store.seats
    rows = await store.fetch_all(engine, select(T.c.id, T.c.game, T.c.variant, T.c.rated, club_tables.c.created)
                                 .select_from(club_tables.join(T, T.c.id == club_tables.c.table_id))
                                 .where(club_tables.c.club_id == club_id, T.c.finished.is_(False))
                                 .order_by(club_tables.c.created))
    seats: dict[str, list] = {r["id"]: [] for r in rows}
    if rows:
        for s in await store.fetch_all(engine, select(S).where(S.c.table_id.in_(list(seats))).order_by(
                S.c.table_id, S.c.seat)):
            taken = s["kind"] == "bot" or bool(s["claimed"])
            seats[s["table_id"]].append({"seat": s["seat"], "kind": s["kind"], "taken": taken, "name": s["name"]})
    return [{"table": r["id"], "game": r["game"], "variant": r["variant"], "rated": bool(r["rated"]),
             "created": r["created"], "seats": seats[r["id"]]} for r in rows]


async def history(engine, club_id: str, limit: int = HISTORY) -> list[dict]:
    """The club's finished tables, newest first, with each player's seat and result."""
    P = ratings.player_matches
    T = store.tables
    ids = select(club_tables.c.table_id).select_from(club_tables.join(T, T.c.id == club_tables.c.table_id)).where(
        club_tables.c.club_id == club_id, T.c.finished.is_(True)).order_by(club_tables.c.created.desc()).limit(limit)
    rows = await store.fetch_all(engine, select(P.c.table_id, P.c.game, P.c.variant, P.c.seat, P.c.result,
                                                P.c.rated, P.c.finished, players.c.name)
                                 .select_from(P.join(players, players.c.id == P.c.player_id))
                                 .where(P.c.table_id.in_(ids)).order_by(P.c.finished.desc(), P.c.seat))
    out: dict[str, dict] = {}
    for r in rows:
        item = out.setdefault(r["table_id"], {"table": r["table_id"], "game": r["game"], "variant": r["variant"],
                                              "rated": bool(r["rated"]), "finished": r["finished"], "players": []})
        result = int(r["result"]) if r["result"].isdigit() else r["result"]
        item["players"].append({"player": r["name"], "seat": r["seat"], "result": result})
    return list(out.values())


async def leaderboard(engine, club_id: str, key: str) -> list[dict]:
    """The members' ratings of ``key`` (one rated match is enough here: the club knows its people), best first."""
    R = ratings.ratings
    rows = await store.fetch_all(engine, select(players.c.name, R.c.mu, R.c.sigma, R.c.matches).select_from(
        R.join(members, members.c.player_id == R.c.player_id).join(players, players.c.id == R.c.player_id))
        .where(members.c.club_id == club_id, R.c.key == key).order_by(R.c.mu.desc(), players.c.name_key))
    return [{"player": r["name"], "rating": ratings.display(r["mu"]), "deviation": ratings.deviation(r["sigma"]),
             "matches": r["matches"]} for r in rows]


async def forget_player(conn, player_id: int) -> None:
    """An account deleted: its memberships go (a club it alone administered keeps its other members,
    the longest-standing of whom becomes an admin)."""
    held = (await conn.execute(select(members.c.club_id, members.c.admin).where(
        members.c.player_id == player_id))).all()
    await conn.execute(delete(members).where(members.c.player_id == player_id))
    for club_id, admin in held:
        if admin and not await _admins(conn, club_id):
            first = (await conn.execute(select(members.c.player_id).where(members.c.club_id == club_id)
                                        .order_by(members.c.joined).limit(1))).first()
            if first is None:
                for table in (invites, presets, club_tables):
                    await conn.execute(delete(table).where(table.c.club_id == club_id))
                await conn.execute(delete(clubs).where(clubs.c.id == club_id))
            else:
                await conn.execute(update(members).where(members.c.club_id == club_id,
                                                         members.c.player_id == first.player_id).values(admin=True))
