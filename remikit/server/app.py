"""The web table: HTTP JSON API, WebSocket play, and the pages (docs/protocol.md).

``create_app(settings)`` builds the FastAPI application; ``remi serve`` runs
it under uvicorn. The server is authoritative: a person's socket is bound to
one seat by that seat's token, every action carries the state id it was made
against, and every socket receives only its own seat's view.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Body, FastAPI, Query, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, StringConstraints

from remikit.actions import Play, parse_seat_action
from remikit.engine import Game
from remikit.i18n import LANGUAGES, messages_json
from remikit.server.bots.driver import BotDriver, InProcess
from remikit.server.bots.workers import Workers
from remikit.server.clock import Clock, ManualClock
from remikit.server.competition.api import router as competition_router
from remikit.server.competition.pages import router as competition_pages_router
from remikit.server.competition.service import Competitions
from remikit.server.guard import (
    MAX_INT,
    install_guard,
)
from remikit.server.http.reviews import router as reviews_router
from remikit.server.problems import Problem, pick_lang
from remikit.server.reviews import Reviews, finished_game
from remikit.server.rules_page import router as rules_router
from remikit.server.serialize import play_json, view_json
from remikit.server.settings import Settings
from remikit.server.share import qr_svg, root_path, table_links
from remikit.server.tables import seat_changes
from remikit.server.tables.build import (
    build_game,
    collection_paused,
    playable_variant,
    table_options,
    variant_client,
    variants_json,
)
from remikit.server.tables.fair_deals import record_with_fairness
from remikit.server.tables.registry import Tables
from remikit.server.tables.seats import hash_token
from remikit.server.transport.messages import fairness_json, table_info
from remikit.server.transport.socket import Transport
from remikit.server.transport.socket import router as socket_router
from remikit.storage import StoredTable

log = logging.getLogger("remikit.server")

STATIC = Path(__file__).resolve().parent / "static"


class SeatRequest(BaseModel):
    kind: Literal["person", "bot"]
    level: str | None = Field(default=None, max_length=40)


OptionName = Annotated[str, StringConstraints(max_length=40)]


class CreateTableRequest(BaseModel):
    variant: str = Field(max_length=40)
    options: dict[OptionName, Any] = Field(default_factory=dict, max_length=32)
    seats: list[SeatRequest] | None = Field(default=None, max_length=16)
    title: str | None = Field(default=None, max_length=200)
    settings: dict[str, Any] = Field(default_factory=dict)
    lang: str | None = Field(default=None, max_length=16)


class DeckRequest(BaseModel):
    variant: str = Field(max_length=40)
    options: dict[OptionName, Any] = Field(default_factory=dict, max_length=32)


ENTROPY = r"^[0-9a-f]{64}$"
"""A contribution to a deal: 32 bytes in lowercase hex."""


class JoinRequest(BaseModel):
    name: str = Field(max_length=200)
    seat: int | None = Field(default=None, ge=0, le=15, strict=True)  # not true, 1.0 or "1"
    lang: str | None = Field(default=None, max_length=40)
    token: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{32,100}$")
    """The seat's token, made by the client (so asking again after a lost answer gives
    the same seat); the server makes one when it is absent."""
    entropy: str | None = Field(default=None, pattern=ENTROPY)
    """The person's contribution to the next deal (docs/fairness.md)."""


TOKEN = r"^[A-Za-z0-9_-]{16,100}$"


class TokenRequest(BaseModel):
    token: str = Field(pattern=TOKEN)


class RematchRequest(TokenRequest):
    entropy: str | None = Field(default=None, pattern=ENTROPY)
    """The contribution of the person who asks to the rematch's first deal."""


class ClaimRequest(BaseModel):
    code: str = Field(pattern=TOKEN)


class ReplaceRequest(BaseModel):
    owner_token: str = Field(pattern=TOKEN)
    kind: Literal["person", "bot"]
    level: str | None = Field(default=None, max_length=40)


class ClockRequest(BaseModel):
    seconds: float = Field(ge=0, le=86_400, allow_inf_nan=False)


SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
"""Pages run only the server's own scripts and cannot be framed by another site."""


LOBBY_PAGE_MAX = 100
LANG_PATTERN = f"^({'|'.join(LANGUAGES)})$"


def request_lang(request: Request) -> str:
    return pick_lang(request.query_params.get("lang") or request.headers.get("accept-language"))


def create_app(settings: Settings | None = None, *, clock: Clock | None = None) -> FastAPI:
    """The application; the database and every unfinished table are opened at start-up.
    ``clock`` times call windows and bot pauses (the event loop's time by default)."""
    settings = settings or Settings()
    if settings.manual_clock and clock is None:
        clock = ManualClock()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Tables(settings, clock=clock)
        runner = (
            Workers(settings.bot_workers or None)
            if settings.bot_workers != 0
            else InProcess(settings.bot_threads)
        )
        driver = BotDriver(runner, hub.clock, delay=settings.bot_delay)
        hub.followers.append(driver.follow)
        app.state.hub = hub
        app.state.transport = transport = Transport(hub, settings)
        app.state.competitions = competitions = Competitions(hub)
        app.state.reviews = reviews = Reviews(settings)
        try:
            with collection_paused():
                await runner.start() if isinstance(runner, Workers) else None
                await hub.start()
            competitions.watch()
            await competitions.start()
            yield
        finally:
            await competitions.close()
            reviews.close()
            transport.rooms.close()
            await hub.close()
            await runner.close()

    app = FastAPI(
        title="remikit",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )

    install_guard(app, settings)  # inside the security headers: its refusals get them too

    @app.middleware("http")
    async def security_headers(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        if request.url.path != app.docs_url:  # the API docs page loads its own scripts
            response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        return response

    def hub_of(request: Request | WebSocket) -> Tables:
        hub: Tables = request.app.state.hub
        return hub

    def client_of(request: Request) -> str | None:
        """Who asks, for the per-client limits (behind a proxy: as its headers say)."""
        return hub_of(request).limits.client(request.client.host if request.client else None)

    @app.exception_handler(Problem)
    async def problem_response(request: Request, exc: Problem) -> JSONResponse:
        return JSONResponse(
            {"error": exc.json(request_lang(request))}, status_code=exc.status, headers=exc.headers
        )

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for error in exc.errors():
            where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
            parts.append(f"{where}: {error.get('msg')}" if where else str(error.get("msg")))
        problem = Problem("bad_request", "server.bad_request", why="; ".join(parts))
        return JSONResponse({"error": problem.json(request_lang(request))}, status_code=422)

    # -- pages ---------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @app.get("/verify", include_in_schema=False)
    async def verify_page() -> FileResponse:
        return FileResponse(STATIC / "verify.html")

    app.include_router(rules_router)
    app.include_router(competition_pages_router)
    app.include_router(competition_router)
    app.include_router(reviews_router)
    app.include_router(socket_router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    if isinstance(clock, ManualClock) and settings.manual_clock:
        manual = clock

        @app.post("/api/clock", include_in_schema=False)
        async def advance_clock(body: Annotated[ClockRequest, Body()]) -> dict[str, float]:
            """Move a manual clock on (``remi serve --manual-clock``, for tests only)."""
            manual.advance(body.seconds)
            return {"now": manual.now()}

    @app.get("/healthz")
    async def healthz(request: Request) -> JSONResponse:
        ready = hub_of(request).ready
        return JSONResponse({"ok": ready}, status_code=200 if ready else 503)

    # The browser's catalogue: the same compiled catalogues the server speaks, read once.
    catalogues = {lang: messages_json(lang) for lang in LANGUAGES}

    @app.get("/api/messages")
    async def messages(request: Request) -> Response:
        """Every message in the language asked for (``?lang=``), with its plural rule."""
        return Response(
            catalogues[request_lang(request)],
            media_type="application/json",
            headers={"Cache-Control": "no-cache"},
        )

    # -- the lobby -------------------------------------------------------------------

    @app.get("/api/variants")
    async def list_variants() -> dict[str, Any]:
        return {"variants": variants_json()}

    @app.post("/api/deck")
    async def unshuffled_deck(body: Annotated[DeckRequest, Body()]) -> dict[str, Any]:
        """The unshuffled deck and the seats of a game of ``variant`` with ``options``, as a
        record names them: what the browser's record verifier shuffles (§3.13)."""
        info = playable_variant(body.variant)
        game = info.game_class()(table_options(info, body.options), auto_deal=False)
        deck = [str(card) for card in game.full_deck()]
        return {"variant": info.name, "players": game.players, "deck": deck}

    @app.get("/api/tables")
    async def list_tables(
        request: Request,
        limit: Annotated[int, Query(ge=1, le=LOBBY_PAGE_MAX)] = 20,
        offset: Annotated[int, Query(ge=0)] = 0,
        variant: Annotated[str | None, Query(max_length=40)] = None,
        free: Annotated[bool | None, Query(alias="open")] = None,
        table_lang: Annotated[str | None, Query(pattern=LANG_PATTERN)] = None,
    ) -> Response:
        """A page of the lobby, newest first, with how many tables match (§3.2)."""
        name = None if variant is None else playable_variant(variant).name
        total, tables = hub_of(request).lobby.page(
            limit=limit, offset=offset, variant=name, free=free, lang=table_lang
        )
        page = {
            "tables": [table_info(t) for t in tables],
            "total": total,
            "limit": limit,
            "offset": offset,
        }
        return Response(json.dumps(page, separators=(",", ":")), media_type="application/json")

    @app.post("/api/tables", status_code=201)
    async def create_table(
        request: Request, body: Annotated[CreateTableRequest, Body()]
    ) -> dict[str, Any]:
        seats = None if body.seats is None else [s.model_dump() for s in body.seats]
        owner = secrets.token_urlsafe(32)
        table = await hub_of(request).create(
            variant=body.variant,
            options=body.options,
            seats=seats,
            title=body.title,
            settings=body.settings,
            lang=pick_lang(body.lang) if body.lang else request_lang(request),
            owner_hash=hash_token(owner),
            client=client_of(request),
        )
        links = table_links(request, settings, table.id)
        return {"table": table_info(table), **links, "owner_token": owner}

    @app.get("/api/tables/{table_id}")
    async def get_table(request: Request, table_id: str) -> dict[str, Any]:
        table = await hub_of(request).get(table_id, keep=False)
        links = table_links(request, settings, table.id)
        return {"table": table_info(table), "fairness": fairness_json(table, None), **links}

    @app.get("/api/tables/{table_id}/qr.svg")
    async def table_qr(request: Request, table_id: str) -> Response:
        """The QR code of the table's shared link."""
        table = await hub_of(request).get(table_id, keep=False)
        share_url = table_links(request, settings, table.id)["share_url"]
        return Response(qr_svg(share_url), media_type="image/svg+xml")

    @app.post("/api/tables/{table_id}/join")
    async def join_table(
        request: Request, table_id: str, body: Annotated[JoinRequest, Body()]
    ) -> dict[str, Any]:
        lang = pick_lang(body.lang) if body.lang else request_lang(request)
        table, seat, token = await hub_of(request).join(
            table_id,
            name=body.name,
            seat=body.seat,
            lang=lang,
            token=body.token,
            client=client_of(request),
            entropy=bytes.fromhex(body.entropy) if body.entropy else None,
        )
        links = table_links(request, settings, table.id)
        return {"table": table_info(table), "seat": seat, "token": token, **links}

    @app.post("/api/tables/{table_id}/move")
    async def offer_move(
        request: Request, table_id: str, body: Annotated[TokenRequest, Body()]
    ) -> dict[str, Any]:
        """A one-time link that moves the seat of ``token`` to another device."""
        table = await hub_of(request).get(table_id)
        code = await seat_changes.offer_move(table, body.token)
        links = table_links(request, settings, table.id)
        return {
            "code": code,
            "link": f"{links['share_url']}#move={code}",
            "expires_in": round(seat_changes.MOVE_CODE_SECONDS),
        }

    @app.post("/api/tables/{table_id}/claim")
    async def claim_move(
        request: Request, table_id: str, body: Annotated[ClaimRequest, Body()]
    ) -> dict[str, Any]:
        """Take the seat a move link was made for: its new token."""
        table = await hub_of(request).get(table_id)
        seat, token = await seat_changes.claim_move(table, body.code)
        links = table_links(request, settings, table.id)
        return {"table": table_info(table), "seat": seat, "token": token, **links}

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def replace_seat(
        request: Request,
        table_id: str,
        seat: Annotated[int, PathParam(ge=0, le=15)],
        body: Annotated[ReplaceRequest, Body()],
    ) -> dict[str, Any]:
        """The creator replaces an away seat by a bot or a new person from the next deal."""
        hub = hub_of(request)
        table = await hub.get(table_id)
        seat_changes.check_owner(table, body.owner_token)
        level = None
        if body.kind == "bot":
            level = (body.level or table.settings.stand_in).strip().lower()
            hub.check_level(table.variant, level)
        await seat_changes.replace_seat(table, seat, body.kind, level)
        return {"table": table_info(table)}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(
        request: Request, table_id: str, body: Annotated[RematchRequest, Body()]
    ) -> dict[str, Any]:
        """The same seats and options again, at a new table (made once; asked again, the
        same one): every person's token works there too."""
        entropy = bytes.fromhex(body.entropy) if body.entropy else None
        table = await hub_of(request).rematch(table_id, body.token, entropy)
        return {"table": table_info(table), **table_links(request, settings, table.id)}

    # -- finished games -----------------------------------------------------------------

    @app.get("/api/games")
    async def list_games(
        request: Request,
        limit: Annotated[int, Query(ge=1, le=500)] = 50,
        offset: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
    ) -> dict[str, Any]:
        store = hub_of(request).store
        games = await asyncio.to_thread(store.finished, limit=limit, offset=offset)
        root = root_path(request)
        return {"games": [game_summary(g, root) for g in games], "limit": limit, "offset": offset}

    @app.get("/api/games/{table_id}")
    async def get_game(request: Request, table_id: str) -> dict[str, Any]:
        stored = await finished_game(hub_of(request), table_id)
        return {
            "game": game_summary(stored, root_path(request))
            | {"actions": list(stored.actions), "client": variant_client(stored.variant)}
        }

    @app.get("/api/games/{table_id}/record")
    async def get_record(request: Request, table_id: str) -> Response:
        stored = await finished_game(hub_of(request), table_id)
        game = await asyncio.to_thread(build_game, stored)
        text = json.dumps(record_with_fairness(game.record(), stored), indent=1)
        filename = f"remikit-{stored.variant}-{stored.id}.record.json"
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @app.get("/api/games/{table_id}/replay")
    async def get_replay(
        request: Request,
        table_id: str,
        step: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
        seat: Annotated[int | None, Query(ge=0, le=MAX_INT)] = None,
    ) -> dict[str, Any]:
        stored = await finished_game(hub_of(request), table_id)
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

    return app


def public_seats(stored: StoredTable) -> list[dict[str, Any]]:
    return [
        {"seat": i, "kind": s.get("kind"), "name": s.get("name"), "level": s.get("level")}
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
