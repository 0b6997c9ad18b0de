"""The processes that think for live tables' bots, scheduled fairly.

A bot's thinking runs in a worker process, never in the server's: a search takes
neither the server's GIL nor its event loop. :class:`Workers` keeps two lanes of
processes, QUICK and DEEP, which share no process, so a quick decision never waits
behind a search (:mod:`remikit.server.bots.lanes`: which lane, how many processes
each, and the fair order). Inside a lane, pending jobs are served round-robin by
creator, then by table within a creator: **the thinking a table may use is bounded
per creator** (one creator's 100 tables together get the share of a lane that another
creator's single table gets).

A worker that dies (killed, crashed) is replaced and the job it held runs again once;
a second death raises :class:`WorkerDied` to the caller. Cancelling a caller drops its
job if not yet started (one already running finishes and its answer is dropped).
Workers are forked from a server process that imported remikit once
(``forkserver``), so a replacement starts at once and a first decision is not slow; as
with any start method but ``fork``, a script that starts them needs the
``if __name__ == "__main__":`` guard.
"""

from __future__ import annotations

import asyncio
import copyreg
import io
import itertools
import multiprocessing
import pickle
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar, cast

from remikit.server.bots.lanes import NICENESS, FairQueue, Lane, Owner, lane_of, lane_sizes
from remikit.server.bots.thinking import (
    OTHER_FIELDS,
    decide,
    log_of_lines,
    preloads,
    serve,
    summary_of_bytes,
    view_of_parts,
)
from remikit.views import DealSummary, PlayerView, PlayLog

__all__ = [
    "Lane",
    "Owner",
    "WorkerDied",
    "Workers",
    "WorkersClosed",
    "decide",
    "lane_of",
    "lane_sizes",
    "pickled_job",
]

T = TypeVar("T")

TRIES = 2
"""How many workers may die running one job before its caller is told."""
GRACE = 1.0
"""Seconds :meth:`Workers.close` lets terminated workers exit before it kills them."""


class WorkerDied(RuntimeError):
    """The worker processes running a job died each time it was tried."""


class WorkersClosed(RuntimeError):
    """The workers are not running (not started, or closed): a job cannot be run."""


@dataclass(eq=False)
class _Job:
    number: int
    owner: Owner
    lane: Lane
    payload: bytes
    future: asyncio.Future[Any]
    tries: int = 0


@dataclass(eq=False)
class _Worker:
    lane: Lane
    process: BaseProcess
    conn: Connection
    ready: asyncio.Future[None]
    job: _Job | None = None
    broken: bool = False  # its pipe failed: it takes no job until it is replaced


@dataclass(eq=False)
class _Lane:
    size: int
    workers: list[_Worker] = field(default_factory=list)
    queue: FairQueue[_Job] = field(default_factory=FairQueue)
    retry: deque[_Job] = field(default_factory=deque)  # served first


class Workers:
    """Worker processes in two lanes, with an asyncio API (see the module docstring).

    ``processes``: how many in all (None: ``os.cpu_count()``; at least one per lane);
    ``quick``: how many of them in the QUICK lane (None: a quarter). ``initializer``
    (a module-level function) runs with ``initargs`` in each worker once it has
    imported the bots, before its first job.
    """

    def __init__(
        self,
        processes: int | None = None,
        *,
        quick: int | None = None,
        initializer: Callable[..., object] | None = None,
        initargs: tuple[Any, ...] = (),
    ) -> None:
        self._lanes = {lane: _Lane(n) for lane, n in lane_sizes(processes, quick).items()}
        self._initializer = initializer
        self._initargs = initargs
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(preloads())
        self._numbers = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False

    @property
    def sizes(self) -> dict[Lane, int]:
        """How many processes each lane has."""
        return {lane: state.size for lane, state in self._lanes.items()}

    def pids(self, lane: Lane) -> list[int]:
        """The process ids of a lane's current workers."""
        return [w.process.pid for w in self._lanes[lane].workers if w.process.pid is not None]

    async def start(self) -> None:
        """Start every worker and wait until each is ready to think."""
        if self._loop is not None:
            raise RuntimeError("the bot workers are already started")
        self._loop = asyncio.get_running_loop()
        try:
            # the first process started also starts the fork server, which imports remikit
            for lane, state in self._lanes.items():
                for _ in range(state.size):
                    self._watch(await asyncio.to_thread(self._launch, lane))
            await asyncio.gather(*(w.ready for s in self._lanes.values() for w in s.workers))
        except BaseException:
            await self.close()
            raise

    async def run(self, owner: Owner, lane: Lane, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker of ``lane``, in ``owner``'s fair turn; what it returns
        or raises. ``fn`` is a module-level function; it and ``args`` are pickled now."""
        if self._loop is None or self._closed:
            raise WorkersClosed("the bot workers are not running")
        payload = pickled_job((fn, args))
        job = _Job(next(self._numbers), owner, lane, payload, self._loop.create_future())
        self._lanes[lane].queue.push(owner, job)
        try:
            self._dispatch(lane)
            if lane is Lane.QUICK:  # an idle search worker may take it
                self._dispatch(Lane.DEEP)
            return cast(T, await job.future)
        except BaseException:  # cancelled, or no worker could be started
            self._lanes[lane].queue.discard(owner, job)
            raise

    async def close(self) -> None:
        """Stop every worker at once (terminated, killed after :data:`GRACE` seconds);
        whoever still waits gets :class:`WorkersClosed`."""
        if self._closed:
            return
        self._closed = True
        workers = [w for state in self._lanes.values() for w in state.workers]
        for state in self._lanes.values():
            waiting = [*state.retry, *(w.job for w in state.workers if w.job is not None)]
            while state.queue:
                waiting.append(state.queue.pop())
            for job in waiting:
                if not job.future.done():
                    job.future.set_exception(WorkersClosed("the bot workers were closed"))
            state.workers.clear()
        for worker in workers:
            self._unwatch(worker)
            if not worker.ready.done():
                worker.ready.set_exception(WorkersClosed("the bot workers were closed"))
            worker.process.terminate()
        await asyncio.to_thread(_reap, [w.process for w in workers])
        for worker in workers:
            worker.conn.close()

    async def __aenter__(self) -> Workers:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- the processes ----------------------------------------------------------------------

    def _launch(self, lane: Lane) -> tuple[Lane, BaseProcess, Connection]:
        ours, theirs = self._context.Pipe()
        process = self._context.Process(
            target=serve,
            args=(theirs, NICENESS[lane], self._initializer, self._initargs),
            name=f"remikit-bot-{lane.value}",
            daemon=True,
        )
        process.start()
        theirs.close()
        return lane, process, ours

    def _watch(self, launched: tuple[Lane, BaseProcess, Connection]) -> None:
        lane, process, conn = launched
        assert self._loop is not None
        worker = _Worker(lane, process, conn, self._loop.create_future())
        worker.ready.add_done_callback(_observed)
        self._lanes[lane].workers.append(worker)
        self._loop.add_reader(conn.fileno(), self._readable, worker)
        self._loop.add_reader(process.sentinel, self._exited, worker)

    def _unwatch(self, worker: _Worker) -> None:
        assert self._loop is not None
        if not worker.conn.closed:
            self._loop.remove_reader(worker.conn.fileno())
        self._loop.remove_reader(worker.process.sentinel)

    def _readable(self, worker: _Worker) -> None:
        try:
            while worker.conn.poll():
                self._receive(worker, worker.conn.recv())
        except (EOFError, OSError):  # it is exiting: its sentinel says when it is gone
            worker.broken = True
            assert self._loop is not None
            self._loop.remove_reader(worker.conn.fileno())

    def _receive(self, worker: _Worker, message: tuple[str, int, Any]) -> None:
        kind, number, value = message
        if kind == "ready" and not worker.ready.done():
            worker.ready.set_result(None)
        elif kind == "failed" and not worker.ready.done():
            worker.ready.set_exception(value)
        elif kind in ("result", "error") and worker.job and worker.job.number == number:
            job, worker.job = worker.job, None
            if not job.future.done():
                if kind == "result":
                    job.future.set_result(value)
                else:
                    job.future.set_exception(value)
            self._dispatch(worker.lane)

    def _exited(self, worker: _Worker) -> None:
        """A worker is gone: read what it said last, then retry its job."""
        worker.broken = True
        try:
            while worker.conn.poll():
                self._receive(worker, worker.conn.recv())
        except (EOFError, OSError):
            pass
        self._unwatch(worker)
        worker.conn.close()
        worker.process.join(0)
        state = self._lanes[worker.lane]
        state.workers.remove(worker)
        if not worker.ready.done():
            worker.ready.set_exception(WorkerDied("a bot worker died while starting"))
        job = worker.job
        if job is not None and not job.future.done():
            if job.tries < TRIES:
                state.retry.appendleft(job)
            else:
                job.future.set_exception(WorkerDied(f"{TRIES} bot workers died running a job"))
        if not self._closed:
            self._dispatch(worker.lane)

    def _dispatch(self, lane: Lane) -> None:
        """Give waiting jobs to idle workers, in the lane's fair order, replacing any
        worker that died (when there is a job for it: one that cannot start is not
        started again and again). A DEEP worker with no search to do takes a QUICK job:
        a search then waits at most one quick decision, and a quick one never waits
        behind a search."""
        state = self._lanes[lane]
        missing = state.size - len(state.workers)
        if missing > 0 and (state.retry or state.queue):
            for _ in range(missing):
                self._watch(self._launch(lane))
        for worker in list(state.workers):
            if worker.job is not None or worker.broken:
                continue
            job = _next(state)
            if job is None and lane is Lane.DEEP:  # idle: a quick job, done in a moment
                job = _next(self._lanes[Lane.QUICK])
            if job is None:
                return
            worker.job = job
            job.tries += 1
            try:
                worker.conn.send((job.number, job.payload))
            except OSError:  # it died before it could take the job: no try is spent
                worker.job, worker.broken = None, True
                job.tries -= 1
                state.retry.appendleft(job)


def _log_lines(log: PlayLog) -> tuple[Callable[[list[str]], PlayLog], tuple[list[str]]]:
    return log_of_lines, ([play.text for play in log],)


def _view_parts(view: PlayerView) -> tuple[Callable[..., PlayerView], tuple[Any, ...]]:
    return view_of_parts, (
        tuple(getattr(view, name) for name in OTHER_FIELDS),
        bytes(card.index for card in view.hand),
        bytes(card.index for card in view.discard_pile),
        bytes(n for seat, card in view.taken_from_discard for n in (seat, card.index)),
    )


_PICKLED: dict[int, tuple[DealSummary, bytes]] = {}
"""Each finished deal's pickle, by the summary's identity (kept with it)."""
PICKLED_KEPT = 1 << 12


def _summary_bytes(summary: DealSummary) -> tuple[Callable[[bytes], DealSummary], tuple[bytes]]:
    kept = _PICKLED.get(id(summary))
    if kept is None or kept[0] is not summary:
        if len(_PICKLED) >= PICKLED_KEPT:
            _PICKLED.clear()
        kept = _PICKLED[id(summary)] = (summary, pickle.dumps(summary, pickle.HIGHEST_PROTOCOL))
    return summary_of_bytes, (kept[1],)


_DISPATCH = copyreg.dispatch_table | {
    PlayLog: _log_lines,
    PlayerView: _view_parts,
    DealSummary: _summary_bytes,
}
"""How a job's arguments are pickled: as usual, but a view's log as the list of its
record lines (each made once per play), its cards as bytes of their indexes, and each
finished deal as its pickle, made once (the worker reads each line and deal once): a
Remi 13 D view pickles in a third of the time."""


def pickled_job(job: tuple[Callable[..., Any], tuple[Any, ...]]) -> bytes:
    """``(fn, args)`` as a worker gets it (:data:`_DISPATCH`)."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _DISPATCH
    pickler.dump(job)
    return buffer.getvalue()


def _next(state: _Lane) -> _Job | None:
    while state.retry:
        job = state.retry.popleft()
        if not job.future.done():
            return job
    return state.queue.pop() if state.queue else None


def _observed(ready: asyncio.Future[None]) -> None:
    """Mark a worker's failure to start as seen (only :meth:`Workers.start` waits on it)."""
    if not ready.cancelled():
        ready.exception()


def _reap(processes: list[BaseProcess]) -> None:
    """Wait for terminated ``processes`` to exit, killing any still there after GRACE."""
    deadline = time.monotonic() + GRACE
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.kill()
            process.join()
