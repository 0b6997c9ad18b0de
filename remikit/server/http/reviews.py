"""The reviews' routes (docs/protocol.md §3.12): start the review of a seat of a finished
game, and poll it (the work is :mod:`remikit.server.reviews`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from remikit.server.problems import Problem, pick_lang
from remikit.server.reviews import Reviews, finished_game
from remikit.server.tables.registry import Tables
from remikit.storage import StoredTable

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
    hub: Tables = request.app.state.hub
    client = hub.limits.client(request.client.host if request.client else None)
    reviews: Reviews = request.app.state.reviews
    job, started = reviews.start(stored, body.seat, client)
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
    return {"review": job.as_json(_lang(request), reviews.budget)}
