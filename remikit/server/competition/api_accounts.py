"""The competition API's routes of accounts (docs/competition.md §5.2): logging out, the
organiser's referee accounts, and unlocking an account or a player's code that failed
attempts locked."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, Request, Response

from remikit.server.competition.answers import need, one_player, service
from remikit.server.competition.bodies import AccountRequest, clean

router = APIRouter(prefix="/api/competitions")

Auth = Annotated[str | None, Header()]


@router.post("/{cid}/logout", status_code=204)
async def logout(request: Request, cid: str, authorization: Auth = None) -> Response:
    """End the login of the token: it is refused from now on."""
    who = await need(request, cid, authorization)
    await service(request).logins.logout(cid, who)
    return Response(status_code=204)


@router.get("/{cid}/accounts")
async def accounts(request: Request, cid: str, authorization: Auth = None) -> Any:
    await need(request, cid, authorization, organiser=True)
    return {"accounts": await service(request).accounts.listed(cid)}


@router.post("/{cid}/accounts", status_code=201)
async def create_account(
    request: Request, cid: str, body: Annotated[AccountRequest, Body()], authorization: Auth = None
) -> Any:
    """A referee's account, made by the organiser."""
    who = await need(request, cid, authorization, organiser=True)
    name = clean(body.name, 40, required=True)
    assert name is not None
    made = await service(request).accounts.create(cid, who, name, body.password)
    return {"account": made}


@router.post("/{cid}/accounts/{name}/unlock")
async def unlock_account(
    request: Request, cid: str, name: str, authorization: Auth = None
) -> dict[str, Any]:
    who = await need(request, cid, authorization, organiser=True)
    return {"account": await service(request).accounts.unlock_account(cid, who, name)}


@router.post("/{cid}/players/{pid}/unlock")
async def unlock_player(
    request: Request, cid: str, pid: str, authorization: Auth = None
) -> dict[str, Any]:
    """Open a player's code that wrong codes locked."""
    who = await need(request, cid, authorization, organiser=True)
    player = await service(request).accounts.unlock_player(cid, who, pid)
    return {"player": await one_player(request, cid, player, code=True)}
