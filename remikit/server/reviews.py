"""Reviews of finished games (docs/protocol.md §3.12): every decision of one seat rated
by the strong search (:mod:`remikit.review`) with a short reason, worked out in the
background one review at a time, and polled.

A review runs on one daemon thread of its own, so the bots' threads and the event loop
keep the tables going; the reviews asked meanwhile wait their turn. The same review
asked again is the one already made or under way. Finished reviews are kept in memory,
the oldest dropped beyond ``Settings.reviews_kept``.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from remikit.actions import Play
from remikit.i18n import N_
from remikit.review import Review, moments, review
from remikit.review.reasons import Reason, reasons
from remikit.server.pool import DaemonPool
from remikit.server.problems import Problem, pick_lang
from remikit.server.serialize import play_json
from remikit.server.settings import Settings
from remikit.server.tables.build import build_game
from remikit.server.tables.registry import Tables
from remikit.storage import StoredTable

log = logging.getLogger("remikit.server")

REVIEW_SEED = 0
"""Every review of the server uses this seed: the same game and seat, the same review."""


class Stopped(Exception):
    """The server stopped during a review."""


@dataclass
class Job:
    """One seat's review: ``running`` (``total`` is None until its decisions are
    counted), ``done`` or ``failed``. Its thread writes it; requests read it."""

    table_id: str
    seat: int
    status: Literal["running", "done", "failed"] = "running"
    done: int = 0
    total: int | None = None
    result: Review | None = None
    steps: list[int] = field(default_factory=list)  # per decision, its replay step
    why: list[list[Reason]] = field(default_factory=list)  # per decision, its reasons

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
            rated = zip(found["decisions"], self.result.decisions, strict=True)
            for (decision, made), step, why in zip(rated, self.steps, self.why, strict=True):
                decision["step"] = step
                decision["best_play"] = play_json(Play(self.seat, made.rating.best))
                decision["reasons"] = [r.as_json() | {"text": r.text(lang)} for r in why]
            out["review"] = found
        return out


class Reviews:
    """The server's reviews: started, under way and kept."""

    def __init__(self, settings: Settings) -> None:
        self.budget = settings.review_budget
        self.kept = settings.reviews_kept
        self.waiting = settings.reviews_waiting
        self.jobs: OrderedDict[tuple[str, int], Job] = OrderedDict()
        self.pool = DaemonPool(1, name="remikit-review")
        self.closed = False

    def get(self, table_id: str, seat: int) -> Job | None:
        return self.jobs.get((table_id, seat))

    def start(self, stored: StoredTable, seat: int) -> tuple[Job, bool]:
        """The review of ``seat`` in ``stored`` and whether it was started now (a failed
        one is started again); the problem ``reviews_busy`` while too many wait."""
        key = (stored.id, seat)
        job = self.jobs.get(key)
        if job is not None and job.status != "failed":
            return job, False
        if sum(j.status == "running" for j in self.jobs.values()) >= self.waiting:
            raise Problem(
                "reviews_busy",
                N_("server.reviews_busy"),
                status=503,
                headers={"Retry-After": "10"},
            )
        job = Job(stored.id, seat)
        self.jobs[key] = job
        self.jobs.move_to_end(key)
        self._trim()
        self.pool.submit(self._run, job, stored)
        return job, True

    def _trim(self) -> None:
        """Drop the oldest finished reviews beyond the number kept."""
        for key in [k for k, j in self.jobs.items() if j.status != "running"]:
            if len(self.jobs) <= self.kept:
                break
            del self.jobs[key]

    def _run(self, job: Job, stored: StoredTable) -> None:
        try:
            record = build_game(stored).record()
            found = moments(record, job.seat)
            job.total = len(found)

            def progress(done: int, total: int) -> None:
                if self.closed:  # the server stops: the review is worth nothing now
                    raise Stopped
                job.done, job.total = done, total

            result = review(
                record, job.seat, budget=self.budget, seed=REVIEW_SEED, on_decision=progress
            )
            hands = [list(hand["actions"]) for hand in record["hands"]]
            starts = [sum(len(h) for h in hands[:i]) for i in range(len(hands))]
            for moment, decision in zip(found, result.decisions, strict=True):
                actions = hands[decision.deal - 1]
                turn = decision.turn
                following = Play.parse(actions[turn + 1]) if turn + 1 < len(actions) else None
                job.why.append(reasons(moment.view, decision.rating, following))
                job.steps.append(starts[decision.deal - 1] + turn + 1)
            job.result = result
            job.status = "done"
        except Stopped:
            job.status = "failed"
        except Exception:
            log.exception("table %s: the review of seat %d failed", job.table_id, job.seat)
            job.status = "failed"

    def close(self) -> None:
        self.closed = True
        self.pool.shutdown(wait=False, cancel_futures=True)


async def finished_game(hub: Tables, table_id: str) -> StoredTable:
    """The stored table of a finished game; else ``unknown_table`` or ``not_finished``."""
    stored = await hub.stored(table_id)
    if stored.finished_at is None:
        raise Problem("not_finished", "server.not_finished", status=409, table=stored.id)
    return stored


router = APIRouter(prefix="/api/games")


class ReviewRequest(BaseModel):
    seat: int = Field(ge=0, le=15, strict=True)


def _lang(request: Request) -> str:
    return pick_lang(request.query_params.get("lang") or request.headers.get("accept-language"))


async def _seat_of(request: Request, table_id: str, seat: int) -> StoredTable:
    stored = await finished_game(request.app.state.hub, table_id)
    if seat >= len(stored.seats):
        raise Problem("bad_seat", "server.no_seat", seat=seat + 1)
    return stored


@router.post("/{table_id}/reviews")
async def start_review(
    request: Request, table_id: str, body: Annotated[ReviewRequest, Body()]
) -> JSONResponse:
    """Start the review of a seat (202), or answer with the one asked before (200)."""
    stored = await _seat_of(request, table_id, body.seat)
    reviews: Reviews = request.app.state.reviews
    job, started = reviews.start(stored, body.seat)
    return JSONResponse(
        {"review": job.as_json(_lang(request), reviews.budget)}, status_code=202 if started else 200
    )


@router.get("/{table_id}/reviews/{seat}")
async def get_review(
    request: Request, table_id: str, seat: Annotated[int, PathParam(ge=0, le=15)]
) -> dict[str, Any]:
    """Where the review of a seat is: ``running``, ``done`` with it, or ``failed``."""
    stored = await _seat_of(request, table_id, seat)
    reviews: Reviews = request.app.state.reviews
    job = reviews.get(stored.id, seat)
    if job is None:
        raise Problem("no_review", N_("server.no_review"), status=404, seat=seat + 1)
    return {"review": job.as_json(_lang(request), reviews.budget)}
