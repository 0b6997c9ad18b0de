"""Tables: how each runs, who made it, and whether it left the lobby unfinished.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

``settings`` holds the table's settings (turn time, grace period, stand-in bot,
bot speed, hints; ``remikit.server.tables.table_settings``), ``{}`` for a table made
before (it runs with the defaults). ``lang`` is the language its creator chose,
``owner_hash`` the SHA-256 of the token that lets its creator manage it,
``client`` a hash of the network address that made it (for the per-client
limits), ``closed_at`` the moment an unfinished table left the lobby (it
expired waiting for players) and ``rematch`` the table that plays it again.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("settings", sa.JSON(), nullable=False, server_default="{}"))
        batch.add_column(sa.Column("lang", sa.String(length=8), nullable=True))
        batch.add_column(sa.Column("owner_hash", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("client", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("rematch", sa.String(length=16), nullable=True))
        batch.create_index("ix_tables_closed_at", ["closed_at"])


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_closed_at")
        for name in ("rematch", "closed_at", "client", "owner_hash", "lang", "settings"):
            batch.drop_column(name)
