"""Server keys: the keys a server keeps across restarts, by name.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03

``server_keys`` holds ``client``, the key of the hash that stands for a client's
address (``tables.client``): drawn once, so a restart still knows who made which
table. Hashes stored before it were made with a key drawn at each start; they
match nobody after the upgrade, as they matched nobody after any restart.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("value", sa.String(length=128), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("server_keys")
