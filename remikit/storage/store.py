"""The store: SQLAlchemy 2 over SQLite (default) or PostgreSQL (``REMI_DATABASE_URL``).

Writes come in two forms: helpers that take an open :class:`~sqlalchemy.orm.Session`
(so a caller can commit several of them in one transaction, as the server's
writer does) and plain methods that open and commit their own.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, func, select, update
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from remikit.storage import migrations
from remikit.storage.models import ActionRow, CallRow, DealRow, TableRow
from remikit.storage.stored import StoredFairness, StoredTable, stored

DEFAULT_DB_NAME = "remikit.db"
DEFAULT_DATA_DIR = Path("~/.local/share/remikit")


def default_database_url(env: Mapping[str, str] | None = None) -> str:
    """``REMI_DATABASE_URL``, else the SQLite file in ``REMI_DATA_DIR`` or
    ``~/.local/share/remikit``.

    >>> default_database_url({"REMI_DATA_DIR": "/srv/remi"})
    'sqlite:////srv/remi/remikit.db'
    >>> default_database_url({"REMI_DATABASE_URL": "postgresql://u@db/remi"})
    'postgresql+psycopg://u@db/remi'
    """
    env = os.environ if env is None else env
    url = env.get("REMI_DATABASE_URL", "").strip()
    if url:
        return normalize_url(url)
    folder = Path(env.get("REMI_DATA_DIR", "").strip() or DEFAULT_DATA_DIR).expanduser()
    return f"sqlite:///{folder.absolute() / DEFAULT_DB_NAME}"


def normalize_url(url: str) -> str:
    """A PostgreSQL URL without a driver gets psycopg (version 3), the driver installed.

    >>> normalize_url("postgres://u:p@127.0.0.1:5432/remi")
    'postgresql+psycopg://u:p@127.0.0.1:5432/remi'
    >>> normalize_url("sqlite:///x.db")
    'sqlite:///x.db'
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def now() -> datetime:
    return datetime.now(UTC)


class Store:
    """One database: created on first use and upgraded to the newest schema
    (:mod:`remikit.storage.migrations`); :class:`~remikit.storage.migrations.NewerDatabase`
    when a newer remikit has upgraded it past what this one knows."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalize_url(url) if url else default_database_url()
        self.engine = _make_engine(self.url)
        try:
            migrations.upgrade(self.engine)
        except BaseException:
            self.engine.dispose()
            raise
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    def session(self) -> Session:
        return self._sessions()

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session whose work is committed at the end (rolled back on an error)."""
        with self._sessions() as session, session.begin():
            yield session

    @contextmanager
    def connection(self) -> Iterator[Connection]:
        """A connection whose Core statements are committed at the end (rolled back on an
        error): cheaper than a session where no ORM object is written."""
        with self.engine.begin() as connection:
            yield connection

    def close(self) -> None:
        self.engine.dispose()

    # -- writes inside a caller's transaction --------------------------------

    @staticmethod
    def add_table(session: Session, table: StoredTable) -> None:
        session.add(
            TableRow(
                id=table.id,
                variant=table.variant,
                options=table.options,
                seed=table.seed,
                seats=table.seats,
                title=table.title,
                created_at=table.created_at,
                finished_at=table.finished_at,
                result=table.result,
                seat_draw=table.seat_draw,
                settings=table.settings,
                lang=table.lang,
                owner_hash=table.owner_hash,
                client=table.client,
                closed_at=table.closed_at,
                rematch=table.rematch,
                fixed_seed=table.fixed_seed,
            )
        )
        session.flush()  # before any deal or action of the table in the same transaction

    @staticmethod
    def add_action(session: Session, table_id: str, index: int, seat: int, text: str) -> None:
        session.add(
            ActionRow(table_id=table_id, index=index, seat=seat, action=text, created_at=now())
        )

    @staticmethod
    def add_deal(session: Session, table_id: str, number: int, deck: Sequence[str]) -> None:
        """The deck of deal ``number`` (from 1) of a table: card texts, top first (on the
        row of its fairness data, when it has one); a deal is dealt once."""
        text = " ".join(deck)
        done = session.execute(
            update(DealRow)
            .where(DealRow.table_id == table_id, DealRow.number == number, DealRow.deck.is_(None))
            .values(deck=text)
        )
        if not getattr(done, "rowcount", 0):
            session.add(DealRow(table_id=table_id, number=number, deck=text, created_at=now()))

    @staticmethod
    def add_fairness(session: Session, table_id: str, fair: StoredFairness) -> None:
        """The fairness data of a deal not dealt yet (its secret just drawn)."""
        session.add(
            DealRow(
                table_id=table_id,
                number=fair.number,
                fairness=fair.version,
                secret=fair.secret,
                commitment=fair.commitment,
                contributions=list(fair.contributions),
                created_at=now(),
            )
        )

    @staticmethod
    def set_contributions(
        session: Session, table_id: str, number: int, contributions: Sequence[str | None]
    ) -> None:
        """The contributions to deal ``number``, one per seat in seat order."""
        session.execute(
            update(DealRow)
            .where(DealRow.table_id == table_id, DealRow.number == number)
            .values(contributions=list(contributions))
        )

    @staticmethod
    def add_call(session: Session, table_id: str, state: int, seat: int, text: str) -> None:
        """``seat``'s answer (``rummy 3``, ``pass``) to the call window of ``state``."""
        session.add(
            CallRow(table_id=table_id, state=state, seat=seat, action=text, created_at=now())
        )

    @staticmethod
    def set_seats(
        session: Session,
        table_id: str,
        seats: list[dict[str, Any]],
        seat_draw: list[dict[str, Any]] | None = None,
    ) -> None:
        """The seats; with ``seat_draw``, the seat draw that put them in this order too."""
        values: dict[str, Any] = {"seats": seats}
        if seat_draw is not None:
            values["seat_draw"] = seat_draw
        session.execute(update(TableRow).where(TableRow.id == table_id).values(**values))

    @staticmethod
    def set_table(session: Session, table_id: str, **values: Any) -> None:
        """Some of a table's columns (``settings``, ``closed_at``, ``rematch``)."""
        session.execute(update(TableRow).where(TableRow.id == table_id).values(**values))

    @staticmethod
    def set_finished(
        session: Session, table_id: str, result: dict[str, Any], at: datetime | None = None
    ) -> None:
        session.execute(
            update(TableRow)
            .where(TableRow.id == table_id)
            .values(finished_at=at or now(), result=result)
        )

    # -- the same, each committed on its own -----------------------------------

    def create_table(self, table: StoredTable) -> None:
        with self.transaction() as session:
            self.add_table(session, table)

    def append_action(self, table_id: str, index: int, seat: int, text: str) -> None:
        with self.transaction() as session:
            self.add_action(session, table_id, index, seat, text)

    def append_deal(self, table_id: str, number: int, deck: Sequence[str]) -> None:
        with self.transaction() as session:
            self.add_deal(session, table_id, number, deck)

    def update_seats(
        self,
        table_id: str,
        seats: list[dict[str, Any]],
        seat_draw: list[dict[str, Any]] | None = None,
    ) -> None:
        with self.transaction() as session:
            self.set_seats(session, table_id, seats, seat_draw)

    def finish(self, table_id: str, result: dict[str, Any]) -> None:
        with self.transaction() as session:
            self.set_finished(session, table_id, result)

    # -- reads ----------------------------------------------------------------

    def exists(self, table_id: str) -> bool:
        with self.session() as session:
            return session.get(TableRow, table_id) is not None

    def load(self, table_id: str) -> StoredTable | None:
        """A table with its actions and decks, or None."""
        with self.session() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            deals = session.scalars(
                select(DealRow).where(DealRow.table_id == table_id).order_by(DealRow.number)
            ).all()
            actions = self._actions(session, table_id)
            calls = self._calls(session, table_id, len(actions))
            return stored(row, actions, deals=deals, calls=calls)

    def actions(self, table_id: str) -> list[str]:
        """The table's actions in order (record text)."""
        with self.session() as session:
            return self._actions(session, table_id)

    def decks(self, table_id: str) -> list[list[str]]:
        """The decks of the table's deals started so far, in order (card texts, top first)."""
        with self.session() as session:
            return self._decks(session, table_id)

    @staticmethod
    def _decks(session: Session, table_id: str) -> list[list[str]]:
        rows = session.scalars(
            select(DealRow.deck)
            .where(DealRow.table_id == table_id, DealRow.deck.is_not(None))
            .order_by(DealRow.number)
        )
        return [deck.split() for deck in rows if deck is not None]

    @staticmethod
    def _calls(session: Session, table_id: str, state: int) -> dict[int, str]:
        rows = session.execute(
            select(CallRow.seat, CallRow.action).where(
                CallRow.table_id == table_id, CallRow.state == state
            )
        )
        return {seat: text for seat, text in rows}

    @staticmethod
    def _actions(session: Session, table_id: str) -> list[str]:
        rows = session.scalars(
            select(ActionRow.action).where(ActionRow.table_id == table_id).order_by(ActionRow.index)
        )
        return list(rows)

    def unfinished(self) -> list[StoredTable]:
        """Every table whose game is not finished (nor closed unfinished), with its
        actions and decks, oldest first."""
        with self.session() as session:
            rows = session.scalars(
                select(TableRow)
                .where(TableRow.finished_at.is_(None), TableRow.closed_at.is_(None))
                .order_by(TableRow.created_at, TableRow.id)
            ).all()
            by_table: dict[str, list[str]] = {row.id: [] for row in rows}
            query = (
                select(ActionRow.table_id, ActionRow.action)
                .join(TableRow, TableRow.id == ActionRow.table_id)
                .where(TableRow.finished_at.is_(None), TableRow.closed_at.is_(None))
                .order_by(ActionRow.table_id, ActionRow.index)
            )
            for table_id, text in session.execute(query):
                if table_id in by_table:
                    by_table[table_id].append(text)
            deals: dict[str, list[DealRow]] = {row.id: [] for row in rows}
            deal_query = (
                select(DealRow)
                .join(TableRow, TableRow.id == DealRow.table_id)
                .where(TableRow.finished_at.is_(None), TableRow.closed_at.is_(None))
                .order_by(DealRow.table_id, DealRow.number)
            )
            for deal in session.scalars(deal_query):
                if deal.table_id in deals:
                    deals[deal.table_id].append(deal)
            calls: dict[str, dict[int, str]] = {row.id: {} for row in rows}
            call_query = (
                select(CallRow.table_id, CallRow.state, CallRow.seat, CallRow.action)
                .join(TableRow, TableRow.id == CallRow.table_id)
                .where(TableRow.finished_at.is_(None), TableRow.closed_at.is_(None))
            )
            for table_id, state, seat, text in session.execute(call_query):
                if table_id in calls and state == len(by_table[table_id]):  # the open window's
                    calls[table_id][seat] = text
            return [
                stored(row, by_table[row.id], deals=deals[row.id], calls=calls[row.id])
                for row in rows
            ]

    def finished(self, *, limit: int = 50, offset: int = 0) -> list[StoredTable]:
        """Finished tables, the most recently finished first (without their actions)."""
        with self.session() as session:
            rows = session.scalars(
                select(TableRow)
                .where(TableRow.finished_at.is_not(None))
                .order_by(TableRow.finished_at.desc(), TableRow.id)
                .limit(limit)
                .offset(offset)
            ).all()
            counted = session.execute(  # the page's tables only, however many are stored
                select(ActionRow.table_id, func.count())
                .where(ActionRow.table_id.in_([row.id for row in rows]))
                .group_by(ActionRow.table_id)
            )
            counts = {table_id: n for table_id, n in counted}
            return [stored(row, count=counts.get(row.id, 0)) for row in rows]


def _make_engine(url: str) -> Engine:
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    database = make_url(url).database
    if database and database != ":memory:":
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": 30})

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")  # a commit is on disk before anyone is told
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine
