"""Calls: a person's answer to a Rummy call window, stored when it is acknowledged.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

An answer held in a call window (R5-10) was kept in memory only, so a restart
inside the window lost a call the player had been told was received. From this
revision on it is stored in ``calls`` before the acknowledgement is sent.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "calls",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("state", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id", "state", "seat", name="uq_calls_table_state_seat"),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
    )


def downgrade() -> None:
    op.drop_table("calls")
