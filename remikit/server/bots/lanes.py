"""Who asks a bot worker to think, in which lane, and the fair order a lane serves them in.

Two lanes of worker processes, which share none:

* QUICK: decisions without a search budget (``random``, ``greedy``), about a
  millisecond each; a quarter of the processes, at least one;
* DEEP: searches (``strong@B``, ``expert``): the rest, at least one, run at a lower
  priority (:data:`NICENESS`) so that the server and the quick lane get a busy
  machine's cores first.

Out of 2 processes (the default is one per core) that is 1 QUICK + 1 DEEP; out of 8,
2 + 6 (:func:`lane_sizes`). For a level that picks without thinking (``random``) the
bot driver sends no job: it makes the decision in the server's process at once
(:func:`at_once`).

A lane's pending jobs are served round-robin by creator (whoever opened the tables),
then round-robin by table within a creator, then in order within a table: a creator
with 100 tables gets the same share of a lane as a creator with one. Tables whose
creator is unknown (``None``) share one turn among themselves.

>>> queue: FairQueue[str] = FairQueue()
>>> for owner, job in [(Owner("a1", "A"), "a1-1"), (Owner("a1", "A"), "a1-2"),
...                    (Owner("a2", "A"), "a2-1"), (Owner("b1", "B"), "b1-1")]:
...     queue.push(owner, job)
>>> [queue.pop() for _ in range(len(queue))]
['a1-1', 'b1-1', 'a2-1', 'a1-2']
"""

from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Generic, TypeVar

from remikit.bots import RandomBot, StrongBot, make_bot

J = TypeVar("J")


@dataclass(frozen=True)
class Owner:
    """Who asks: the table, and the hash of who created it (``None``: unknown)."""

    table: str
    creator: str | None


class Lane(Enum):
    """Where a job waits: cheap decisions (QUICK) never wait behind searches (DEEP)."""

    QUICK = "quick"
    DEEP = "deep"


NICENESS = {Lane.QUICK: 0, Lane.DEEP: 5}
"""How much lower than the server each lane's processes run (``os.nice``)."""


@lru_cache(maxsize=64)
def lane_of(level: str) -> Lane:
    """The lane of a bot level's decisions: DEEP for a search, else QUICK.

    >>> lane_of("greedy@0.1"), lane_of("strong@3")
    (<Lane.QUICK: 'quick'>, <Lane.DEEP: 'deep'>)
    """
    return Lane.DEEP if isinstance(make_bot(level, seed=0), StrongBot) else Lane.QUICK


@lru_cache(maxsize=64)
def at_once(level: str) -> bool:
    """Whether a level's decisions are made in the server's process, at once: a level
    that picks without thinking (``random``, a few microseconds), for which carrying the
    view to a worker and its answer back (pickled, piped: ~150 µs of the server's CPU)
    costs more than the decision.

    >>> at_once("random"), at_once("greedy"), at_once("strong@3")
    (True, False, False)
    """
    return isinstance(make_bot(level, seed=0), RandomBot)


def lane_sizes(processes: int | None = None, quick: int | None = None) -> dict[Lane, int]:
    """Processes per lane out of ``processes`` (None: ``os.cpu_count()``), ``quick`` of
    them (None: a quarter) QUICK; each lane has at least one.

    >>> [(s[Lane.QUICK], s[Lane.DEEP]) for s in (lane_sizes(1), lane_sizes(2), lane_sizes(8))]
    [(1, 1), (1, 1), (2, 6)]
    """
    total = processes if processes is not None else os.cpu_count() or 1
    fast = max(1, quick if quick is not None else total // 4)
    return {Lane.QUICK: fast, Lane.DEEP: max(1, total - fast)}


class FairQueue(Generic[J]):
    """Pending jobs, popped round-robin by creator, then by table, then first in first out.

    Each creator (and each table within it) keeps its place in the rotation while it has
    jobs waiting; one that runs out leaves, and joins at the end when it asks again.
    """

    def __init__(self) -> None:
        # dicts keep insertion order: the first key is the next to be served
        self._creators: dict[str | None, dict[str, deque[J]]] = {}
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def push(self, owner: Owner, job: J) -> None:
        """Queue ``job`` behind the table's other jobs."""
        tables = self._creators.setdefault(owner.creator, {})
        tables.setdefault(owner.table, deque()).append(job)
        self._size += 1

    def pop(self) -> J:
        """The next job in the fair order (IndexError when none waits)."""
        if not self._creators:
            raise IndexError("pop from an empty FairQueue")
        creator = next(iter(self._creators))
        tables = self._creators.pop(creator)
        table = next(iter(tables))
        jobs = tables.pop(table)
        job = jobs.popleft()
        self._size -= 1
        if jobs:
            tables[table] = jobs  # the table goes to the end of its creator's rotation
        if tables:
            self._creators[creator] = tables  # and the creator to the end of the lane's
        return job

    def discard(self, owner: Owner, job: J) -> bool:
        """Drop ``job`` if it still waits; whether it did."""
        tables = self._creators.get(owner.creator, {})
        jobs = tables.get(owner.table)
        if jobs is None or job not in jobs:
            return False
        jobs.remove(job)
        self._size -= 1
        if not jobs:
            del tables[owner.table]
            if not tables:
                del self._creators[owner.creator]
        return True
