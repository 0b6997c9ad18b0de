"""Reviews of finished games (docs/protocol.md §3.12): every decision of one seat rated
by the strong search (:mod:`remikit.review`) with a short reason, worked out in the
background and polled.

A review is worked in steps: its decisions are counted (:func:`prepare`), then rated a
few at a time (:func:`rate_decisions`), so its progress moves while it runs. Both are
module-level functions of picklable arguments with picklable results: the injected
``run`` may carry them to another process (by default one daemon thread runs them, so
the bots' threads and the event loop keep the tables going). One step runs at a time;
the clients with reviews waiting take turns, a step each, and each client's reviews go
in the order asked. Each client, each table and the server may have only so many
reviews under way or waiting (``Settings.reviews_per_client``, ``reviews_per_table``,
``reviews_waiting``); the same review asked again is the one already made or under
way. Finished reviews are kept in memory, the oldest dropped beyond
``Settings.reviews_kept``.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

from remikit.actions import Play
from remikit.i18n import N_
from remikit.review import Review, Reviewed, moments, rate, verdict
from remikit.review.game import decision_seed, sims_for
from remikit.review.reasons import Reason, reasons
from remikit.server.pool import DaemonPool
from remikit.server.problems import Problem
from remikit.server.serialize import play_json
from remikit.server.settings import Settings
from remikit.server.tables.build import build_game
from remikit.server.tables.registry import Tables
from remikit.storage import StoredTable
from remikit.variants import find_playable

log = logging.getLogger("remikit.server")

T = TypeVar("T")

REVIEW_SEED = 0
"""Every review of the server uses this seed: the same game and seat, the same review."""
CHUNK = 4
"""Decisions rated in one step."""
RETRY_AFTER = {"Retry-After": "10"}
"""Seconds a refused review is asked to wait: about what a review's steps take."""


class Runner(Protocol):
    """Runs ``fn(*args)`` away from the event loop (a thread, a process) and gives its
    result."""

    def __call__(self, fn: Callable[..., T], /, *args: Any) -> Awaitable[T]: ...


def thread_runner(pool: DaemonPool) -> Runner:
    """A runner on ``pool``'s threads."""

    async def run(fn: Callable[..., T], /, *args: Any) -> T:
        return await asyncio.wrap_future(pool.submit(fn, *args))

    return run


# -- the work, callable in any process ---------------------------------------------------


@dataclass(frozen=True)
class Prepared:
    """A game to review: its record, variant, the rollouts a decision gets and how many
    decisions the seat has."""

    record: dict[str, Any]
    variant: str
    sims: int
    total: int


@dataclass(frozen=True)
class Decision:
    """A rated decision with what the server adds: its replay step and reasons."""

    reviewed: Reviewed
    step: int  # the replay step whose action it is (actions[step - 1])
    why: tuple[Reason, ...]


def prepare(stored: StoredTable, seat: int, budget: float) -> Prepared:
    """The record of a finished game and the number of ``seat``'s decisions in it."""
    record = build_game(stored).record()
    variant = find_playable(str(record["variant"])).name
    return Prepared(record, variant, sims_for(variant, budget), len(moments(record, seat)))


def rate_decisions(
    record: dict[str, Any], seat: int, sims: int, seed: int, start: int, stop: int
) -> list[Decision]:
    """``seat``'s decisions ``start`` to ``stop`` (as :func:`remikit.review.review` rates
    them, with ``sims`` rollouts and seed ``seed``), each with its step and reasons."""
    marks = find_playable(str(record["variant"])).review_marks
    hands = [list(hand["actions"]) for hand in record["hands"]]
    starts = [sum(len(h) for h in hands[:i]) for i in range(len(hands))]
    found: list[Decision] = []
    for moment in moments(record, seat)[start:stop]:
        rating = rate(moment.view, moment.taken, sims=sims, seed=decision_seed(seed, moment))
        actions, turn = hands[moment.deal - 1], moment.turn
        following = Play.parse(actions[turn + 1]) if turn + 1 < len(actions) else None
        reviewed = Reviewed(
            moment.index,
            moment.deal,
            turn,
            str(moment.view.phase),
            rating,
            verdict(rating, marks),
        )
        why = tuple(reasons(moment.view, rating, following))
        found.append(Decision(reviewed, starts[moment.deal - 1] + turn + 1, why))
    return found


# -- the service -------------------------------------------------------------------------


@dataclass
class Job:
    """One seat's review: ``running`` (waiting or under way; ``total`` is None until its
    decisions are counted), ``done`` or ``failed``."""

    table_id: str
    seat: int
    client: str | None = None  # who asked (remikit.server.limits.client_key)
    status: Literal["running", "done", "failed"] = "running"
    done: int = 0
    total: int | None = None
    stored: StoredTable | None = None  # the game, while the review runs
    prepared: Prepared | None = None  # once counted, while the review runs
    decisions: list[Decision] = field(default_factory=list)
    result: Review | None = None

    def as_json(self, lang: str, budget: float) -> dict[str, Any]:
        out: dict[str, Any] = {
            "table_id": self.table_id,
            "seat": self.seat,
            "status": self.status,
            "done": self.done,
            "total": self.total,
            "budget": budget,
        }
        if self.status == "failed":
            out["error"] = Problem("review_failed", N_("server.review_failed")).json(lang)
        if self.result is not None:
            found = self.result.as_json()
            for decision, made in zip(found["decisions"], self.decisions, strict=True):
                decision["step"] = made.step
                decision["best_play"] = play_json(Play(self.seat, made.reviewed.rating.best))
                decision["reasons"] = [r.as_json() | {"text": r.text(lang)} for r in made.why]
            out["review"] = found
        return out


class Reviews:
    """The server's reviews: started, waiting, under way and kept. ``run`` runs their
    steps (by default on a daemon thread of its own)."""

    def __init__(self, settings: Settings, run: Runner | None = None) -> None:
        self.budget = settings.review_budget
        self.kept = settings.reviews_kept
        self.waiting = settings.reviews_waiting
        self.per_client = settings.reviews_per_client
        self.per_table = settings.reviews_per_table
        self.jobs: OrderedDict[tuple[str, int], Job] = OrderedDict()
        self.queues: OrderedDict[str | None, deque[Job]] = OrderedDict()
        """Per client, its reviews not finished, in the order asked; the clients in the
        order of their turns."""
        self.pool: DaemonPool | None = None
        if run is None:
            self.pool = DaemonPool(1, name="remikit-review")
            run = thread_runner(self.pool)
        self.run = run
        self.wake = asyncio.Event()
        self.worker: asyncio.Task[None] | None = None

    def get(self, table_id: str, seat: int) -> Job:
        """The review of ``seat`` in ``table_id``; else the problem ``no_review``."""
        job = self.jobs.get((table_id, seat))
        if job is None:
            raise Problem("no_review", N_("server.no_review"), status=404, seat=seat + 1)
        return job

    def start(self, stored: StoredTable, seat: int, client: str | None = None) -> tuple[Job, bool]:
        """The review of ``seat`` in ``stored`` and whether it was asked now (a failed
        one is asked again), for ``client``; else the problem ``client_reviews``,
        ``table_reviews`` (429) or ``reviews_busy`` (503), with ``Retry-After``."""
        key = (stored.id, seat)
        job = self.jobs.get(key)
        if job is not None and job.status != "failed":
            return job, False
        self._check(stored.id, client)
        job = Job(stored.id, seat, client, stored=stored)
        self.jobs[key] = job
        self.jobs.move_to_end(key)
        self._trim()
        self.queues.setdefault(client, deque()).append(job)
        if self.worker is None or self.worker.done():
            self.worker = asyncio.get_running_loop().create_task(self._serve())
        self.wake.set()
        return job, True

    def _check(self, table_id: str, client: str | None) -> None:
        """Whether one more review may wait: per client (one whose address is known),
        per table and on the server."""
        under_way = [j for j in self.jobs.values() if j.status == "running"]
        if client is not None and sum(j.client == client for j in under_way) >= self.per_client:
            raise Problem(
                "client_reviews",
                N_("server.client_reviews"),
                status=429,
                headers=RETRY_AFTER,
                max=self.per_client,
            )
        if sum(j.table_id == table_id for j in under_way) >= self.per_table:
            raise Problem(
                "table_reviews",
                N_("server.table_reviews"),
                status=429,
                headers=RETRY_AFTER,
                max=self.per_table,
            )
        if len(under_way) >= self.waiting:
            raise Problem(
                "reviews_busy", N_("server.reviews_busy"), status=503, headers=RETRY_AFTER
            )

    def _trim(self) -> None:
        """Drop the oldest finished reviews beyond the number kept."""
        for key in [k for k, j in self.jobs.items() if j.status != "running"]:
            if len(self.jobs) <= self.kept:
                break
            del self.jobs[key]

    async def _serve(self) -> None:
        """Work the reviews, a step at a time, the clients in turn."""
        while True:
            if not self.queues:
                self.wake.clear()
                await self.wake.wait()
                continue
            client = next(iter(self.queues))
            self.queues.move_to_end(client)  # the next step is the next client's
            job = self.queues[client][0]
            await self._step(job)
            if job.status != "running":
                queue = self.queues[client]
                queue.popleft()
                if not queue:
                    del self.queues[client]

    async def _step(self, job: Job) -> None:
        """Count ``job``'s decisions, or rate the next few of them."""
        try:
            if job.prepared is None:
                assert job.stored is not None
                job.prepared = await self.run(prepare, job.stored, job.seat, self.budget)
                job.total = job.prepared.total
            else:
                p, start = job.prepared, len(job.decisions)
                job.decisions += await self.run(
                    rate_decisions, p.record, job.seat, p.sims, REVIEW_SEED, start, start + CHUNK
                )
                job.done = len(job.decisions)
            if job.done == job.total:
                p, made = job.prepared, tuple(d.reviewed for d in job.decisions)
                job.result = Review(p.variant, job.seat, p.sims, REVIEW_SEED, made)
                job.status = "done"
        except Exception:
            log.exception("table %s: the review of seat %d failed", job.table_id, job.seat)
            job.status = "failed"
        if job.status != "running":  # what it was worked from is needed no more
            job.stored = job.prepared = None

    def close(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)


async def finished_game(hub: Tables, table_id: str) -> StoredTable:
    """The stored table of a finished game; else ``unknown_table``, ``not_finished``, or
    ``held_back`` while its secrets are held back (:attr:`Tables.held`)."""
    stored = await hub.stored(table_id)
    if stored.finished_at is None:
        raise Problem("not_finished", "server.not_finished", status=409, table=stored.id)
    if stored.id in hub.held:
        raise Problem("held_back", "server.held_back", status=409, table=stored.id)
    return stored
