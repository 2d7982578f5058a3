"""The first schema: tables, seats, the action log, client answers, chat, uploaded records.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "meta",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("setup", sa.Text),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("record", sa.Text),
    )
    op.create_index("ix_tables_finished", "tables", ["finished"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("bot", sa.String(64)),
        sa.Column("token_hash", sa.String(64)),
        sa.Column("name", sa.String(64)),
        sa.Column("claimed", sa.Boolean, nullable=False),
    )
    op.create_table(
        "actions",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(200), nullable=False),
        sa.Column("origin", sa.String(16), nullable=False),
        sa.Column("client_id", sa.String(128)),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "answers",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("client_id", sa.String(128), primary_key=True),
        sa.Column("seq", sa.Integer),
        sa.Column("error", sa.Text),
    )
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer),
        sa.Column("name", sa.String(64)),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_table_id", "chat", ["table_id"])
    op.create_table(
        "records",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in ("records", "chat", "answers", "actions", "seats", "tables", "meta"):
        op.drop_table(name)
