"""Competitions: pairings to avoid.

Revision ID: 0013
Revises: 0008
Create Date: 2026-12-06

``clubs_every_round`` keeps club-mates apart in every round (``clubs_apart`` does it in
round 1 only); ``avoid_pairs`` lists the pairs of players never to seat at one table
(``[["P3", "P7"], ...]``), ``[]`` for a competition made before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("competitions") as batch:
        batch.add_column(
            sa.Column("clubs_every_round", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("avoid_pairs", sa.JSON(), nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("competitions") as batch:
        batch.drop_column("avoid_pairs")
        batch.drop_column("clubs_every_round")
