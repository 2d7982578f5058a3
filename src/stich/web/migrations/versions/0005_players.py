"""Players who come back: a name that stays, credentials, seats bound to players, ratings and history.

- ``players``: a name (as typed) and its normalised key (unique: two names that differ only in case
  or in Unicode form are the same name), an optional argon2id password hash, when it was made;
- ``credentials``: the SHA-256 hashes of a player's bearer tokens and session cookies (never the
  secrets themselves);
- ``signin_codes``: one-time sign-in codes (hashed), each with its expiry and whether it was used;
- ``signin_attempts``: failed sign-ins counted per name and per address in fixed windows;
- ``seats.player_id``: the player whose first connection took the seat (for the whole match);
- ``tables.rated``: the table changes ratings (every seat human and taken by a player);
- ``ratings``: one per player and key (``watten/4``, ``battn``...), Weng-Lin mu and sigma;
- ``player_matches``: each finished match a player sat in, written in the transaction of the match's
  last action (so a crash can neither lose it nor count it twice), with the rating before and after.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(160), nullable=False),
        sa.Column("password_hash", sa.Text),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("renamed", sa.Float),
    )
    op.create_index("players_name_key", "players", ["name_key"], unique=True)
    op.create_table(
        "credentials",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, nullable=False, index=True),
        sa.Column("kind", sa.String(16), nullable=False),    # token | session
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "signin_codes",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer, nullable=False, index=True),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("used", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "signin_attempts",
        sa.Column("key", sa.String(200), primary_key=True),   # name:KEY or addr:ADDRESS
        sa.Column("window", sa.Float, nullable=False),        # when the counting window began
        sa.Column("count", sa.Integer, nullable=False),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("player_id", sa.Integer))
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
    )
    op.create_index("ratings_key", "ratings", ["key", "mu"])
    op.create_table(
        "player_matches",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, nullable=False, index=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("key", sa.String(32), nullable=False),
        sa.Column("result", sa.String(16), nullable=False),   # won | lost | a place 1, 2, ...
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
        sa.Column("before", sa.Float),    # display rating before and after (rated matches)
        sa.Column("after", sa.Float),
        sa.Column("deviation", sa.Float),
    )


def downgrade() -> None:
    op.drop_table("player_matches")
    op.drop_index("ratings_key", "ratings")
    op.drop_table("ratings")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rated")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("player_id")
    op.drop_table("signin_attempts")
    op.drop_table("signin_codes")
    op.drop_table("credentials")
    op.drop_index("players_name_key", "players")
    op.drop_table("players")
