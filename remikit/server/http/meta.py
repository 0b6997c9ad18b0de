"""What the server says of itself: whether it is ready, the browser's messages, the
variants and their options, a variant's unshuffled deck, and (tests only) its clock."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from fastapi.responses import JSONResponse, Response

from remikit.i18n import messages_json
from remikit.server.clock import ManualClock
from remikit.server.http.deps import HubDep, Lang
from remikit.server.http.requests import ClockRequest, DeckRequest
from remikit.server.tables.build import playable_variant, table_options, variants_json

router = APIRouter()


@router.get("/healthz")
async def healthz(hub: HubDep) -> JSONResponse:
    ready = hub.ready
    return JSONResponse({"ok": ready}, status_code=200 if ready else 503)


@cache
def catalogue(lang: str) -> str:
    """The browser's catalogue: the compiled one the server speaks, read once."""
    return messages_json(lang)


@router.get("/api/messages")
async def messages(lang: Lang) -> Response:
    """Every message in the language asked for (``?lang=``), with its plural rule."""
    return Response(
        catalogue(lang), media_type="application/json", headers={"Cache-Control": "no-cache"}
    )


@router.get("/api/variants")
async def list_variants() -> dict[str, Any]:
    return {"variants": variants_json()}


@router.post("/api/deck")
async def unshuffled_deck(body: Annotated[DeckRequest, Body()]) -> dict[str, Any]:
    """The unshuffled deck and the seats of a game of ``variant`` with ``options``, as a
    record names them: what the browser's record verifier shuffles (§3.13)."""
    info = playable_variant(body.variant)
    game = info.game_class()(table_options(info, body.options), auto_deal=False)
    deck = [str(card) for card in game.full_deck()]
    return {"variant": info.name, "players": game.players, "deck": deck}


clock_router = APIRouter()
"""Included only by a server with a manual clock (``remi serve --manual-clock``)."""


@clock_router.post("/api/clock", include_in_schema=False)
async def advance_clock(
    request: Request, body: Annotated[ClockRequest, Body()]
) -> dict[str, float]:
    """Move a manual clock on (``remi serve --manual-clock``, for tests only)."""
    manual: ManualClock = request.app.state.manual_clock
    manual.advance(body.seconds)
    return {"now": manual.now()}
