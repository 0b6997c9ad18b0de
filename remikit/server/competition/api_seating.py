"""The competition API's routes for changing a round before it starts and for the
pairings to avoid (docs/competition.md §8): re-pair a round, swap two players (or see
the swap's quality first), and the clubs and named pairs to keep apart."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, Request
from pydantic import BaseModel, Field

from remikit.server.competition.answers import need, round_answer, service
from remikit.server.competition.reseat import avoid_json

router = APIRouter(prefix="/api/competitions")

Auth = Annotated[str | None, Header()]
PlayerId = Annotated[str, Field(min_length=1, max_length=16)]


class RepairRequest(BaseModel):
    online_tables: list[Annotated[int, Field(ge=1, le=10_000)]] | None = Field(
        default=None, max_length=1000
    )


class SwapRequest(BaseModel):
    players: list[PlayerId] = Field(min_length=2, max_length=2)


class AvoidRequest(BaseModel):
    clubs_every_round: bool = False
    pairs: list[list[PlayerId]] = Field(default_factory=list, max_length=1000)


@router.post("/{cid}/rounds/{number}/repair")
async def repair(
    request: Request,
    cid: str,
    number: int,
    body: Annotated[RepairRequest, Body()],
    authorization: Auth = None,
) -> Any:
    """A new seating of a round not started; the quality before and after."""
    who = await need(request, cid, authorization, organiser=True)
    before, after = await service(request).reseating.repair(cid, who, number, body.online_tables)
    snap = await service(request).snapshot(cid)
    return {
        "round": round_answer(request, snap, number, public=False),
        "before": before,
        "after": after,
    }


async def swapped(
    request: Request, cid: str, number: int, body: SwapRequest, auth: str | None, store: bool
) -> Any:
    who = await need(request, cid, auth, organiser=True)
    swap = await service(request).reseating.swap(cid, who, number, body.players, store=store)
    out: dict[str, Any] = {"before": swap.before, "after": swap.after}
    if store:
        snap = await service(request).snapshot(cid)
        out["round"] = round_answer(request, snap, number, public=False)
    else:
        out["tables"] = [{"number": n, "players": p} for n, p in sorted(swap.tables.items())]
        out["byes"] = swap.byes
    return out


@router.post("/{cid}/rounds/{number}/swap")
async def swap(
    request: Request,
    cid: str,
    number: int,
    body: Annotated[SwapRequest, Body()],
    authorization: Auth = None,
) -> Any:
    """Two players exchange their places in a round not started."""
    return await swapped(request, cid, number, body, authorization, True)


@router.post("/{cid}/rounds/{number}/swap/preview")
async def swap_preview(
    request: Request,
    cid: str,
    number: int,
    body: Annotated[SwapRequest, Body()],
    authorization: Auth = None,
) -> Any:
    """The swap's tables and quality, nothing stored."""
    return await swapped(request, cid, number, body, authorization, False)


@router.get("/{cid}/avoid")
async def get_avoid(request: Request, cid: str, authorization: Auth = None) -> Any:
    await need(request, cid, authorization)
    snap = await service(request).snapshot(cid)
    return {"avoid": avoid_json(snap.competition)}


@router.post("/{cid}/avoid")
async def set_avoid(
    request: Request, cid: str, body: Annotated[AvoidRequest, Body()], authorization: Auth = None
) -> Any:
    who = await need(request, cid, authorization, organiser=True)
    chosen = await service(request).reseating.set_avoid(
        cid, who, body.clubs_every_round, body.pairs
    )
    return {"avoid": chosen}
