"""Tables and actions: the schema of the releases before migrations.

Revision ID: 0001
Revises:
Create Date: 2026-12-01

Exactly what ``Base.metadata.create_all`` made, with the ``seat_draw`` column
those releases added to older databases by hand (``ALTER TABLE``). A database
they made has these tables but no ``alembic_version``: this revision then
creates only what is missing (``seat_draw`` on a database older still) and
marks it as at revision 0001.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    present = set(sa.inspect(op.get_bind()).get_table_names())
    if "tables" not in present:
        op.create_table(
            "tables",
            sa.Column("id", sa.String(length=16), nullable=False),
            sa.Column("variant", sa.String(length=32), nullable=False),
            sa.Column("options", sa.JSON(), nullable=False),
            sa.Column("seed", sa.String(length=100), nullable=False),
            sa.Column("seats", sa.JSON(), nullable=False),
            sa.Column("title", sa.String(length=100), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
            sa.Column("result", sa.JSON(), nullable=True),
            sa.Column("seat_draw", sa.JSON(), nullable=True),
            sa.PrimaryKeyConstraint("id"),
        )
        op.create_index("ix_tables_finished_at", "tables", ["finished_at"], unique=False)
    else:
        columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("tables")}
        if "seat_draw" not in columns:  # made before the seat draw was stored
            op.add_column("tables", sa.Column("seat_draw", sa.JSON(), nullable=True))
    if "actions" not in present:
        op.create_table(
            "actions",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("table_id", sa.String(length=16), nullable=False),
            sa.Column("index", sa.Integer(), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("action", sa.Text(), nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.PrimaryKeyConstraint("id"),
            sa.UniqueConstraint("table_id", "index", name="uq_actions_table_index"),
            sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_index("ix_tables_finished_at", table_name="tables")
    op.drop_table("tables")
