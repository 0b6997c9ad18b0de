"""Competitions (docs/competition.md): competitions, their players, rounds, tables,
game entries, audit log and login tokens.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01

Each entry and each correction of a game is a row of ``competition_entries``;
the one that counts is marked ``current``. Passwords are scrypt hashes, login
tokens SHA-256 hashes.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "competitions",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("date", sa.String(length=10), nullable=False),
        sa.Column("venue", sa.String(length=100), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("tie_breaks", sa.JSON(), nullable=False),
        sa.Column("fill", sa.String(length=8), nullable=False),
        sa.Column("bot_level", sa.String(length=40), nullable=False),
        sa.Column("bye_points", sa.String(length=8), nullable=False),
        sa.Column("clubs_apart", sa.Boolean(), nullable=False),
        sa.Column("publish", sa.String(length=8), nullable=False),
        sa.Column("organiser_password", sa.String(length=200), nullable=False),
        sa.Column("referee_password", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "competition_audit",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("competition_id", sa.String(length=16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("who", sa.String(length=100), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("what", sa.String(length=40), nullable=False),
        sa.Column("target", sa.String(length=60), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["competition_id"], ["competitions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        op.f("ix_competition_audit_competition_id"),
        "competition_audit",
        ["competition_id"],
        unique=False,
    )
    op.create_table(
        "competition_entries",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("competition_id", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table", sa.Integer(), nullable=False),
        sa.Column("game", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("points", sa.JSON(), nullable=False),
        sa.Column("closer", sa.Integer(), nullable=True),
        sa.Column("closing", sa.String(length=4), nullable=True),
        sa.Column("hands", sa.JSON(), nullable=True),
        sa.Column("arrangements", sa.JSON(), nullable=False),
        sa.Column("entered_by", sa.String(length=100), nullable=False),
        sa.Column("entered_login", sa.String(length=64), nullable=True),
        sa.Column("confirmed_by", sa.String(length=100), nullable=True),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("current", sa.Boolean(), nullable=False),
        sa.Column("replaces", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["competition_id"], ["competitions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        op.f("ix_competition_entries_competition_id"),
        "competition_entries",
        ["competition_id"],
        unique=False,
    )
    op.create_index(
        op.f("ix_competition_entries_current"), "competition_entries", ["current"], unique=False
    )
    op.create_table(
        "competition_logins",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("competition_id", sa.String(length=16), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["competition_id"], ["competitions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index(
        op.f("ix_competition_logins_competition_id"),
        "competition_logins",
        ["competition_id"],
        unique=False,
    )
    op.create_table(
        "competition_players",
        sa.Column("competition_id", sa.String(length=16), nullable=False),
        sa.Column("id", sa.String(length=8), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("club", sa.String(length=60), nullable=True),
        sa.Column("contact", sa.String(length=100), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=True),
        sa.Column("late", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["competition_id"], ["competitions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("competition_id", "id"),
    )
    op.create_table(
        "competition_rounds",
        sa.Column("competition_id", sa.String(length=16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seating", sa.JSON(), nullable=False),
        sa.Column("timer", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["competition_id"], ["competitions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("competition_id", "number"),
    )
    op.create_table(
        "competition_tables",
        sa.Column("competition_id", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("draws", sa.JSON(), nullable=False),
        sa.Column("seat_draw", sa.JSON(), nullable=True),
        sa.Column("web_table", sa.String(length=16), nullable=True),
        sa.ForeignKeyConstraint(
            ["competition_id", "round"],
            ["competition_rounds.competition_id", "competition_rounds.number"],
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("competition_id", "round", "number"),
    )


def downgrade() -> None:
    op.drop_table("competition_tables")
    op.drop_table("competition_rounds")
    op.drop_table("competition_players")
    op.drop_index(op.f("ix_competition_logins_competition_id"), table_name="competition_logins")
    op.drop_table("competition_logins")
    op.drop_index(op.f("ix_competition_entries_current"), table_name="competition_entries")
    op.drop_index(op.f("ix_competition_entries_competition_id"), table_name="competition_entries")
    op.drop_table("competition_entries")
    op.drop_index(op.f("ix_competition_audit_competition_id"), table_name="competition_audit")
    op.drop_table("competition_audit")
    op.drop_table("competitions")
