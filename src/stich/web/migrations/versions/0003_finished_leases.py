"""Finished tables keep no lease: the commit of a match's last action deletes the table's row of
``leases`` since this revision; this deletes the rows that finished tables kept before (every process
renewed them for as long as it lived).

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    leases = sa.table("leases", sa.column("table_id", sa.String))
    tables = sa.table("tables", sa.column("id", sa.String), sa.column("finished", sa.Boolean))
    op.execute(leases.delete().where(leases.c.table_id.in_(
        sa.select(tables.c.id).where(tables.c.finished.is_(True)))))


def downgrade() -> None:
    pass   # the deleted rows named owners that may be long gone; a finished table needs none
