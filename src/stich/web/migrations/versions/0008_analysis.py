"""Analyses of finished matches (issue #38): one row per analysed seat of a table or uploaded
record, the whole result of ``stich.bots.analysis.result`` as JSON, with the worlds it was drawn
with and when it was stored (``stich.web.analyses``).

Revision ID: 0008
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("worlds", sa.Integer, nullable=False),
        sa.Column("result", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
