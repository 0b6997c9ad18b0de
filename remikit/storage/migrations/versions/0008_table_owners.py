"""Table owners: the processes of one site and which of them owns which table.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03

``nodes`` holds each ``remi serve`` process of a site of several, its address and its
lease; ``table_owners`` which node owns each table and the number of its claim (the
fencing epoch). A single server never writes them.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "nodes",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("url", sa.String(length=255), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "table_owners",
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("node", sa.String(length=32), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id"),
    )
    op.create_index(op.f("ix_table_owners_node"), "table_owners", ["node"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_table_owners_node"), table_name="table_owners")
    op.drop_table("table_owners")
    op.drop_table("nodes")
