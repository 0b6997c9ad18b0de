"""Each competition's lock, reads and snapshot on the server's database, the lookups
that refuse an unknown player or table, and a refused entry as a problem.

Every change of one competition is made under its lock: the competition is read,
the change checked against it, then written through the server's
:class:`~remikit.storage.writer.Writer` and committed before anyone is answered, so
a server killed at any moment loses nothing it acknowledged. A refused change
raises :class:`~remikit.server.problems.Problem` and stores nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, cast

from sqlalchemy.orm import Session

from remikit.competition.results import EntryRefused
from remikit.server.problems import Problem
from remikit.storage.competition import CompTableRow, PlayerRow, Snapshot, load
from remikit.storage.store import Store
from remikit.storage.writer import Writer


class Ledger:
    """The competitions' database: a lock per competition, reads and the writer."""

    def __init__(self, store: Store, writer: Writer) -> None:
        self.store = store
        self.writer = writer
        self.locks: dict[str, asyncio.Lock] = {}

    def lock(self, competition_id: str) -> asyncio.Lock:
        return self.locks.setdefault(competition_id.upper(), asyncio.Lock())

    async def read(self, work: Callable[[Session], Any]) -> Any:
        def run() -> Any:
            with self.store.session() as session:
                return work(session)

        return await asyncio.to_thread(run)

    async def snapshot(self, competition_id: str) -> Snapshot:
        """The competition, else the problem ``unknown_competition``."""
        snap: Snapshot | None = await self.read(lambda s: load(s, competition_id.upper()))
        if snap is None:
            raise Problem(
                "unknown_competition",
                "competition.unknown",
                status=404,
                competition=competition_id[:16],
            )
        return snap


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
