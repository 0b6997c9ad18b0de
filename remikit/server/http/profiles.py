"""The profiles' routes (docs/protocol.md §3.14): a profile made on a first visit, its
name, password and sign-in on another device, deleting it, blocking another; a profile's
public statistics, the leaderboard of a variant, and their pages.

A device sends its profile's token in the ``X-Profile-Token`` header."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, Query
from fastapi import Path as PathParam
from fastapi.responses import FileResponse
from starlette.requests import HTTPConnection

from remikit.server.http.deps import Client, Lang
from remikit.server.http.pages import STATIC
from remikit.server.http.requests import (
    NameRequest,
    NewProfileRequest,
    PasswordRequest,
    SignInRequest,
)
from remikit.server.profiles.service import Profiles

router = APIRouter()
PROFILE_ID = r"^[A-Za-z0-9]{1,16}$"


Token = Annotated[str | None, Header(alias="X-Profile-Token", max_length=100)]
ProfileId = Annotated[str, PathParam(pattern=PROFILE_ID)]


def _profiles(conn: HTTPConnection) -> Profiles:
    profiles: Profiles = conn.app.state.profiles
    return profiles


@router.post("/api/profiles", status_code=201)
async def make_profile(
    conn: HTTPConnection, lang: Lang, client: Client, body: Annotated[NewProfileRequest, Body()]
) -> dict[str, Any]:
    """A new profile, silently on a first visit: its token, kept by the browser."""
    profiles = _profiles(conn)
    _, token = await profiles.create(body.name, lang, client)
    return {"profile": await profiles.own(token), "token": token}


@router.get("/api/profiles/me")
async def my_profile(conn: HTTPConnection, token: Token = None) -> dict[str, Any]:
    return {"profile": await _profiles(conn).own(token)}


@router.put("/api/profiles/me/name")
async def rename(
    conn: HTTPConnection, body: Annotated[NameRequest, Body()], token: Token = None
) -> dict[str, Any]:
    return {"profile": await _profiles(conn).rename(token, body.name)}


@router.put("/api/profiles/me/password")
async def set_password(
    conn: HTTPConnection, body: Annotated[PasswordRequest, Body()], token: Token = None
) -> dict[str, Any]:
    return {"profile": await _profiles(conn).set_password(token, body.password)}


@router.delete("/api/profiles/me")
async def delete_profile(conn: HTTPConnection, token: Token = None) -> dict[str, Any]:
    await _profiles(conn).delete(token)
    return {"deleted": True}


@router.post("/api/profiles/sign-in")
async def sign_in(conn: HTTPConnection, body: Annotated[SignInRequest, Body()]) -> dict[str, Any]:
    """A new token of a profile with a password, for another device."""
    profiles = _profiles(conn)
    token = await profiles.sign_in(body.id, body.password)
    return {"profile": await profiles.own(token), "token": token}


@router.post("/api/profiles/me/blocks/{other}")
async def block(conn: HTTPConnection, other: ProfileId, token: Token = None) -> dict[str, Any]:
    return {"profile": await _profiles(conn).block(token, other, on=True)}


@router.delete("/api/profiles/me/blocks/{other}")
async def unblock(conn: HTTPConnection, other: ProfileId, token: Token = None) -> dict[str, Any]:
    return {"profile": await _profiles(conn).block(token, other, on=False)}


@router.get("/api/profiles/{profile_id}")
async def public_profile(conn: HTTPConnection, profile_id: ProfileId) -> dict[str, Any]:
    """A profile's name, statistics per variant and games (public)."""
    return {"profile": await _profiles(conn).public(profile_id)}


@router.get("/api/leaderboard")
async def leaderboard(
    conn: HTTPConnection, variant: Annotated[str, Query(max_length=40)]
) -> dict[str, Any]:
    """A variant's rated profiles and bot levels on one scale, best first."""
    profiles = _profiles(conn)
    name, entries = await profiles.leaderboard(variant)
    return {
        "variant": name,
        "provisional_games": profiles.settings.provisional_games,
        "entries": entries,
    }


@router.get("/profile/{profile_id}", include_in_schema=False)
async def profile_page(profile_id: str) -> FileResponse:
    return FileResponse(STATIC / "profile.html")


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_page() -> FileResponse:
    return FileResponse(STATIC / "leaderboard.html")
