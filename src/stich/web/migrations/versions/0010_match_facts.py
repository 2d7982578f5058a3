"""A player's figures of each finished match (issue #36): ``player_matches.facts``, the seat's counts
of the match as its game's ``"stats"`` companion reads them from the match's events (hands, hands
won, points, and the game's own: raises, calls, roles, contracts; ``stich.roles.stats``), as JSON,
written with the history row in the transaction of the match's last action.  Rows written before
have none (NULL): the profile shows only what they have.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("player_matches", sa.Column("facts", sa.Text))


def downgrade() -> None:
    op.drop_column("player_matches", "facts")
