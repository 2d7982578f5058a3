"""Tournaments meet players and clubs (issue #37): an entry bound to the player who opened its link while
signed in (``tournament_players.player_id``: the tournament is in the player's history), the club a
tournament belongs to (``tournaments.club_id``: listed on the club's page, made by its admins only), and
whether people may still register by link (``tournaments.registration``, until round 1 is drawn).

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_players") as batch:
        batch.add_column(sa.Column("player_id", sa.Integer))
    op.create_index("ix_tournament_players_player_id", "tournament_players", ["player_id"])
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("club_id", sa.String(32)))
        batch.add_column(sa.Column("registration", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index("ix_tournaments_club_id", "tournaments", ["club_id"])


def downgrade() -> None:
    op.drop_index("ix_tournaments_club_id", "tournaments")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("registration")
        batch.drop_column("club_id")
    op.drop_index("ix_tournament_players_player_id", "tournament_players")
    with op.batch_alter_table("tournament_players") as batch:
        batch.drop_column("player_id")
