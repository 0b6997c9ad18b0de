"""Profiles: players' profiles, their tokens and blocks, their finished games and ratings.

Revision ID: 0015
Revises: 0014
Create Date: 2027-01-20

``profiles`` holds each profile (its password as a scrypt hash); ``profile_tokens`` the
SHA-256 hashes of its devices' tokens; ``profile_blocks`` whom it blocks;
``profile_games`` the finished games of its seats; ``profile_ratings`` its rating per
variant; ``profile_tables`` the finished tables taken into them, once each.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "profiles",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("named", sa.Boolean(), nullable=False),
        sa.Column("password", sa.String(length=200), nullable=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("retry_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "profile_tokens",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("profile_id", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["profile_id"], ["profiles.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index(
        op.f("ix_profile_tokens_profile_id"), "profile_tokens", ["profile_id"], unique=False
    )
    op.create_table(
        "profile_blocks",
        sa.Column("profile_id", sa.String(length=16), nullable=False),
        sa.Column("blocked_id", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["profile_id"], ["profiles.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["blocked_id"], ["profiles.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("profile_id", "blocked_id"),
    )
    op.create_index(
        op.f("ix_profile_blocks_blocked_id"), "profile_blocks", ["blocked_id"], unique=False
    )
    op.create_table(
        "profile_games",
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("profile_id", sa.String(length=16), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("turns", sa.Integer(), nullable=False),
        sa.Column("stand_in_turns", sa.Integer(), nullable=False),
        sa.Column("stand_in", sa.Boolean(), nullable=False),
        sa.Column("counts", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["profile_id"], ["profiles.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    op.create_index(
        op.f("ix_profile_games_profile_id"), "profile_games", ["profile_id"], unique=False
    )
    op.create_table(
        "profile_ratings",
        sa.Column("profile_id", sa.String(length=16), nullable=False),
        sa.Column("variant", sa.String(length=32), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["profile_id"], ["profiles.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("profile_id", "variant"),
    )
    op.create_table(
        "profile_tables",
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id"),
    )


def downgrade() -> None:
    op.drop_table("profile_tables")
    op.drop_table("profile_ratings")
    op.drop_index(op.f("ix_profile_games_profile_id"), table_name="profile_games")
    op.drop_table("profile_games")
    op.drop_index(op.f("ix_profile_blocks_blocked_id"), table_name="profile_blocks")
    op.drop_table("profile_blocks")
    op.drop_index(op.f("ix_profile_tokens_profile_id"), table_name="profile_tokens")
    op.drop_table("profile_tokens")
    op.drop_table("profiles")
