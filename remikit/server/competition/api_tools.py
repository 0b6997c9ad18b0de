"""The organiser's tools in the competition API (docs/competition.md §8): players from a
CSV file, many checked in at once, the export and import of a whole competition, the
archive, and deleting a competition. The work is done in :mod:`.tools`."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from remikit.competition.player_csv import CsvRefused, read_players
from remikit.i18n import t
from remikit.server.competition.answers import limited, need, service
from remikit.server.competition.views import competition_json, links
from remikit.server.problems import Problem, pick_lang
from remikit.server.share import root_path
from remikit.server.tables.seats import hash_token
from remikit.storage.competition import CompetitionRow

router = APIRouter(prefix="/api/competitions")

Auth = Annotated[str | None, Header()]


class CsvRequest(BaseModel):
    csv: str = Field(max_length=1_000_000)
    check_in: bool = False


class CheckInRequest(BaseModel):
    players: list[Annotated[str, Field(max_length=16)]] | None = Field(
        default=None, max_length=5000
    )
    all: bool = False


class ArchiveRequest(BaseModel):
    archived: bool = True


class DeleteRequest(BaseModel):
    confirm: str = Field(max_length=200)


def lang_of(request: Request) -> str:
    return pick_lang(request.query_params.get("lang") or request.headers.get("accept-language"))


@router.get("")
async def listing(request: Request, archived: Annotated[bool, Query()] = False) -> dict[str, Any]:
    """The competitions of this server, newest first: those in the archive, or the
    others."""

    def rows(session: Session) -> list[CompetitionRow]:
        query = select(CompetitionRow).where(
            CompetitionRow.archived_at.is_not(None)
            if archived
            else CompetitionRow.archived_at.is_(None)
        )
        return list(session.scalars(query.order_by(CompetitionRow.date.desc())))

    found: list[CompetitionRow] = await service(request).read(rows)
    root = root_path(request)
    return {
        "competitions": [
            {
                "id": c.id,
                "name": c.name,
                "date": c.date,
                "venue": c.venue,
                "archived": c.archived_at is not None,
                "links": links(c.id, root),
            }
            for c in found
        ]
    }


@router.post("/import", status_code=201)
async def import_event(request: Request, body: Annotated[Any, Body()]) -> dict[str, Any]:
    """A competition exported from this or another server, under its own id unless that
    is taken; answers it and its organiser's token (its passwords are those exported)."""
    limited(request, "create")
    token = secrets.token_urlsafe(32)
    code, renamed = await service(request).tools.import_event(body, hash_token(token))
    snap = await service(request).snapshot(code)
    return {
        "competition": competition_json(snap, root_path(request)),
        "token": token,
        "new_id": renamed,
    }


@router.get("/{cid}/export")
async def export_event(request: Request, cid: str, authorization: Auth = None) -> JSONResponse:
    await need(request, cid, authorization, organiser=True)
    doc = await service(request).tools.export(cid)
    name = f"competition-{doc['competition']['id']}.json"
    return JSONResponse(doc, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.post("/{cid}/players/import", status_code=201, response_model=None)
async def import_players(
    request: Request, cid: str, body: Annotated[CsvRequest, Body()], authorization: Auth = None
) -> dict[str, Any] | JSONResponse:
    """Players from a CSV file; a file with any fault is refused whole (``bad_csv``),
    its error listing every line's fault."""
    who = await need(request, cid, authorization, organiser=True)
    snap = await service(request).snapshot(cid)
    registered = [(p.name, p.club) for p in snap.players.values()]
    try:
        players = read_players(body.csv, registered)
    except CsvRefused as refused:
        lang = lang_of(request)
        lines = [
            {"line": f.line, "code": f.code, "message": t(f.key, lang, **f.params)}
            for f in refused.faults
        ]
        problem = Problem("bad_csv", "competition.bad_csv", lines=len(lines))
        error = problem.json(lang) | {"lines": lines}
        return JSONResponse({"error": error}, status_code=400)
    rows = await service(request).tools.register(cid, who, players, check_in=body.check_in)
    return {
        "players": [{"id": p.id, "name": p.name, "club": p.club, "status": p.status} for p in rows]
    }


@router.post("/{cid}/players/check-in")
async def check_in_many(
    request: Request, cid: str, body: Annotated[CheckInRequest, Body()], authorization: Auth = None
) -> dict[str, Any]:
    """Check in the players named, or with ``all`` every registered player."""
    who = await need(request, cid, authorization)
    if body.all == (body.players is not None):
        raise Problem("bad_request", "competition.players_or_all", status=422)
    ids = await service(request).tools.check_in(cid, who, None if body.all else body.players)
    return {"checked_in": ids}


@router.post("/{cid}/archive")
async def archive(
    request: Request, cid: str, body: Annotated[ArchiveRequest, Body()], authorization: Auth = None
) -> dict[str, Any]:
    who = await need(request, cid, authorization, organiser=True)
    snap = await service(request).tools.set_archived(cid, who, body.archived)
    return {"competition": competition_json(snap, root_path(request))}


@router.post("/{cid}/delete")
async def delete(
    request: Request, cid: str, body: Annotated[DeleteRequest, Body()], authorization: Auth = None
) -> dict[str, Any]:
    """Delete the competition when ``confirm`` repeats its name."""
    who = await need(request, cid, authorization, organiser=True)
    return {"deleted": await service(request).tools.delete(cid, who, body.confirm)}
