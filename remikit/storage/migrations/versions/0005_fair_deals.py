"""Deals: the fairness data of each deal (a commitment before it, the secret after it).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

A deal's row now exists from the moment its secret is drawn, before the deal
starts: ``deck`` is null until it is dealt. ``fairness`` is the version of the
scheme (docs/fairness.md; null for a deal dealt before fair deals), ``secret``
and ``commitment`` are hex, ``contributions`` one entry per seat (hex or null).
``tables.fixed_seed`` marks a table made with a given seed (tests, benchmarks):
its secrets come from the seed and it takes no contributions.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("deals") as batch:
        batch.alter_column("deck", existing_type=sa.Text(), nullable=True)
        batch.add_column(sa.Column("fairness", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("secret", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("commitment", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("contributions", sa.JSON(), nullable=True))
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("fixed_seed", sa.Boolean(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("fixed_seed")
    op.execute("DELETE FROM deals WHERE deck IS NULL")
    with op.batch_alter_table("deals") as batch:
        for name in ("contributions", "commitment", "secret", "fairness"):
            batch.drop_column(name)
        batch.alter_column("deck", existing_type=sa.Text(), nullable=False)
