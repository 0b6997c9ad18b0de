"""Duplicate deals: a competition's ``duplicate`` option and each round's secret.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-10

``competitions.duplicate`` deals every online table of a round from one round secret
(docs/fairness.md §11); ``competition_rounds.secret`` is that secret in hex (null for
a round without duplicate deals), committed to before the round, revealed after it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # in place: a copy of either table (a batch on SQLite) would delete, through the
    # foreign keys, every row that refers to it
    op.add_column(
        "competitions", sa.Column("duplicate", sa.Boolean(), nullable=False, server_default="0")
    )
    op.add_column("competition_rounds", sa.Column("secret", sa.String(length=64), nullable=True))


def downgrade() -> None:
    op.drop_column("competition_rounds", "secret")
    op.drop_column("competitions", "duplicate")
