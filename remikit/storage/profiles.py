"""Players' profiles (docs/ratings.md): each profile, its sign-in tokens, whom it blocks,
the finished games of its seats and its rating per variant.

A profile's id is public (its page, the leaderboard, the seats it took); its tokens are
kept as SHA-256 hashes and its password, when it has one, as a ``hashlib.scrypt`` hash
with a random salt. ``profile_tables`` marks each finished table once it has been taken
into the profiles' games and ratings, so that a table counts once. The schema is made by
migration ``0015``; a change here needs a new revision there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    delete,
    select,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from remikit.storage.models import Base, TableRow


class ProfileRow(Base):
    """A profile: its name (``named``: chosen by its player, not the one it was given),
    its password hash, and the failed sign-ins since the last good one with when the next
    may be tried."""

    __tablename__ = "profiles"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    named: Mapped[bool] = mapped_column(Boolean, default=False)
    password: Mapped[str | None] = mapped_column(String(200))
    failures: Mapped[int] = mapped_column(Integer, default=0)
    retry_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ProfileTokenRow(Base):
    """A device's token of a profile (its SHA-256 hash)."""

    __tablename__ = "profile_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class BlockRow(Base):
    """``profile_id`` blocks ``blocked_id``: the blocked one cannot join its tables."""

    __tablename__ = "profile_blocks"

    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True
    )
    blocked_id: Mapped[str] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ProfileGameRow(Base):
    """A finished game of a profile's seat: its points and place, whether it won, how many
    of its turns the stand-in played (``stand_in``: more than the server's share, so the
    game is not the person's), and what it did deal by deal (``counts``: how many deals it
    ended by each ending, and the variant's own marks)."""

    __tablename__ = "profile_games"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), index=True
    )
    variant: Mapped[str] = mapped_column(String(32))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    players: Mapped[int] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    deals: Mapped[int] = mapped_column(Integer)
    turns: Mapped[int] = mapped_column(Integer)
    stand_in_turns: Mapped[int] = mapped_column(Integer)
    stand_in: Mapped[bool] = mapped_column(Boolean)
    counts: Mapped[dict[str, int]] = mapped_column(JSON)


class RatingRow(Base):
    """A profile's rating at a variant (openskill's Plackett–Luce: ``mu``, ``sigma``) and
    the rated games it comes from."""

    __tablename__ = "profile_ratings"

    profile_id: Mapped[str] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True
    )
    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ProfileTableRow(Base):
    """A finished table taken into the profiles (once); ``rated``: it changed ratings."""

    __tablename__ = "profile_tables"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    rated: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int


def profile_of_token(session: Session, token_hash: str) -> ProfileRow | None:
    row = session.get(ProfileTokenRow, token_hash)
    return None if row is None else session.get(ProfileRow, row.profile_id)


def blocked_by(session: Session, blocked: str, among: Sequence[str]) -> bool:
    """Whether any profile of ``among`` blocks ``blocked``."""
    if not among:
        return False
    found = session.scalars(
        select(BlockRow.profile_id).where(
            BlockRow.blocked_id == blocked, BlockRow.profile_id.in_(list(among))
        )
    ).first()
    return found is not None


def blocks_of(session: Session, profile_id: str) -> list[tuple[str, str]]:
    """Whom a profile blocks: ``(id, name)``, in the order blocked."""
    rows = session.execute(
        select(ProfileRow.id, ProfileRow.name)
        .join(BlockRow, BlockRow.blocked_id == ProfileRow.id)
        .where(BlockRow.profile_id == profile_id)
        .order_by(BlockRow.created_at, ProfileRow.id)
    )
    return [(i, n) for i, n in rows]


def games_of(session: Session, profile_id: str) -> list[ProfileGameRow]:
    """A profile's finished games, the most recent first."""
    return list(
        session.scalars(
            select(ProfileGameRow)
            .where(ProfileGameRow.profile_id == profile_id)
            .order_by(ProfileGameRow.finished_at.desc(), ProfileGameRow.table_id)
        )
    )


def ratings_of(session: Session, profile_ids: Sequence[str], variant: str) -> dict[str, Rating]:
    if not profile_ids:
        return {}
    rows = session.scalars(
        select(RatingRow).where(
            RatingRow.variant == variant, RatingRow.profile_id.in_(list(profile_ids))
        )
    )
    return {r.profile_id: Rating(r.mu, r.sigma, r.games) for r in rows}


def set_rating(
    session: Session, profile_id: str, variant: str, rating: Rating, at: datetime
) -> None:
    row = session.get(RatingRow, (profile_id, variant))
    if row is None:
        row = RatingRow(profile_id=profile_id, variant=variant)
        session.add(row)
    row.mu, row.sigma, row.games, row.updated_at = rating.mu, rating.sigma, rating.games, at


def leaderboard(session: Session, variant: str) -> list[tuple[str, str, Rating]]:
    """Every rated profile of a variant: ``(id, name, rating)``."""
    rows = session.execute(
        select(ProfileRow.id, ProfileRow.name, RatingRow)
        .join(RatingRow, RatingRow.profile_id == ProfileRow.id)
        .where(RatingRow.variant == variant)
    )
    return [(i, n, Rating(r.mu, r.sigma, r.games)) for i, n, r in rows]


def delete_profile(session: Session, profile_id: str, deleted_name: dict[str, str]) -> None:
    """Delete a profile and everything it holds; in the seats of its finished games its
    name becomes ``deleted_name`` (by the table's language, ``""`` the fallback) and the
    seat no longer names the profile."""
    tables = session.scalars(
        select(ProfileGameRow.table_id).where(ProfileGameRow.profile_id == profile_id)
    ).all()
    for table_id in set(tables):
        row = session.get(TableRow, table_id)
        if row is not None:
            row.seats = forget_seats(row.seats, profile_id, deleted_name, row.lang)
    session.execute(delete(ProfileRow).where(ProfileRow.id == profile_id))


def forget_seats(
    seats: list[dict[str, Any]], profile_id: str, deleted_name: dict[str, str], lang: str | None
) -> list[dict[str, Any]]:
    """Seats without the name and the id of a deleted profile."""
    name = deleted_name.get(lang or "", deleted_name[""])
    return [
        {**s, "name": name, "profile": None} if s.get("profile") == profile_id else s for s in seats
    ]


__all__ = [
    "BlockRow",
    "ProfileGameRow",
    "ProfileRow",
    "ProfileTableRow",
    "ProfileTokenRow",
    "Rating",
    "RatingRow",
]
