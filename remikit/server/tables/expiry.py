"""Tables that wait too long for their players close (``Settings.waiting_expiry``).

A table still waiting for a person that long after it was made is marked closed in
the database (``tables.closed_at``: never rebuilt again, its link answers
``expired``), leaves memory and the lobby, and its sockets are told why. One task
sleeps on the server's clock until the next table is due.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
from typing import TYPE_CHECKING, Any, Protocol

from remikit.server.clock import Clock
from remikit.server.problems import Problem
from remikit.server.tables.events import Ended
from remikit.storage import Store
from remikit.storage.store import now

if TYPE_CHECKING:
    from remikit.server.tables.lobby import Lobby
    from remikit.server.tables.service import Table
    from remikit.storage.writer import Writer

log = logging.getLogger("remikit.server")


def expired(table_id: str) -> Problem:
    """What a request for a table closed this way is answered."""
    return Problem("expired", "server.expired", status=410, table=table_id)


class ExpiryHost(Protocol):
    """What expiry needs from the hub."""

    tables: dict[str, Table]
    lobby: Lobby

    @property
    def writer(self) -> Writer: ...

    @property
    def clock(self) -> Clock: ...

    async def keeps_waiting(self, table_id: str) -> bool:
        """Whether a table may wait for its players as long as it takes."""
        ...


class Expiry:
    """Closes the tables that have waited ``seconds`` since they were made (0: never)."""

    def __init__(self, host: ExpiryHost, seconds: float) -> None:
        self.host = host
        self.seconds = seconds
        self._due: list[tuple[float, str]] = []  # a heap of (clock time, table code)
        self._wake = asyncio.Event()
        self._closing = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    def watch(self, table: Table) -> None:
        """Close ``table`` when it has waited long enough, counted from when it was made
        (across restarts: its age is read from the wall clock once, here)."""
        if self.seconds <= 0 or table.status != "waiting":
            return
        age = max(0.0, (now() - table.created_at).total_seconds())
        at = self.host.clock.now() + max(0.0, self.seconds - age)
        if not self._due or at < self._due[0][0]:
            self._wake.set()
        heapq.heappush(self._due, (at, table.id))

    async def start(self) -> None:
        """Close the tables already due (the server was down when their time came), then
        keep closing them as their time comes."""
        await self.close_due()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            if self._due:
                await self.host.clock.wait(self._wake, until=self._due[0][0])
            else:
                await self._wake.wait()
            self._wake.clear()
            try:
                await self.close_due()
            except Exception:
                log.exception("closing the tables that waited too long failed")

    async def close_due(self) -> list[str]:
        """Close every table whose time has come and still waits; their codes. Returns
        after any round already under way has finished too."""
        async with self._closing:
            moment = self.host.clock.now()
            due = []
            while self._due and self._due[0][0] <= moment:
                table = self.host.tables.get(heapq.heappop(self._due)[1])
                if table is not None:
                    due.append(table)
            # together, so that the writer commits their marks in a few transactions
            done = await asyncio.gather(*(self.close(table) for table in due))
        return [table.id for table, closed in zip(due, done, strict=True) if closed]

    async def close(self, table: Table) -> bool:
        """Close ``table`` if it still waits for a person; whether it did."""
        async with table.lock:
            if table.stopped or table.status != "waiting":
                return False
            if await self.host.keeps_waiting(table.id):  # a competition's round, say
                return False
            moment, table_id = now(), table.id

            def write(session: Any) -> None:
                Store.set_table(session, table_id, closed_at=moment)

            await self.host.writer.run(write, table=table_id)
            table.stopped = True  # a join waiting for the lock is refused
            if self.host.tables.get(table_id) is table:
                del self.host.tables[table_id]
            self.host.lobby.remove(table_id)
            table.emit(Ended(expired(table_id)))
        await table.stop()
        return True
