"""A friends' evening: a table may wait for its people, and a finished table may lead to its rematch.

- ``tables.started``: a seated person chose "start now with bots" (a table created with
  ``"start": "when_full"`` lets no bot play a seat nobody has opened until then);
- ``seats.arrived``: the seat's person has been connected once (a seat's grace period counts only
  after that, at such a table);
- ``rematches``: the one new table a finished table's rematch made.  Its key is the old table: two
  rematches asked at once, on one process or two, insert the same key, and the database lets one
  through (the other reads the winner's).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("started", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("arrived", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "rematches",
        sa.Column("table_id", sa.String(32), primary_key=True),   # the finished table
        sa.Column("next_id", sa.String(32), nullable=False),      # its rematch
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rematches")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("arrived")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("started")
