"""Competition tools: the archive of past events, and the audit log's lookups.

Revision ID: 0012
Revises: 0010
Create Date: 2026-12-06

``competitions.archived_at`` is when a competition was put in the archive (null:
not archived; an archived competition is read-only). Two indexes of
``competition_audit``: by competition and target (a player's history), and by
competition and id (the changes since a snapshot was taken).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # in place: a copy of ``competitions`` (a batch on SQLite) would delete, through the
    # foreign keys, every row that refers to it
    op.add_column(
        "competitions", sa.Column("archived_at", sa.DateTime(timezone=True), nullable=True)
    )
    op.create_index(
        "ix_competition_audit_target", "competition_audit", ["competition_id", "target"]
    )
    op.create_index("ix_competition_audit_since", "competition_audit", ["competition_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_competition_audit_since", table_name="competition_audit")
    op.drop_index("ix_competition_audit_target", table_name="competition_audit")
    op.drop_column("competitions", "archived_at")
