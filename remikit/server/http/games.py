"""Finished games (docs/protocol.md §3.6–§3.9): the list, one game, its record to
download, and a replay step by step, each seat's view or the public one."""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from remikit.actions import Play, parse_seat_action
from remikit.engine import Game
from remikit.records import MAX_NAME
from remikit.server.guard import MAX_INT
from remikit.server.http.deps import HubDep
from remikit.server.problems import Problem
from remikit.server.reviews import finished_game
from remikit.server.serialize import play_json, view_json
from remikit.server.share import root_path
from remikit.server.tables.build import build_game, variant_client
from remikit.server.tables.fair_deals import record_with_fairness
from remikit.storage import StoredTable

router = APIRouter(prefix="/api/games")


@router.get("")
async def list_games(
    request: Request,
    hub: HubDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
) -> dict[str, Any]:
    games = await asyncio.to_thread(hub.store.finished, limit=limit, offset=offset)
    root = root_path(request)
    return {"games": [game_summary(g, root) for g in games], "limit": limit, "offset": offset}


@router.get("/{table_id}")
async def get_game(request: Request, hub: HubDep, table_id: str) -> dict[str, Any]:
    stored = await finished_game(hub, table_id)
    return {
        "game": game_summary(stored, root_path(request))
        | {"actions": list(stored.actions), "client": variant_client(stored.variant)}
    }


@router.get("/{table_id}/record")
async def get_record(hub: HubDep, table_id: str) -> Response:
    stored = await finished_game(hub, table_id)
    game = await asyncio.to_thread(build_game, stored)
    names = [str(s.get("name") or f"p{i}")[:MAX_NAME] for i, s in enumerate(stored.seats)]
    record = record_with_fairness(game.record(), stored) | {"players": names}
    text = json.dumps(record, indent=1)
    filename = f"remikit-{stored.variant}-{stored.id}.record.json"
    return Response(
        text,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@router.get("/{table_id}/replay")
async def get_replay(
    hub: HubDep,
    table_id: str,
    step: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
    seat: Annotated[int | None, Query(ge=0, le=MAX_INT)] = None,
) -> dict[str, Any]:
    stored = await finished_game(hub, table_id)
    steps = len(stored.actions)
    if step > steps:
        raise Problem("bad_step", "server.bad_step", step=step, steps=steps)
    if seat is not None and seat >= len(stored.seats):
        raise Problem("bad_seat", "server.no_seat", seat=seat + 1)
    game: Game = await asyncio.to_thread(build_game, stored, step)
    return {
        "table_id": stored.id,
        "step": step,
        "steps": steps,
        "action": stored.actions[step - 1] if step else None,
        "play": play_json(Play(*parse_seat_action(stored.actions[step - 1]))) if step else None,
        "seats": public_seats(stored),
        "view": view_json(game.view(seat)),
    }


def public_seats(stored: StoredTable) -> list[dict[str, Any]]:
    return [
        {
            "seat": i,
            "kind": s.get("kind"),
            "name": s.get("name"),
            "level": s.get("level"),
            "profile": s.get("profile"),
        }
        for i, s in enumerate(stored.seats)
    ]


def game_summary(stored: StoredTable, root: str) -> dict[str, Any]:
    return {
        "id": stored.id,
        "variant": stored.variant,
        "title": stored.title,
        "options": stored.options,
        "seats": public_seats(stored),
        "created_at": stored.created_at.isoformat(),
        "finished_at": stored.finished_at.isoformat() if stored.finished_at else None,
        "result": stored.result,
        "action_count": stored.action_count,
        "record": f"{root}/api/games/{stored.id}/record",
        "replay": f"{root}/api/games/{stored.id}/replay",
    }
