"""The tables: ``tables`` (a game's configuration and seed), ``actions`` (its log),
``deals`` (the deck of each deal, stored when the deal starts), ``calls``,
``server_keys`` (the keys a server keeps across restarts), and ``nodes`` and
``table_owners`` (which process of a site owns which table: docs/design.md decision 12).

The schema is made and upgraded by the Alembic migrations of
:mod:`remikit.storage.migrations`; a change here needs a new revision there.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    """A web table: everything but the actions needed to rebuild its game.

    ``seats`` holds one object per seat: ``{"kind": "person", "name": ...,
    "lang": ..., "token_hash": ...}`` (name and hash null while the seat is
    free) or ``{"kind": "bot", "level": ..., "name": ...}``. ``seed`` is the
    decimal text of a 256-bit integer from which the table's deal seeds and its
    bots' and seat draw's random sources are derived; the deals themselves are
    rebuilt from :class:`DealRow`, not from the seed. ``seat_draw`` is null
    until a variant's seat draw (R13-2) has put everyone in their seat; then,
    per seat, ``{"joined": ..., "cards": [...]}``: the seat its player took
    before the draw and the cards drawn. ``settings`` is how the table runs
    (``remikit.server.tables.table_settings``); ``closed_at`` is set when an unfinished
    table leaves the lobby (it expired waiting for players).
    """

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[str] = mapped_column(String(100))
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    title: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    seat_draw: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict, server_default="{}")
    lang: Mapped[str | None] = mapped_column(String(8))
    owner_hash: Mapped[str | None] = mapped_column(String(64))
    client: Mapped[str | None] = mapped_column(String(64))
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    rematch: Mapped[str | None] = mapped_column(String(16))
    fixed_seed: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")


class ActionRow(Base):
    """One applied action of a table, numbered from 0 across all its deals."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("table_id", "index", name="uq_actions_table_index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    index: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)  # record text: "p1 discard Kc"
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DealRow(Base):
    """One deal of a table (numbered from 1): from when its secret is drawn, its
    fairness data (docs/fairness.md: the scheme's version, the secret and commitment in
    hex, one contribution per seat, hex or null); once dealt, its deck, written before
    anyone is told the deal has started: the cards' record text, top first, separated
    by spaces. A deal dealt before fair deals has a deck and no fairness data."""

    __tablename__ = "deals"
    __table_args__ = (UniqueConstraint("table_id", "number", name="uq_deals_table_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    deck: Mapped[str | None] = mapped_column(Text)  # "7h Ks ... Jk"
    fairness: Mapped[int | None] = mapped_column(Integer)
    secret: Mapped[str | None] = mapped_column(String(64))
    commitment: Mapped[str | None] = mapped_column(String(64))
    contributions: Mapped[list[str | None] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class CallRow(Base):
    """A person's answer to a Rummy call window (R5-10: ``rummy K`` or ``pass``), stored
    when the server acknowledges it and before the window closes; ``state`` is the number
    of actions applied when the window opened. A restart inside the window keeps it."""

    __tablename__ = "calls"
    __table_args__ = (
        UniqueConstraint("table_id", "state", "seat", name="uq_calls_table_state_seat"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    state: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)  # "rummy 3", "pass"
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class KeyRow(Base):
    """A key the server keeps across restarts, by name: ``client`` is the key of the
    hash that stands for a client's address (``tables.client``, remikit.server.limits),
    ``site`` names the site of the database's processes in Redis (remikit.server.cluster);
    64 hex digits drawn once."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class NodeRow(Base):
    """One ``remi serve`` process of a site of several (docs/deploy.md): where the others
    reach it, and until when its lease runs (the database's clock; it renews it every
    second or so). Its tables are its own while the lease runs."""

    __tablename__ = "nodes"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    url: Mapped[str] = mapped_column(String(255))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class OwnerRow(Base):
    """Which node owns a table: only it applies the table's actions. ``epoch`` counts
    the claims; a write made under an older claim is refused (fencing)."""

    __tablename__ = "table_owners"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    node: Mapped[str] = mapped_column(String(32), index=True)
    epoch: Mapped[int] = mapped_column(Integer)
