"""Durable writes off the event loop, with group commit.

One thread owns every write. Jobs queue up while a commit is in flight and
are then committed together in one transaction, so 200 busy tables cost a
handful of disk syncs per second rather than one per action. While the writer
is busy (its last commit held more than one job) it lingers a moment
(:data:`LINGER`) before the next, so each commit gathers more jobs: about four
actions a commit instead of two at 200 tables, and a fifth less CPU per action
(docs/performance.md); alone, a job is committed at once. A job's
awaiting coroutine resumes only after its transaction is committed: the
server tells nobody about an action before that (DESIGN.md decision 1). If a
batch fails, its jobs are retried one by one so one bad job cannot sink the
others.

On a site of several processes each write of a table carries the table's id, and the
writer's :class:`Fence` keeps out those of tables this process no longer owns
(:mod:`remikit.storage.owners`): they fail with :class:`~remikit.storage.owners.Fenced`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from sqlalchemy import insert
from sqlalchemy.orm import Session

from remikit.storage import ActionRow, Store
from remikit.storage.owners import Fenced
from remikit.storage.store import now

log = logging.getLogger("remikit.server")

T = TypeVar("T")
ACTIONS = insert(ActionRow.__table__)  # type: ignore[arg-type]
"""The insert of a batch's action rows (Core: no ORM objects)."""
MAX_BATCH = 1000
LINGER = 0.003
"""Seconds a busy writer waits for more jobs before its next commit."""


class Fence(Protocol):
    """Which tables this process may still write (:class:`remikit.storage.owners.Owners`
    with the epochs of its claims)."""

    def held(self, session: Session, tables: set[str]) -> set[str]:
        """Of ``tables``, those this process owns, locked until ``session`` commits."""
        ...


@dataclass
class _Job:
    """A function of a session, or an action row (inserted with the batch's other rows),
    of ``table`` when it is one table's write."""

    work: Callable[[Session], Any] | None
    row: dict[str, Any] | None
    future: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop
    table: str | None


Outcome = tuple[asyncio.Future[Any], Any, BaseException | None]
"""A job's future, with its result or its error."""


def _settle(outcomes: list[Outcome]) -> None:
    for future, value, error in outcomes:
        if future.done():  # its waiter was cancelled: the job is committed all the same
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(value)


def _outcome(job: _Job, session: Session, fenced: set[str]) -> tuple[Any, BaseException | None]:
    if job.table is not None and job.table in fenced:
        return None, Fenced(job.table)
    return (None if job.work is None else job.work(session)), None


class Writer:
    """Runs write jobs (functions of a session) in one thread, many per commit."""

    def __init__(
        self, store: Store, *, linger: float = LINGER, sleep: Callable[[float], None] = time.sleep
    ) -> None:
        self.store = store
        self.linger = linger
        self._sleep = sleep
        self.fence: Fence | None = None
        """Set on a site of several processes: one table's writes need its ownership."""
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="remikit-writer", daemon=True)
        self._closed = False
        self._thread.start()

    async def run(self, work: Callable[[Session], T], *, table: str | None = None) -> T:
        """Commit ``work(session)`` and return its result (raises what it raised);
        ``table``: the table it writes, if one."""
        result: T = await self._submit(work, None, table)
        return result

    async def append_action(self, table_id: str, index: int, seat: int, text: str) -> None:
        """Commit one action of a table (the batch's actions go in one multi-row insert)."""
        await self._submit(
            None,
            {
                "table_id": table_id,
                "index": index,
                "seat": seat,
                "action": text,
                "created_at": now(),
            },
            table_id,
        )

    async def append_call(self, table_id: str, state: int, seat: int, text: str) -> None:
        """Commit a person's answer to the call window of ``state``."""
        await self.run(
            lambda session: Store.add_call(session, table_id, state, seat, text), table=table_id
        )

    async def _submit(
        self, work: Callable[[Session], Any] | None, row: dict[str, Any] | None, table: str | None
    ) -> Any:
        if self._closed:
            raise RuntimeError("the writer is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._queue.put(_Job(work, row, future, loop, table))
        return await future

    def close(self) -> None:
        """Finish the queued jobs and stop the thread."""
        if not self._closed:
            self._closed = True
            self._queue.put(None)
            self._thread.join()

    def _run(self) -> None:
        stop = False
        busy = False
        while not stop:
            job = self._queue.get()
            if job is None:
                break
            if busy and self.linger:
                self._sleep(self.linger)
            batch = [job]
            while len(batch) < MAX_BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            busy = len(batch) > 1
            self._commit(batch)

    def _commit(self, batch: list[_Job]) -> None:
        fenced: set[str] = set()
        try:
            if self.fence is None and all(job.work is None for job in batch):
                # actions alone (most batches): a plain connection, a third less CPU than a session
                with self.store.connection() as connection:
                    connection.execute(ACTIONS, [job.row for job in batch if job.row is not None])
                outcomes: list[tuple[Any, BaseException | None]] = [(None, None)] * len(batch)
            else:
                with self.store.transaction() as session:
                    if self.fence is not None:
                        tables = {job.table for job in batch if job.table is not None}
                        fenced = tables - self.fence.held(session, tables)
                    kept = [job for job in batch if job.table not in fenced]
                    rows = [job.row for job in kept if job.row is not None]
                    if rows:
                        session.execute(ACTIONS, rows)
                    outcomes = [_outcome(job, session, fenced) for job in batch]
        except Exception as exc:
            if len(batch) > 1:
                for job in batch:  # find the culprit: each job on its own
                    self._commit([job])
                return
            log.exception("a write failed")
            self._settle(batch, [(None, exc)])
            return
        self._settle(batch, outcomes)

    @staticmethod
    def _settle(batch: list[_Job], outcomes: list[tuple[Any, BaseException | None]]) -> None:
        """Hand each job's outcome to its loop: one wake-up of each loop for the batch."""
        by_loop: dict[asyncio.AbstractEventLoop, list[Outcome]] = {}
        for job, (value, error) in zip(batch, outcomes, strict=True):
            by_loop.setdefault(job.loop, []).append((job.future, value, error))
        for loop, settled in by_loop.items():
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
                loop.call_soon_threadsafe(_settle, settled)
