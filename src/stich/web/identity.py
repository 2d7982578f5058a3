"""Players: a name that stays, and the credentials that act as it (docs/web-protocol.md, "Players").

A person becomes a player with a name alone (``POST /api/players``); the answer holds a bearer token
for programs and sets a session cookie for the browser.  Both are long random secrets stored only as
SHA-256 hashes (like seat tokens), so a copy of the database acts as nobody.  Another device signs in
with an optional password (argon2id) or a one-time code shown on a signed-in device (hashed, expires
in minutes, works once).  Failed sign-ins are counted per name and per address in the database
(every process of a cluster sees the same counts), and every refusal reads the same whether the name
exists or not."""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
import unicodedata

from sqlalchemy import Boolean, Column, Float, Integer, String, Table, Text, delete, select, update

from stich.web import store

players = Table(
    "players", store.metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    Column("name_key", String(160), nullable=False, unique=True),   # name_key(): unique case-insensitively
    Column("password_hash", Text),                                  # argon2id, or None
    Column("created", Float, nullable=False),
    Column("renamed", Float),
)

credentials = Table(
    "credentials", store.metadata,
    Column("hash", String(64), primary_key=True),    # sha256 of the secret
    Column("player_id", Integer, nullable=False),
    Column("kind", String(16), nullable=False),      # token (bearer, for programs) | session (a browser's cookie)
    Column("created", Float, nullable=False),
)

signin_codes = Table(
    "signin_codes", store.metadata,
    Column("hash", String(64), primary_key=True),
    Column("player_id", Integer, nullable=False),
    Column("expires", Float, nullable=False),
    Column("used", Boolean, nullable=False, default=False),
)

signin_attempts = Table(
    "signin_attempts", store.metadata,
    Column("key", String(200), primary_key=True),
    Column("window", Float, nullable=False),
    Column("count", Integer, nullable=False),
)

NAME_MIN, NAME_MAX = 2, 24
NAME_PUNCTUATION = "_-."
PASSWORD_MIN, PASSWORD_MAX = 8, 200
COOKIE = "stich_session"
COOKIE_DAYS = 400                 # the longest a browser keeps a cookie (Chrome caps Max-Age at 400 days)
CODE_SECONDS = 300                # a one-time sign-in code works for five minutes
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I: read from one screen, typed on another
CODE_LENGTH = 8                   # 40 bits; with the attempt limits below, guessing one is hopeless
#: failed sign-ins allowed per window (seconds): per name, and per address
ATTEMPTS_PER_NAME = 10
ATTEMPTS_PER_ADDRESS = 30
ATTEMPT_WINDOW = 900.0
RENAME_EVERY = 30 * 86400.0       # a player may rename once in 30 days (others must recognise them)

REFUSED = "the name and the password or code do not match"   # the same words whether the name exists


class PlayerError(ValueError):
    """A request about players refused, with its HTTP status and message."""

    def __init__(self, message: str, status: int = 400, retry_after: int | None = None):
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def name_key(name: str) -> str:
    """The form two names are compared in: NFKC (full-width and compatibility letters fold) and casefold."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(name) -> str:
    """A player's name as given, or PlayerError (400): 2 to 24 letters, digits and ``_-.``, starting
    with a letter or digit (it stands in a page's address: /players/NAME)."""
    if not isinstance(name, str):
        raise PlayerError("'name' must be text")
    name = unicodedata.normalize("NFC", name)
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise PlayerError(f"a player's name has {NAME_MIN} to {NAME_MAX} characters")
    if not all(ch.isalnum() or ch in NAME_PUNCTUATION for ch in name):
        raise PlayerError(f"a player's name has letters, digits and {' '.join(NAME_PUNCTUATION)} only")
    if not name[0].isalnum():
        raise PlayerError("a player's name starts with a letter or a digit")
    return name


def check_password(password) -> str:
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise PlayerError(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return password


# --- passwords (argon2id, in a thread: a hash takes ~0.1-0.7 s of CPU and 64 MiB) ------------------
_hasher = None
#: hashes computed at once: each holds 64 MiB for its time, and a flood of sign-ins must queue, not
#: take the server's memory
ARGON_AT_ONCE = 2
_slots: asyncio.Semaphore | None = None


async def _argon_call(fn, *args):
    global _slots
    if _slots is None:
        _slots = asyncio.Semaphore(ARGON_AT_ONCE)
    async with _slots:
        return await asyncio.to_thread(fn, *args)


def _argon():
    global _hasher
    if _hasher is None:
        from argon2 import PasswordHasher

        _hasher = PasswordHasher()   # argon2id with the library's current recommended parameters
    return _hasher


async def hash_password(password: str) -> str:
    return await _argon_call(_argon().hash, password)


async def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches ``stored``; without a stored hash a dummy one is checked, so an
    unknown name takes as long as a known one."""
    from argon2.exceptions import InvalidHashError, VerificationError

    target = stored or _DUMMY.get("hash")
    if target is None:
        target = _DUMMY["hash"] = await hash_password(secrets.token_urlsafe(16))
    try:
        ok = await _argon_call(_argon().verify, target, password)
    except (VerificationError, InvalidHashError):
        return False
    return bool(ok) and stored is not None


_DUMMY: dict = {}


# --- players and credentials ------------------------------------------------------------------------
async def create_player(engine, name: str) -> tuple[int, str, str, str]:
    """A new player: (id, name, bearer token, session secret).  PlayerError 409 if the name is taken."""
    from sqlalchemy.exc import IntegrityError

    name = check_name(name)
    token, session = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    now = time.time()
    try:
        async with engine.begin() as conn:
            result = await conn.execute(players.insert().values(name=name, name_key=name_key(name), created=now))
            pid = result.inserted_primary_key[0]
            await conn.execute(credentials.insert(), [
                dict(hash=secret_hash(token), player_id=pid, kind="token", created=now),
                dict(hash=secret_hash(session), player_id=pid, kind="session", created=now)])
    except IntegrityError:   # the unique index on name_key decided: two creations at once get one name
        raise PlayerError(f"the name {name!r} is taken", 409) from None
    return pid, name, token, session


async def player_by_secret(engine, secret: str | None) -> dict | None:
    """The player a bearer token or session secret belongs to: {"id", "name"}, or None."""
    if not secret or len(secret) > 200:
        return None
    row = await store.fetch_one(engine, select(players.c.id, players.c.name).select_from(
        players.join(credentials, credentials.c.player_id == players.c.id)).where(
        credentials.c.hash == secret_hash(secret)))
    return None if row is None else {"id": row["id"], "name": row["name"]}


async def player_by_name(engine, name: str) -> dict | None:
    if not isinstance(name, str) or len(name) > 4 * NAME_MAX:
        return None
    row = await store.fetch_one(engine, select(players).where(players.c.name_key == name_key(name)))
    return None if row is None else dict(row)


async def new_session(engine, player_id: int) -> str:
    session = secrets.token_urlsafe(32)
    async with engine.begin() as conn:
        await conn.execute(credentials.insert().values(hash=secret_hash(session), player_id=player_id,
                                                       kind="session", created=time.time()))
    return session


async def end_session(engine, secret: str) -> None:
    async with engine.begin() as conn:
        await conn.execute(delete(credentials).where(credentials.c.hash == secret_hash(secret),
                                                     credentials.c.kind == "session"))


async def set_password(engine, player_id: int, password: str, current=None) -> None:
    """Set or change the password; changing one needs the current password."""
    password = check_password(password)
    row = await store.fetch_one(engine, select(players.c.password_hash).where(players.c.id == player_id))
    if row is None:
        raise PlayerError("there is no such player", 404)
    if row["password_hash"] is not None:
        if not isinstance(current, str) or not await verify_password(row["password_hash"], current):
            raise PlayerError("to change the password, give the current one as 'current'", 403)
    hashed = await hash_password(password)
    async with engine.begin() as conn:
        await conn.execute(update(players).where(players.c.id == player_id).values(password_hash=hashed))


async def new_code(engine, player_id: int) -> tuple[str, int]:
    """A one-time sign-in code for the player (shown once): (code, seconds it lives)."""
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    async with engine.begin() as conn:
        await conn.execute(delete(signin_codes).where(signin_codes.c.expires < time.time()))
        await conn.execute(signin_codes.insert().values(hash=secret_hash(code), player_id=player_id,
                                                        expires=time.time() + CODE_SECONDS, used=False))
    return code[:4] + "-" + code[4:], CODE_SECONDS


def _code_form(code: str) -> str:
    return "".join(ch for ch in code.upper() if ch.isalnum())


async def sign_in(engine, name, password=None, code=None, address: str = "") -> dict:
    """Check a name with a password or a one-time code: {"id", "name"}, or PlayerError 401 (the same
    words for an unknown name, a wrong secret and a used or expired code) or 429 (too many failures)."""
    if not isinstance(name, str) or len(name) > 4 * NAME_MAX:
        raise PlayerError(REFUSED, 401)
    if (password is None) == (code is None):
        raise PlayerError("give either 'password' or 'code'")
    if not isinstance(password if code is None else code, str):
        raise PlayerError("'password' and 'code' are text")
    keys = ["name:" + name_key(name), "addr:" + address[:150]]
    await _check_attempts(engine, keys)
    player = await player_by_name(engine, name)
    ok = False
    if password is not None:
        ok = await verify_password(player["password_hash"] if player else None, password)
    elif player is not None:
        now = time.time()
        async with engine.begin() as conn:   # used at most once: the update's row count decides
            result = await conn.execute(update(signin_codes).where(
                signin_codes.c.hash == secret_hash(_code_form(code)), signin_codes.c.player_id == player["id"],
                signin_codes.c.used.is_(False), signin_codes.c.expires >= now).values(used=True))
            ok = result.rowcount == 1
    if not ok:
        await _count_failure(engine, keys)
        raise PlayerError(REFUSED, 401)
    return {"id": player["id"], "name": player["name"]}


async def _check_attempts(engine, keys: list[str]) -> None:
    now = time.time()
    rows = await store.fetch_all(engine, select(signin_attempts).where(signin_attempts.c.key.in_(keys)))
    for r in rows:
        limit = ATTEMPTS_PER_NAME if r["key"].startswith("name:") else ATTEMPTS_PER_ADDRESS
        if now - r["window"] < ATTEMPT_WINDOW and r["count"] >= limit:
            raise PlayerError("too many failed sign-ins: try again later", 429,
                              retry_after=int(r["window"] + ATTEMPT_WINDOW - now) + 1)


async def _count_failure(engine, keys: list[str]) -> None:
    now = time.time()
    async with engine.begin() as conn:
        for key in keys:
            row = (await conn.execute(select(signin_attempts).where(signin_attempts.c.key == key))).mappings().first()
            if row is None:
                await conn.execute(signin_attempts.insert().values(key=key, window=now, count=1))
            elif now - row["window"] >= ATTEMPT_WINDOW:
                await conn.execute(update(signin_attempts).where(signin_attempts.c.key == key).values(
                    window=now, count=1))
            else:
                await conn.execute(update(signin_attempts).where(signin_attempts.c.key == key).values(
                    count=signin_attempts.c.count + 1))


async def rename(engine, player_id: int, new_name) -> str:
    """A new name (once in RENAME_EVERY seconds; 409 when taken)."""
    from sqlalchemy.exc import IntegrityError

    new_name = check_name(new_name)
    row = await store.fetch_one(engine, select(players).where(players.c.id == player_id))
    if row is None:
        raise PlayerError("there is no such player", 404)
    last = row["renamed"] or row["created"]
    if row["renamed"] is not None and time.time() - last < RENAME_EVERY:
        raise PlayerError(f"a player may rename once in {int(RENAME_EVERY // 86400)} days", 429,
                          retry_after=int(last + RENAME_EVERY - time.time()) + 1)
    try:
        async with engine.begin() as conn:
            await conn.execute(update(players).where(players.c.id == player_id).values(
                name=new_name, name_key=name_key(new_name), renamed=time.time()))
    except IntegrityError:
        raise PlayerError(f"the name {new_name!r} is taken", 409) from None
    return new_name
