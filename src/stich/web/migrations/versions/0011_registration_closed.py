"""The director closes registration by link before round 1 (issue #37): ``tournaments.registration_closed``.
A tournament created open to registration stays one (its first draw counts the tables and may fill them
with bots), but nobody registers while this is true; the director may open it again until round 1.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("registration_closed", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("registration_closed")
