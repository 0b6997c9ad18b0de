"""Competitions: pairings to avoid.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06

``clubs_every_round`` keeps club-mates apart in every round (``clubs_apart`` does it in
round 1 only); ``avoid_pairs`` lists the pairs of players never to seat at one table
(``[["P3", "P7"], ...]``), ``[]`` for a competition made before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # in place: a copy of ``competitions`` (a batch on SQLite) would delete, through the
    # foreign keys, every row that refers to it
    op.add_column(
        "competitions",
        sa.Column("clubs_every_round", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column(
        "competitions", sa.Column("avoid_pairs", sa.JSON(), nullable=False, server_default="[]")
    )


def downgrade() -> None:
    op.drop_column("competitions", "avoid_pairs")
    op.drop_column("competitions", "clubs_every_round")
