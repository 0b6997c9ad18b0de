"""The lobby and the tables (docs/protocol.md §3.2–§3.5, §10): a page of the lobby, a
new table, a table's links and QR code, taking a seat, moving one to another device,
replacing an away seat, and the rematch."""

from __future__ import annotations

import json
import secrets
from typing import Annotated, Any

from fastapi import Body, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import Response
from fastapi.routing import APIRouter

from remikit.i18n import LANGUAGES
from remikit.server.guard import MAX_INT
from remikit.server.http.deps import Client, HubDep, Lang, SettingsDep
from remikit.server.http.requests import (
    ClaimRequest,
    CreateTableRequest,
    JoinRequest,
    RematchRequest,
    ReplaceRequest,
    TokenRequest,
)
from remikit.server.problems import Problem, pick_lang
from remikit.server.share import qr_svg, table_links
from remikit.server.tables import seat_changes
from remikit.server.tables.build import playable_variant
from remikit.server.tables.seats import hash_token
from remikit.server.transport.messages import fairness_json, lobby_json, table_info

LOBBY_PAGE_MAX = 100
LANG_PATTERN = f"^({'|'.join(LANGUAGES)})$"

router = APIRouter(prefix="/api/tables")


@router.get("")
async def list_tables(
    hub: HubDep,
    limit: Annotated[int, Query(ge=1, le=LOBBY_PAGE_MAX)] = 20,
    offset: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
    variant: Annotated[str | None, Query(max_length=40)] = None,
    free: Annotated[bool | None, Query(alias="open")] = None,
    table_lang: Annotated[str | None, Query(pattern=LANG_PATTERN)] = None,
) -> Response:
    """A page of the lobby, newest first, with how many tables match (§3.2)."""
    name = None if variant is None else playable_variant(variant).name
    page = lobby_json(
        hub.lobby, limit=limit, offset=offset, variant=name, free=free, lang=table_lang
    )
    return Response(json.dumps(page, separators=(",", ":")), media_type="application/json")


@router.post("", status_code=201)
async def create_table(
    request: Request,
    hub: HubDep,
    settings: SettingsDep,
    lang: Lang,
    client: Client,
    body: Annotated[CreateTableRequest, Body()],
) -> dict[str, Any]:
    seats = None if body.seats is None else [s.model_dump() for s in body.seats]
    owner = secrets.token_urlsafe(32)
    table = await hub.create(
        variant=body.variant,
        options=body.options,
        seats=seats,
        title=body.title,
        settings=body.settings,
        lang=pick_lang(body.lang) if body.lang else lang,
        owner_hash=hash_token(owner),
        client=client,
    )
    links = table_links(request, settings, table.id)
    return {"table": table_info(table), **links, "owner_token": owner}


@router.get("/{table_id}")
async def get_table(
    request: Request, hub: HubDep, settings: SettingsDep, table_id: str
) -> dict[str, Any]:
    table = await hub.get(table_id, keep=False)
    links = table_links(request, settings, table.id)
    return {"table": table_info(table), "fairness": fairness_json(table, None), **links}


@router.get("/{table_id}/qr.svg")
async def table_qr(request: Request, hub: HubDep, settings: SettingsDep, table_id: str) -> Response:
    """The QR code of the table's shared link."""
    table = await hub.get(table_id, keep=False)
    share_url = table_links(request, settings, table.id)["share_url"]
    return Response(qr_svg(share_url), media_type="image/svg+xml")


@router.post("/{table_id}/join")
async def join_table(
    request: Request,
    hub: HubDep,
    settings: SettingsDep,
    lang: Lang,
    client: Client,
    table_id: str,
    body: Annotated[JoinRequest, Body()],
) -> dict[str, Any]:
    """A seat for a person; with a profile's token, the profile's seat (``bad_profile``,
    401, for a token of no profile)."""
    profile = None
    if body.profile_token is not None:
        profile = await request.app.state.profiles.resolve(body.profile_token)
        if profile is None:
            raise Problem("bad_profile", "profile.need_profile", status=401)
    table, seat, token = await hub.join(
        table_id,
        name=body.name,
        seat=body.seat,
        lang=pick_lang(body.lang) if body.lang else lang,
        token=body.token,
        client=client,
        entropy=bytes.fromhex(body.entropy) if body.entropy else None,
        profile=profile,
    )
    links = table_links(request, settings, table.id)
    return {"table": table_info(table), "seat": seat, "token": token, **links}


@router.post("/{table_id}/move")
async def offer_move(
    request: Request,
    hub: HubDep,
    settings: SettingsDep,
    table_id: str,
    body: Annotated[TokenRequest, Body()],
) -> dict[str, Any]:
    """A one-time link that moves the seat of ``token`` to another device."""
    table = await hub.get(table_id)
    code = await seat_changes.offer_move(table, body.token)
    links = table_links(request, settings, table.id)
    return {
        "code": code,
        "link": f"{links['share_url']}#move={code}",
        "expires_in": round(seat_changes.MOVE_CODE_SECONDS),
    }


@router.post("/{table_id}/claim")
async def claim_move(
    request: Request,
    hub: HubDep,
    settings: SettingsDep,
    table_id: str,
    body: Annotated[ClaimRequest, Body()],
) -> dict[str, Any]:
    """Take the seat a move link was made for: its new token."""
    table = await hub.get(table_id)
    seat, token = await seat_changes.claim_move(table, body.code)
    links = table_links(request, settings, table.id)
    return {"table": table_info(table), "seat": seat, "token": token, **links}


@router.post("/{table_id}/seats/{seat}")
async def replace_seat(
    hub: HubDep,
    table_id: str,
    seat: Annotated[int, PathParam(ge=0, le=15)],
    body: Annotated[ReplaceRequest, Body()],
) -> dict[str, Any]:
    """The creator replaces an away seat by a bot or a new person from the next deal."""
    table = await hub.get(table_id)
    seat_changes.check_owner(table, body.owner_token)
    level = None
    if body.kind == "bot":
        level = (body.level or table.settings.stand_in).strip().lower()
        hub.check_level(table.variant, level)
    await seat_changes.replace_seat(table, seat, body.kind, level)
    return {"table": table_info(table)}


@router.post("/{table_id}/rematch")
async def rematch(
    request: Request,
    hub: HubDep,
    settings: SettingsDep,
    table_id: str,
    body: Annotated[RematchRequest, Body()],
) -> dict[str, Any]:
    """The same seats and options again, at a new table (made once; asked again, the
    same one): every person's token works there too."""
    entropy = bytes.fromhex(body.entropy) if body.entropy else None
    table = await hub.rematch(table_id, body.token, entropy)
    return {"table": table_info(table), **table_links(request, settings, table.id)}
