"""The competitions (docs/competition.md): each competition, its players, rounds,
tables, game entries, audit log, login accounts and login tokens.

Each login account (the organiser's, each referee's) keeps its password as a
``hashlib.scrypt`` hash with a random salt; login tokens are kept as SHA-256 hashes.
Every entry and every correction of a game is a row of its own; the one that counts is
marked ``current``. What an absence scores is a row of its own too, stored once its
round is done. The schema is made by migration ``0006`` (absences: ``0009``; accounts,
players' codes and logins that end: ``0010``; the archive and the audit log's lookups:
``0012``; pairings to avoid: ``0013``; duplicate deals: ``0014``); a change here needs a
new revision there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    Text,
    false,
    func,
    select,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from remikit.storage.models import Base


class CompetitionRow(Base):
    """A competition: what it is, how it is played and ranked, and how long its logins
    last (``login_hours``; None: the server's setting)."""

    __tablename__ = "competitions"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    date: Mapped[str] = mapped_column(String(10))
    venue: Mapped[str] = mapped_column(String(100), default="")
    rounds: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    tie_breaks: Mapped[list[str]] = mapped_column(JSON)
    fill: Mapped[str] = mapped_column(String(8))
    bot_level: Mapped[str] = mapped_column(String(40))
    bye_points: Mapped[str] = mapped_column(String(8))
    """``average`` or ``zero`` as the bye's rule; ``rule`` when it is another (``absences``)."""
    clubs_apart: Mapped[bool] = mapped_column(Boolean)
    publish: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    duplicate: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    login_hours: Mapped[int | None] = mapped_column(Integer, nullable=True)
    absences: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """The rule of each kind of absence (null: made before they were declared)."""
    rank_by: Mapped[str] = mapped_column(String(8), default="total", server_default="total")
    min_games: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    clubs_every_round: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Club-mates kept apart in every round (migration ``0013``)."""
    avoid_pairs: Mapped[list[list[str]]] = mapped_column(JSON, default=list, server_default="[]")
    """The pairs of player ids never to seat at one table."""
    archived_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    """When it was put in the archive (read-only from then on); null: not archived."""


class PlayerRow(Base):
    """A registered player; ``number`` orders them as they registered. Their history is
    the audit log's rows about them."""

    __tablename__ = "competition_players"

    competition_id: Mapped[str] = mapped_column(
        ForeignKey("competitions.id", ondelete="CASCADE"), primary_key=True
    )
    id: Mapped[str] = mapped_column(String(8), primary_key=True)
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    club: Mapped[str | None] = mapped_column(String(60))
    contact: Mapped[str | None] = mapped_column(String(100))
    status: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str | None] = mapped_column(String(200))
    late: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    code: Mapped[str] = mapped_column(String(8))
    """The short code the player confirms a game with (their personal schedule shows it)."""


class RoundRow(Base):
    """A round: its seating as made (``seating``: byes, quality, the draw's seed), the
    round timer (``timer``: minutes, running, time left) and its duplicate ``secret``."""

    __tablename__ = "competition_rounds"

    competition_id: Mapped[str] = mapped_column(
        ForeignKey("competitions.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seating: Mapped[dict[str, Any]] = mapped_column(JSON)
    timer: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    secret: Mapped[str | None] = mapped_column(String(64), default=None)
    """The round's duplicate secret in hex (docs/fairness.md §11), null without one."""


class CompTableRow(Base):
    """A table of a round: ``online`` (a web table, ``web_table``) or ``physical``;
    ``seats`` per position A–D (``{"position", "player", "bot", "name"}``);
    ``draws`` the seat draw as entered (R13-2), ``seat_draw`` its result."""

    __tablename__ = "competition_tables"
    __table_args__ = (
        ForeignKeyConstraint(
            ["competition_id", "round"],
            ["competition_rounds.competition_id", "competition_rounds.number"],
            ondelete="CASCADE",
        ),
    )

    competition_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    draws: Mapped[list[dict[str, str]]] = mapped_column(JSON, default=list)
    seat_draw: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    web_table: Mapped[str | None] = mapped_column(String(16))


class EntryRow(Base):
    """One entry of one game, or a correction of it (``replaces``: the entry it
    corrects). ``players`` is the player of each game seat (null: a bot); ``hands`` the
    cards entered (null for scores entered directly); ``entered_by``/``confirmed_by``
    who did it (a login's name, a player, or a web table)."""

    __tablename__ = "competition_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    competition_id: Mapped[str] = mapped_column(
        ForeignKey("competitions.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column(Integer)
    table: Mapped[int] = mapped_column(Integer)
    game: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    players: Mapped[list[str | None]] = mapped_column(JSON)
    points: Mapped[list[int]] = mapped_column(JSON)
    closer: Mapped[int | None] = mapped_column(Integer)
    closing: Mapped[str | None] = mapped_column(String(4))
    hands: Mapped[list[list[str]] | None] = mapped_column(JSON)
    arrangements: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    entered_by: Mapped[str] = mapped_column(String(100))
    entered_login: Mapped[str | None] = mapped_column(String(64))
    confirmed_by: Mapped[str | None] = mapped_column(String(100))
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    reason: Mapped[str | None] = mapped_column(Text)
    current: Mapped[bool] = mapped_column(Boolean, index=True)
    replaces: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AuditRow(Base):
    """One change of a competition: who (a login's name and role), what (``entry.confirm``),
    on what (``player:P3``, ``entry:12``), the values before and after, why."""

    __tablename__ = "competition_audit"
    __table_args__ = (
        Index("ix_competition_audit_target", "competition_id", "target"),
        Index("ix_competition_audit_since", "competition_id", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    competition_id: Mapped[str] = mapped_column(
        ForeignKey("competitions.id", ondelete="CASCADE"), index=True
    )
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    who: Mapped[str] = mapped_column(String(100))
    role: Mapped[str] = mapped_column(String(16))
    what: Mapped[str] = mapped_column(String(40))
    target: Mapped[str] = mapped_column(String(60))
    before: Mapped[Any] = mapped_column(JSON, nullable=True)
    after: Mapped[Any] = mapped_column(JSON, nullable=True)
    reason: Mapped[str | None] = mapped_column(Text)


class AbsenceRow(Base):
    """What a player scores for a round they were absent from (``kind``: ``bye``,
    ``late``, ``withdrawn``, ``missed``), by ``rule``: ``points`` for ``games`` games,
    fixed when the round was done."""

    __tablename__ = "competition_absences"

    competition_id: Mapped[str] = mapped_column(
        ForeignKey("competitions.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(String(8), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    rule: Mapped[str] = mapped_column(String(16))
    points: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LoginRow(Base):
    """A login to one competition: the SHA-256 of its token, the account (``account``,
    its key) with its role and name, when it expires and when it logged out."""

    __tablename__ = "competition_logins"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    competition_id: Mapped[str] = mapped_column(
        ForeignKey("competitions.id", ondelete="CASCADE"), index=True
    )
    role: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    account: Mapped[str] = mapped_column(String(40))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class AccountRow(Base):
    """A login account of a competition: the organiser's (made with it) or a referee's
    (made by the organiser). ``key`` is its name case-folded, unique in the competition;
    ``password`` a scrypt hash (``scrypt$salt$hash``, hex)."""

    __tablename__ = "competition_accounts"

    competition_id: Mapped[str] = mapped_column(
        ForeignKey("competitions.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    role: Mapped[str] = mapped_column(String(16))
    password: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GuardRow(Base):
    """The failed attempts at one secret of a competition (``subject``: ``account:KEY``
    or ``player:P3``, a player's code) since the last that passed, and whether they
    locked it until the organiser unlocks it."""

    __tablename__ = "competition_guards"

    competition_id: Mapped[str] = mapped_column(
        ForeignKey("competitions.id", ondelete="CASCADE"), primary_key=True
    )
    subject: Mapped[str] = mapped_column(String(60), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer)
    locked: Mapped[bool] = mapped_column(Boolean)


@dataclass
class Snapshot:
    """A competition as stored, loaded at once: its players (in registration order),
    rounds, tables (by round and number), the current entry of each game (by round,
    table and game) and the absences scored (by round and player)."""

    competition: CompetitionRow
    players: dict[str, PlayerRow]
    rounds: dict[int, RoundRow]
    tables: dict[tuple[int, int], CompTableRow]
    entries: dict[tuple[int, int, int], EntryRow]
    absences: dict[tuple[int, str], AbsenceRow] = field(default_factory=dict)

    @property
    def current_round(self) -> int:
        return max(self.rounds, default=0)


def load(session: Session, competition_id: str) -> Snapshot | None:
    """A competition with everything but its audit log, or None."""
    row = session.get(CompetitionRow, competition_id)
    if row is None:
        return None
    players = session.scalars(
        select(PlayerRow)
        .where(PlayerRow.competition_id == competition_id)
        .order_by(PlayerRow.number)
    )
    rounds = session.scalars(select(RoundRow).where(RoundRow.competition_id == competition_id))
    tables = session.scalars(
        select(CompTableRow).where(CompTableRow.competition_id == competition_id)
    )
    entries = session.scalars(
        select(EntryRow).where(EntryRow.competition_id == competition_id, EntryRow.current)
    )
    absences = session.scalars(
        select(AbsenceRow).where(AbsenceRow.competition_id == competition_id)
    )
    return Snapshot(
        row,
        {p.id: p for p in players},
        {r.number: r for r in rounds},
        {(t.round, t.number): t for t in tables},
        {(e.round, e.table, e.game): e for e in entries},
        {(a.round, a.player): a for a in absences},
    )


def audit(session: Session, competition_id: str, target: str | None = None) -> list[AuditRow]:
    """The audit log, oldest first (only the rows about ``target`` when given; a
    target ending in ``:`` takes every target it begins)."""
    query = select(AuditRow).where(AuditRow.competition_id == competition_id)
    if target is not None:
        query = query.where(
            AuditRow.target.startswith(target)
            if target.endswith(":")
            else AuditRow.target == target
        )
    return list(session.scalars(query.order_by(AuditRow.id)))


def locked_subjects(session: Session, competition_id: str) -> set[str]:
    """The secrets of a competition that failed attempts locked (``player:P3``, …)."""
    query = select(GuardRow.subject).where(
        GuardRow.competition_id == competition_id, GuardRow.locked
    )
    return set(session.scalars(query))


def find_entry(session: Session, competition_id: str, entry_id: int) -> EntryRow | None:
    return session.scalars(
        select(EntryRow).where(EntryRow.competition_id == competition_id, EntryRow.id == entry_id)
    ).first()


def online_tables(session: Session, web_table: str | None = None) -> list[CompTableRow]:
    """The online tables of every competition (or the one of ``web_table``)."""
    query = select(CompTableRow).where(CompTableRow.web_table.is_not(None))
    if web_table is not None:
        query = query.where(CompTableRow.web_table == web_table)
    return list(session.scalars(query))


def unconfirmed_web_tables(session: Session) -> list[str]:
    """The web tables of online tables some of whose games are not confirmed yet."""
    confirmed = (
        select(EntryRow.competition_id, EntryRow.round, EntryRow.table, func.count())
        .where(EntryRow.current, EntryRow.confirmed_by.is_not(None))
        .group_by(EntryRow.competition_id, EntryRow.round, EntryRow.table)
    )
    done = {(c, r, t): n for c, r, t, n in session.execute(confirmed)}
    rows = session.execute(
        select(CompTableRow, CompetitionRow.games)
        .join(CompetitionRow, CompetitionRow.id == CompTableRow.competition_id)
        .where(CompTableRow.web_table.is_not(None))
    )
    return sorted(
        {
            table.web_table
            for table, games in rows
            if table.web_table
            and done.get((table.competition_id, table.round, table.number), 0) < games
        }
    )


def running_timers(session: Session) -> list[tuple[str, int, str]]:
    """The round timers that run: competition, round and when it ends (ISO wall time)."""
    rows = session.scalars(select(RoundRow)).all()
    return [
        (r.competition_id, r.number, r.timer["ends_at"])
        for r in rows
        if r.timer.get("running") and r.timer.get("ends_at")
    ]
