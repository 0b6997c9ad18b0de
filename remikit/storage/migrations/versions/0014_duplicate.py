"""Duplicate deals: a competition's ``duplicate`` option and each round's secret.

Revision ID: 0014
Revises: 0010
Create Date: 2026-12-10

``competitions.duplicate`` deals every online table of a round from one round secret
(docs/fairness.md §11); ``competition_rounds.secret`` is that secret in hex (null for
a round without duplicate deals), committed to before the round, revealed after it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("competitions") as batch:
        batch.add_column(sa.Column("duplicate", sa.Boolean(), nullable=False, server_default="0"))
    with op.batch_alter_table("competition_rounds") as batch:
        batch.add_column(sa.Column("secret", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("competition_rounds") as batch:
        batch.drop_column("secret")
    with op.batch_alter_table("competitions") as batch:
        batch.drop_column("duplicate")
