"""Table ownership leases: with several ``stich serve`` processes (``--redis``), each unfinished table is
owned by one process at a time, which alone applies its actions and runs its bots.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),   # the owning process's node id
        sa.Column("expires", sa.Float, nullable=False),      # unix time; a later owner may take it after
    )
    op.create_index("ix_leases_owner", "leases", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_leases_owner", "leases")
    op.drop_table("leases")
