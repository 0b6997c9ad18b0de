"""Which process of a site owns which table (docs/design.md decision 12), in PostgreSQL.

Each ``remi serve`` process of a site is a node with a lease (``nodes.expires_at``, on
the database's clock, so the nodes' own clocks never matter) that it renews about every
second. A node owns the tables of ``table_owners`` that name it while its lease runs;
another node may claim a table only once that lease has run out, and each claim adds one
to the table's ``epoch``. Every write of a table is made under the epoch its node
claimed (:meth:`Owners.fence`, in the write's own transaction, locking the owner row): a
node that lost a table, however late it wakes up, cannot write to it any more.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import String, and_, delete, event, func, literal, or_, select, text
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from remikit.storage.models import NodeRow, OwnerRow, TableRow
from remikit.storage.store import Store

LOCK_WAIT = 2000  # ms a claim waits for a write under the old claim to end
LOCK_NOT_AVAILABLE = "55P03"


class Fenced(Exception):
    """A write of a table this node no longer owns (another node claimed it since)."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id} is owned by another node now")
        self.table_id = table_id


@dataclass(frozen=True)
class Owner:
    """Who owns a table: the node's id and where the other nodes reach it."""

    node: str
    url: str


def _live() -> object:
    return NodeRow.expires_at > func.now()


class Owners:
    """One node's view of the leases of its site's database."""

    def __init__(self, store: Store, node: str, url: str, lease: float) -> None:
        if store.is_sqlite:
            raise ValueError("a site of several processes needs PostgreSQL, not SQLite")
        self.store = store
        self.node = node
        self.url = url
        self.lease = timedelta(seconds=lease)
        stale = max(1000, round(lease * 1000))

        # A process frozen inside a transaction must not hold its owner rows' locks past
        # its lease: the server ends such a transaction (and the frozen write with it).
        @event.listens_for(store.engine, "connect")
        def _bounded(dbapi_connection: Any, _record: Any) -> None:
            with dbapi_connection.cursor() as cursor:
                cursor.execute(f"SET idle_in_transaction_session_timeout = {stale}")
            dbapi_connection.commit()

        store.engine.dispose()  # connections made before have no such bound

    def beat(self) -> None:
        """Start or renew this node's lease."""
        row = {"id": self.node, "url": self.url, "expires_at": func.now() + self.lease}
        statement = insert(NodeRow).values(row)
        statement = statement.on_conflict_do_update(
            index_elements=[NodeRow.id],
            set_={"url": statement.excluded.url, "expires_at": statement.excluded.expires_at},
        )
        with self.store.transaction() as session:
            session.execute(statement)

    def leave(self) -> None:
        """End this node's lease now: its tables may be claimed at once."""
        with self.store.transaction() as session:
            session.execute(delete(NodeRow).where(NodeRow.id == self.node))

    def claim(self, table_id: str) -> int | None:
        """Own an unfinished table and return the claim's epoch; None if a live node
        owns it or it is not an unfinished table."""
        playing = select(TableRow.id, literal(self.node, String), literal(1)).where(
            TableRow.id == table_id, TableRow.finished_at.is_(None), TableRow.closed_at.is_(None)
        )
        statement = insert(OwnerRow).from_select(["table_id", "node", "epoch"], playing)
        # the row in place, as PostgreSQL names it inside ON CONFLICT (no correlation there)
        owner_dead = text(
            "NOT EXISTS (SELECT 1 FROM nodes WHERE nodes.id = table_owners.node"
            " AND nodes.expires_at > now())"
        )
        claiming = statement.on_conflict_do_update(
            index_elements=[OwnerRow.table_id],
            set_={"node": self.node, "epoch": OwnerRow.epoch + 1},
            where=or_(OwnerRow.node == self.node, owner_dead),
        ).returning(OwnerRow.epoch)
        try:
            with self.store.transaction() as session:
                session.execute(text(f"SET LOCAL lock_timeout = {LOCK_WAIT}"))
                epoch: int | None = session.execute(claiming).scalar_one_or_none()
                return epoch
        except DBAPIError as exc:
            if getattr(exc.orig, "sqlstate", None) == LOCK_NOT_AVAILABLE:
                return None  # a write under the old claim holds the row: not yet
            raise

    def owner(self, table_id: str) -> Owner | None:
        """The live node that owns a table, if any."""
        query = (
            select(NodeRow.id, NodeRow.url)
            .join(OwnerRow, OwnerRow.node == NodeRow.id)
            .where(OwnerRow.table_id == table_id, _live())  # type: ignore[arg-type]
        )
        with self.store.session() as session:
            row = session.execute(query).first()
        return None if row is None else Owner(row.id, row.url)

    def orphans(self, limit: int) -> list[str]:
        """Unfinished tables no live node owns (some of them, in no set order)."""
        alive = (
            select(OwnerRow.table_id).join(NodeRow, NodeRow.id == OwnerRow.node).where(_live())  # type: ignore[arg-type]
        )
        query = (
            select(TableRow.id)
            .where(
                TableRow.finished_at.is_(None),
                TableRow.closed_at.is_(None),
                TableRow.id.not_in(alive),
            )
            .order_by(func.random())
            .limit(limit)
        )
        with self.store.session() as session:
            return list(session.scalars(query))

    def release(self, table_ids: Collection[str]) -> None:
        """Give tables up (they left this node's memory finished or closed)."""
        if table_ids:
            with self.store.transaction() as session:
                session.execute(
                    delete(OwnerRow).where(
                        OwnerRow.table_id.in_(table_ids), OwnerRow.node == self.node
                    )
                )

    def lost(self, epochs: Mapping[str, int]) -> list[str]:
        """Of ``epochs`` (table → the epoch of this node's claim), the tables that another
        claim has taken since."""
        if not epochs:
            return []
        query = select(OwnerRow.table_id, OwnerRow.node, OwnerRow.epoch).where(
            OwnerRow.table_id.in_(list(epochs))
        )
        with self.store.session() as session:
            mine = {
                t for t, node, e in session.execute(query) if node == self.node and epochs[t] == e
            }
        return [t for t in epochs if t not in mine]

    def adopt(self, session: Session, table_id: str) -> None:
        """Own a table being made, in the transaction that stores it (epoch 1)."""
        session.add(OwnerRow(table_id=table_id, node=self.node, epoch=1))

    def fence(self, session: Session, epochs: Mapping[str, int]) -> set[str]:
        """Of ``epochs`` (table → the epoch of this node's claim), the tables this node
        still owns under that claim, with a live lease; their owner rows stay locked
        until ``session`` commits, so no claim can come between this and the write."""
        if not epochs:
            return set()
        query = (
            select(OwnerRow.table_id, OwnerRow.epoch)
            .join(NodeRow, NodeRow.id == OwnerRow.node)
            .where(
                and_(OwnerRow.table_id.in_(list(epochs)), OwnerRow.node == self.node, _live())  # type: ignore[arg-type]
            )
            .with_for_update(of=OwnerRow, read=True)
        )
        return {t for t, epoch in session.execute(query) if epochs.get(t) == epoch}

    def nodes(self) -> list[Owner]:
        """The live nodes of the site."""
        with self.store.session() as session:
            rows = session.execute(select(NodeRow.id, NodeRow.url).where(_live()))  # type: ignore[arg-type]
            return [Owner(row.id, row.url) for row in rows]

    def forget_stale(self) -> None:
        """Drop nodes whose lease ran out long ago (a day), so the table stays small."""
        with self.store.transaction() as session:
            session.execute(
                delete(NodeRow).where(NodeRow.expires_at < func.now() - timedelta(days=1))
            )


__all__ = ["Fenced", "Owner", "Owners"]
