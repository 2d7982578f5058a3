"""Clubs: a regular group's home (docs/web-protocol.md, "Clubs").

- ``clubs``: a name, who made it and when;
- ``club_members``: each member (a player) and whether they are an admin;
- ``club_invites``: invite links (their tokens stored as SHA-256 hashes only), each revocable;
- ``club_presets``: the club's house rules as table presets (a ``POST /api/tables`` body, checked
  when saved);
- ``club_tables``: the tables started from the club (their lobby and history).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("created_by", sa.Integer),
    )
    op.create_table(
        "club_members",
        sa.Column("club_id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.Integer, primary_key=True, index=True),
        sa.Column("admin", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("joined", sa.Float, nullable=False),
    )
    op.create_table(
        "club_invites",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("club_id", sa.String(32), nullable=False, index=True),
        sa.Column("hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("revoked", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "club_presets",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("club_id", sa.String(32), nullable=False, index=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "club_tables",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("club_id", sa.String(32), nullable=False, index=True),
        sa.Column("preset_id", sa.Integer),
        sa.Column("player_id", sa.Integer),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in ("club_tables", "club_presets", "club_invites", "club_members", "clubs"):
        op.drop_table(name)
