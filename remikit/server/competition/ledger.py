"""Each competition's lock, reads and snapshot on the server's database, the lookups
that refuse an unknown player or table, and a refused entry as a problem.

Every change of one competition is made under its lock: the competition is read,
the change checked against it, then written through the server's
:class:`~remikit.storage.writer.Writer` and committed before anyone is answered, so
a server killed at any moment loses nothing it acknowledged. A refused change
raises :class:`~remikit.server.problems.Problem` and stores nothing.

Snapshots are kept between requests, stamped with the competition's highest audit id
(every change writes an audit row in the same transaction): a request reads the stamp,
and only when it moved are the rows the new audit rows name read again
(:mod:`remikit.storage.competition_changes`), so what a request costs does not grow
with the field. A kept snapshot is shared by every request that reads it: nothing may
change it but a change stored first. An archived competition takes no change:
:meth:`Ledger.lock` refuses it (``archived``, 409).
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy.orm import Session

from remikit.competition.results import EntryRefused
from remikit.server.competition.views import history_json
from remikit.server.problems import Problem
from remikit.storage.competition import AuditRow, CompTableRow, PlayerRow, Snapshot, audit, load
from remikit.storage.competition_changes import changes, refreshed, stamp
from remikit.storage.store import Store
from remikit.storage.writer import Writer

KEPT = 32
"""Competitions whose snapshots are kept, the most recently read."""


Json = dict[str, Any]


@dataclass(frozen=True)
class Kept:
    """A competition's snapshot at ``stamp`` (its highest audit id), and once asked for
    its audit log up to ``stamp`` as answered (``log``), with each player's part of it
    (``histories``)."""

    stamp: int
    snap: Snapshot
    log: list[Json] | None = None
    histories: dict[str, list[Json]] | None = None

    def after(self, rows: list[AuditRow], snap: Snapshot) -> Kept:
        """Moved on by ``rows`` to ``snap``: the audit log grown by them."""
        if self.log is None or self.histories is None:
            return Kept(rows[-1].id, snap)
        log, histories = [*self.log], dict(self.histories)
        for row, shown in zip(rows, history_json(rows), strict=True):
            log.append(shown)
            if row.target.startswith("player:"):
                pid = row.target.removeprefix("player:")
                histories[pid] = [*histories.get(pid, []), shown]
        return Kept(rows[-1].id, snap, log, histories)


class Ledger:
    """The competitions' database: a lock per competition, reads and the writer."""

    def __init__(self, store: Store, writer: Writer) -> None:
        self.store = store
        self.writer = writer
        self.locks: dict[str, asyncio.Lock] = {}
        self.kept: OrderedDict[str, Kept] = OrderedDict()
        self._kept_lock = threading.Lock()

    @asynccontextmanager
    async def lock(self, competition_id: str) -> AsyncIterator[None]:
        """Held while one change of the competition is checked and stored; an archived
        competition is refused (``archived``, 409)."""
        async with self.locks.setdefault(competition_id.upper(), asyncio.Lock()):
            snap = await self.snapshot(competition_id)
            if snap.competition.archived_at is not None:
                raise Problem("archived", "competition.archived", status=409)
            yield

    def forget(self, competition_id: str) -> None:
        """Drop a kept snapshot (a competition deleted)."""
        with self._kept_lock:
            self.kept.pop(competition_id.upper(), None)

    def _keep(self, code: str, kept: Kept) -> Kept:
        with self._kept_lock:
            self.kept[code] = kept
            self.kept.move_to_end(code)
            while len(self.kept) > KEPT:
                self.kept.popitem(last=False)
        return kept

    def current(self, session: Session, code: str) -> Kept | None:
        """The competition as stored now: the kept snapshot, brought up to date when
        its stamp moved, else loaded whole (None: no such competition)."""
        with self._kept_lock:
            kept = self.kept.get(code)
        now = stamp(session, code)
        if now is None:
            self.forget(code)
            return None
        if kept is not None and now == kept.stamp:
            return kept
        if kept is not None and now > kept.stamp:
            rows = changes(session, code, kept.stamp)
            snap = refreshed(session, kept.snap, rows)
            if snap is not None:
                return self._keep(code, kept.after(rows, snap))
        loaded = load(session, code)
        if loaded is None:
            return None
        return self._keep(code, Kept(now, loaded))

    async def logged(self, competition_id: str) -> Kept:
        """The competition with its audit log as answered (``log``, ``histories``)."""
        code = competition_id.upper()

        def work(session: Session) -> Kept | None:
            kept = self.current(session, code)
            if kept is None or kept.log is not None:
                return kept
            log: list[Json] = []
            histories: dict[str, list[Json]] = {}
            rows = [row for row in audit(session, code) if row.id <= kept.stamp]
            for row, shown in zip(rows, history_json(rows), strict=True):
                log.append(shown)
                if row.target.startswith("player:"):
                    histories.setdefault(row.target.removeprefix("player:"), []).append(shown)
            return self._keep(code, Kept(kept.stamp, kept.snap, log, histories))

        found: Kept | None = await self.read(work)
        if found is None:
            raise unknown(competition_id)
        return found

    async def read(self, work: Callable[[Session], Any]) -> Any:
        def run() -> Any:
            with self.store.session() as session:
                return work(session)

        return await asyncio.to_thread(run)

    async def snapshot(self, competition_id: str) -> Snapshot:
        """The competition, else the problem ``unknown_competition``."""
        kept: Kept | None = await self.read(lambda s: self.current(s, competition_id.upper()))
        if kept is None:
            raise unknown(competition_id)
        return kept.snap


def unknown(competition_id: str) -> Problem:
    return Problem(
        "unknown_competition", "competition.unknown", status=404, competition=competition_id[:16]
    )


def refused(exc: EntryRefused) -> Problem:
    return Problem(exc.code, exc.key, **cast(dict[str, Any], exc.params))


def known_player(snap: Snapshot, pid: str) -> PlayerRow:
    found = snap.players.get(pid.upper())
    if found is None:
        raise Problem("unknown_player", "competition.unknown_player", status=404, player=pid)
    return found


def known_table(snap: Snapshot, number: int, table: int) -> CompTableRow:
    found = snap.tables.get((number, table))
    if found is None:
        raise Problem("unknown_game", "competition.unknown_table", round=number, table=table)
    return found
