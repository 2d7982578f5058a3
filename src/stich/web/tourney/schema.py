"""The tournaments' tables in the database (migration 0007).

- ``tournaments``: the game, its options, the format, the secret seed the draws and a duplicate round's
  deals derive from (never shown), the director's token (hashed), how many rounds are drawn, the club it
  belongs to (migration 0009; None: nobody's), whether people may register by link (0009) and whether the
  director closed that before round 1 (0011);
- ``tournament_players``: each player or bot in registration order, a player's token (hashed: the seat
  token at every table the player is drawn to), and the player (an identity, ``players.id``) who opened
  the entry's link while signed in (migration 0009: the tournament is in that player's history);
- ``tournament_tables``: each match of each table of each round (its online table's id, or a paper
  table's), who sits where, and its result once it is known (read from the table's record, or typed in
  by the director); the key ``(tournament, round, number, match)`` lets one draw or one next match in,
  however many processes try at once;
- ``tournament_corrections``: every result the director typed or changed, with the old and the new."""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Column, Float, Integer, String, Table, Text

from stich.web import store

tournaments = Table(
    "tournaments", store.metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("variant", String(64), nullable=False),
    Column("options", Text, nullable=False),       # JSON: the engine's resolved options
    Column("format", Text, nullable=False),        # JSON: kind, rounds, games_per_round
    Column("seed", BigInteger, nullable=False),    # secret: the draws and the duplicate deals
    Column("director_hash", String(64), nullable=False),
    Column("drawn", Integer, nullable=False),      # rounds drawn so far
    Column("created", Float, nullable=False),
    Column("club_id", String(32), index=True),     # a club's tournament (made by one of its admins), or None
    Column("registration", Boolean, nullable=False, default=False),   # open: people join by link until round 1
    # the director closed registration by link before round 1 (migration 0011); may open it again until then
    Column("registration_closed", Boolean, nullable=False, default=False),
)

tournament_players = Table(
    "tournament_players", store.metadata,
    Column("tournament_id", String(32), primary_key=True),
    Column("number", Integer, primary_key=True),   # 0, 1, ...: registration order
    Column("name", String(64), nullable=False),
    Column("kind", String(16), nullable=False),    # human | bot
    Column("bot", String(64)),
    Column("token_hash", String(64)),
    Column("player_id", Integer, index=True),      # the signed-in player the entry is bound to, or None
)

tournament_tables = Table(
    "tournament_tables", store.metadata,
    Column("tournament_id", String(32), primary_key=True),
    Column("round", Integer, primary_key=True),    # 1, 2, ...
    Column("number", Integer, primary_key=True),   # the table's number in its round, 1, 2, ...
    Column("match", Integer, primary_key=True),    # 0 .. games_per_round - 1 (rounds, swiss)
    Column("table_id", String(32), nullable=False, unique=True),
    Column("paper", Boolean, nullable=False),
    Column("seats", Text, nullable=False),         # JSON: player numbers by seat
    Column("result", Text),                        # JSON: scores, won, place (and corrected, bots)
    Column("finished", Boolean, nullable=False),
)

tournament_corrections = Table(
    "tournament_corrections", store.metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tournament_id", String(32), nullable=False, index=True),
    Column("table_id", String(32), nullable=False),
    Column("by", String(32), nullable=False),
    Column("at", Float, nullable=False),
    Column("old", Text),
    Column("new", Text, nullable=False),
)
