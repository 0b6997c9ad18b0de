"""This process as one node of a site: its lease, the tables it owns, the tables it takes
over from a node that died.

The lease lives in PostgreSQL beside the tables (:mod:`remikit.storage.owners`), because
the database that stores a table's actions is the one that can refuse a stale owner's
write in the same transaction (fencing). Every :attr:`Node.beat_every` seconds the node
renews its lease; when it cannot for a whole lease, it lets every table go (another node
may own them by then). Every :attr:`Node.sweep_every` seconds it claims some unfinished
tables that no live node owns, rebuilding each from storage exactly as a restart does,
and lets go of any table claimed by another node since.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from sqlalchemy.orm import Session

from remikit.server.problems import Problem
from remikit.server.tables.registry import Tables
from remikit.storage.owners import Owner, Owners

log = logging.getLogger("remikit.server")

SWEEP_SIZE = 50  # orphaned tables one sweep claims at most


class Node:
    """The ownership of one process of a site (:class:`remikit.server.tables.ownership.
    Ownership`) and the fence of its writer (:class:`remikit.storage.writer.Fence`)."""

    shared = True

    def __init__(self, tables: Tables, owners: Owners, *, sweep_every: float = 1.0) -> None:
        self.tables = tables
        self.owners = owners
        self.epochs: dict[str, int] = {}
        """The tables this node holds, each with the epoch of its claim."""
        self.beat_every = owners.lease.total_seconds() / 4
        self.sweep_every = sweep_every
        self.valid_until = 0.0  # the event loop's time until which the lease surely runs
        self._tasks: list[asyncio.Task[None]] = []

    @property
    def id(self) -> str:
        return self.owners.node

    # -- Ownership -------------------------------------------------------------------

    async def claim(self, table_id: str) -> bool:
        if not self.alive:
            return False
        epoch = await asyncio.to_thread(self.owners.claim, table_id)
        if epoch is None:
            return False
        self.epochs[table_id] = epoch
        return True

    def adopt(self, session: Any, table_id: str) -> None:
        self.owners.adopt(session, table_id)
        self.epochs[table_id] = 1

    def forget(self, table_id: str) -> None:
        self.epochs.pop(table_id, None)

    # -- Fence -----------------------------------------------------------------------

    def held(self, session: Session, tables: set[str]) -> set[str]:
        epochs = {t: self.epochs[t] for t in tables if t in self.epochs}
        return self.owners.fence(session, epochs)

    # -- life ------------------------------------------------------------------------

    @property
    def alive(self) -> bool:
        """Whether this node's lease surely still runs."""
        return asyncio.get_running_loop().time() < self.valid_until

    async def owner(self, table_id: str) -> Owner | None:
        """The live node that owns a table (None: nobody does)."""
        return await asyncio.to_thread(self.owners.owner, table_id)

    async def start(self) -> None:
        """Take the lease (raises when the database cannot be reached), then keep it."""
        await self._beat()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._beating()), loop.create_task(self._sweeping())]

    async def close(self) -> None:
        """Stop renewing; the caller closes the tables, then :meth:`leave`."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def leave(self) -> None:
        """End the lease now, so that other nodes take the tables over at once."""
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.owners.leave)

    async def _beat(self) -> None:
        started = asyncio.get_running_loop().time()
        await asyncio.to_thread(self.owners.beat)
        self.valid_until = started + self.owners.lease.total_seconds()

    async def _beating(self) -> None:
        while True:
            await asyncio.sleep(self.beat_every)
            try:
                await self._beat()
            except Exception as exc:
                log.warning("node %s: the lease could not be renewed: %s", self.id, exc)
                if not self.alive:
                    self.let_go_all()

    def let_go_all(self) -> None:
        """The lease ran out: every table may be another node's by now."""
        for table_id in list(self.tables.tables):
            if table_id in self.epochs:
                self.tables.let_go(table_id)

    async def _sweeping(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_every)
            if not self.alive:
                continue
            try:
                await self.sweep()
            except Exception:
                log.exception("node %s: the sweep for orphaned tables failed", self.id)

    async def sweep(self) -> None:
        """Let go of tables claimed by another node since; take over orphaned ones."""
        for table_id in await asyncio.to_thread(self.owners.lost, dict(self.epochs)):
            log.warning("node %s: table %s is owned by another node now", self.id, table_id)
            self.tables.let_go(table_id)
        for table_id in await asyncio.to_thread(self.owners.orphans, SWEEP_SIZE):
            try:
                await self.tables.get(table_id)
            except Problem:  # claimed by another node first, or not to be rebuilt
                continue
            log.info("node %s: took table %s over", self.id, table_id)
