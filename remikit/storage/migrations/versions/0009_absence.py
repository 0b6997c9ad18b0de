"""Absences scored by rules declared up front, and ranking by points per game.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06

``competitions`` gains ``absences`` (the rule of each kind of absence; null for a
competition made before, which scores a bye by its ``bye_points`` and any other absence
zero), ``rank_by`` and ``min_games``; ``competition_absences`` holds what each absence
scored, stored once its round is done.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # columns added in place: a copy of ``competitions`` (a batch on SQLite) would delete,
    # through the foreign keys, every row that refers to it
    op.add_column("competitions", sa.Column("absences", sa.JSON(), nullable=True))
    op.add_column(
        "competitions",
        sa.Column("rank_by", sa.String(length=8), nullable=False, server_default="total"),
    )
    op.add_column(
        "competitions", sa.Column("min_games", sa.Integer(), nullable=False, server_default="0")
    )
    op.create_table(
        "competition_absences",
        sa.Column("competition_id", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(length=8), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("rule", sa.String(length=16), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["competition_id"], ["competitions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("competition_id", "round", "player"),
    )


def downgrade() -> None:
    op.drop_table("competition_absences")
    for name in ("min_games", "rank_by", "absences"):  # no copy of the table: its rows stay
        op.drop_column("competitions", name)
