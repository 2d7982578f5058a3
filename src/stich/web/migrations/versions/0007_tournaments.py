"""Tournaments (docs/tournaments.md): a director's rounds of tables, online or on paper.

- ``tournaments``: game, options, format, the secret seed of the draws and duplicate deals, the
  director's token hashed, how many rounds are drawn;
- ``tournament_players``: players and bots in registration order, a player's token hashed (the seat
  token at each of the player's tables);
- ``tournament_tables``: each match of each table of each round, its seats and its result; the key
  ``(tournament, round, number, match)`` lets one draw in when two are asked at once;
- ``tournament_corrections``: the results the director typed or changed (who, when, old, new).

Revision ID: 0007
Revises: 0006 (clubs; issue #36)
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("format", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("director_hash", sa.String(64), nullable=False),
        sa.Column("drawn", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(32), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("bot", sa.String(64)),
        sa.Column("token_hash", sa.String(64)),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", sa.String(32), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("match", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False, unique=True),
        sa.Column("paper", sa.Boolean, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("result", sa.Text),
        sa.Column("finished", sa.Boolean, nullable=False),
    )
    op.create_table(
        "tournament_corrections",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(32), nullable=False, index=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("by", sa.String(32), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("old", sa.Text),
        sa.Column("new", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for name in ("tournament_corrections", "tournament_tables", "tournament_players", "tournaments"):
        op.drop_table(name)
