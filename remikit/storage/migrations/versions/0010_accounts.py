"""Competition accounts: a login per person, players' confirmation codes, logins that end.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06

``competition_accounts`` holds each competition's login accounts (the organiser's and
each referee's, a scrypt hash each) in place of the two shared passwords of
``competitions``: an existing competition gets an account ``organiser`` and an account
``referee`` with the passwords it had. ``competition_guards`` counts the failed attempts
at an account's password or a player's code and whether they locked it. Each player gets
a confirmation ``code``; each login its ``account``, ``expires_at`` (a login made before
expires a day after it was made) and ``ended_at`` (a logout); a competition may set
``login_hours``. SQLite drops and adds the columns of ``competitions`` in place (3.35 or
later).
"""

from __future__ import annotations

import secrets
from datetime import timedelta

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

competitions = sa.table(
    "competitions",
    sa.column("id", sa.String),
    sa.column("organiser_password", sa.String),
    sa.column("referee_password", sa.String),
    sa.column("created_at", sa.DateTime(timezone=True)),
)
accounts = sa.table(
    "competition_accounts",
    sa.column("competition_id", sa.String),
    sa.column("key", sa.String),
    sa.column("name", sa.String),
    sa.column("role", sa.String),
    sa.column("password", sa.String),
    sa.column("created_at", sa.DateTime(timezone=True)),
)
players = sa.table(
    "competition_players",
    sa.column("competition_id", sa.String),
    sa.column("id", sa.String),
    sa.column("code", sa.String),
)
logins = sa.table(
    "competition_logins",
    sa.column("token_hash", sa.String),
    sa.column("role", sa.String),
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("account", sa.String),
    sa.column("expires_at", sa.DateTime(timezone=True)),
)


def upgrade() -> None:
    op.create_table(
        "competition_accounts",
        sa.Column("competition_id", sa.String(length=16), nullable=False),
        sa.Column("key", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("password", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["competition_id"], ["competitions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("competition_id", "key"),
    )
    op.create_table(
        "competition_guards",
        sa.Column("competition_id", sa.String(length=16), nullable=False),
        sa.Column("subject", sa.String(length=60), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("locked", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["competition_id"], ["competitions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("competition_id", "subject"),
    )
    bind = op.get_bind()
    for row in bind.execute(sa.select(competitions)).all():
        for role, stored in (
            ("organiser", row.organiser_password),
            ("referee", row.referee_password),
        ):
            bind.execute(
                accounts.insert().values(
                    competition_id=row.id,
                    key=role,
                    name=role,
                    role=role,
                    password=stored,
                    created_at=row.created_at,
                )
            )
    # not a batch: copying ``competitions`` anew on SQLite would delete what refers to it
    op.drop_column("competitions", "organiser_password")
    op.drop_column("competitions", "referee_password")
    op.add_column("competitions", sa.Column("login_hours", sa.Integer(), nullable=True))
    with op.batch_alter_table("competition_players") as batch:
        batch.add_column(sa.Column("code", sa.String(length=8), nullable=True))
    for row in bind.execute(sa.select(players.c.competition_id, players.c.id)).all():
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
        bind.execute(
            players.update()
            .where(players.c.competition_id == row.competition_id, players.c.id == row.id)
            .values(code=code)
        )
    with op.batch_alter_table("competition_players") as batch:
        batch.alter_column("code", existing_type=sa.String(length=8), nullable=False)
    with op.batch_alter_table("competition_logins") as batch:
        batch.add_column(sa.Column("account", sa.String(length=40), nullable=True))
        batch.add_column(sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True))
    for row in bind.execute(sa.select(logins)).all():
        bind.execute(
            logins.update()
            .where(logins.c.token_hash == row.token_hash)
            .values(account=row.role, expires_at=row.created_at + timedelta(days=1))
        )
    with op.batch_alter_table("competition_logins") as batch:
        batch.alter_column("account", existing_type=sa.String(length=40), nullable=False)
        batch.alter_column("expires_at", existing_type=sa.DateTime(timezone=True), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("competition_logins") as batch:
        for name in ("ended_at", "expires_at", "account"):
            batch.drop_column(name)
    with op.batch_alter_table("competition_players") as batch:
        batch.drop_column("code")
    op.drop_column("competitions", "login_hours")
    for name in ("organiser_password", "referee_password"):
        column = sa.Column(name, sa.String(length=200), nullable=False, server_default="")
        op.add_column("competitions", column)
    bind = op.get_bind()
    for row in bind.execute(sa.select(competitions.c.id)).all():
        hashes: dict[str, str] = {}
        for account in bind.execute(
            sa.select(accounts)
            .where(accounts.c.competition_id == row.id)
            .order_by(accounts.c.created_at)
        ).all():
            hashes.setdefault(account.role, account.password)
        unusable = f"scrypt$00${secrets.token_hex(32)}"  # no password matches it
        bind.execute(
            competitions.update()
            .where(competitions.c.id == row.id)
            .values(
                organiser_password=hashes.get("organiser", unusable),
                referee_password=hashes.get("referee", unusable),
            )
        )
    op.drop_table("competition_guards")
    op.drop_table("competition_accounts")
