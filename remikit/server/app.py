"""The web table: HTTP JSON API, WebSocket play, and the pages (docs/protocol.md).

``create_app(settings)`` assembles the FastAPI application; ``remi serve`` runs it
under uvicorn. The routes are APIRouters: the pages, the lobby and tables, finished
games and what the server says of itself in :mod:`remikit.server.http`, the table's
socket in :mod:`remikit.server.transport.socket`. The server is authoritative: a
person's socket is bound to one seat by that seat's token, every action carries the
state id it was made against, and every socket receives only its own seat's view.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from functools import partial

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response

from remikit.server.bots.driver import BotDriver, InProcess
from remikit.server.bots.workers import Lane, Owner, Workers
from remikit.server.clock import Clock, ManualClock
from remikit.server.competition.api import router as competition_router
from remikit.server.competition.api_accounts import router as competition_accounts_router
from remikit.server.competition.api_seating import router as competition_seating_router
from remikit.server.competition.api_tools import router as competition_tools_router
from remikit.server.competition.pages import router as competition_pages_router
from remikit.server.competition.service import Competitions
from remikit.server.guard import install_guard
from remikit.server.hosts import HostGuard, trusted_hosts
from remikit.server.http import games, meta, pages, shell, tables
from remikit.server.http import profiles as profile_routes
from remikit.server.http.deps import bounded_numbers, request_lang
from remikit.server.http.reviews import router as reviews_router
from remikit.server.problems import Problem
from remikit.server.profiles.service import Profiles
from remikit.server.reviews import Reviews
from remikit.server.rules_page import router as rules_router
from remikit.server.settings import Settings
from remikit.server.tables.build import collection_paused
from remikit.server.tables.registry import Tables
from remikit.server.transport.socket import Transport
from remikit.server.transport.socket import router as socket_router

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

ROUTERS = (
    pages.router,
    shell.router,
    rules_router,
    competition_pages_router,
    competition_router,
    competition_accounts_router,
    competition_seating_router,
    competition_tools_router,
    reviews_router,
    meta.router,
    tables.router,
    games.router,
    profile_routes.router,
    socket_router,
)


def create_app(settings: Settings | None = None, *, clock: Clock | None = None) -> FastAPI:
    """The application; the database and every unfinished table are opened at start-up.
    ``clock`` times call windows and bot pauses (the event loop's time by default)."""
    settings = settings or Settings()
    if settings.manual_clock and clock is None:
        clock = ManualClock()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = Tables(settings, clock=clock)
        site = None
        if settings.redis_url:  # the scale extra's redis and httpx, needed only here
            from remikit.server.cluster.site import Site

            site = Site(hub, settings)
        think: Workers | InProcess = (
            InProcess(settings.bot_threads)
            if settings.bot_workers == 0
            else Workers(settings.bot_workers)
        )
        driver = BotDriver(think, hub.clock, delay=settings.bot_delay)
        hub.followers.append(driver.follow)  # before the sockets: a state shows who thinks
        app.state.hub = hub
        app.state.transport = transport = Transport(hub, settings, think)
        app.state.competitions = competitions = Competitions(hub)
        app.state.profiles = profiles = Profiles(hub, settings)
        in_workers = partial(think.run, Owner("reviews", None), Lane.DEEP)
        app.state.reviews = reviews = Reviews(
            settings, run=in_workers if isinstance(think, Workers) else None
        )
        try:
            if isinstance(think, Workers):
                await think.start()
            if site is not None:
                await site.start()
                app.state.node = site.node
            with collection_paused():
                await hub.start()
            competitions.watch()
            await competitions.start()
            yield
        finally:
            if site is not None:
                await site.stop()
            await competitions.close()
            await profiles.close()
            reviews.close()
            transport.rooms.close()
            await hub.close()
            if site is not None:
                await site.leave()
            await think.close()

    app = FastAPI(
        title="remikit",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
        dependencies=[Depends(bounded_numbers)],
    )
    app.state.settings = settings

    if settings.redis_url:  # innermost: a forwarded request passed every check here
        from remikit.server.cluster.forward import Forwarder

        app.add_middleware(Forwarder)
    install_guard(app, settings)  # inside the host check: a body is read for trusted hosts only
    app.add_middleware(HostGuard, hosts=trusted_hosts(settings))  # inside the headers too

    @app.middleware("http")
    async def security_headers(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        if request.url.path != app.docs_url:  # the API docs page loads its own scripts
            response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        return response

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

    for router in ROUTERS:
        app.include_router(router)
    if isinstance(clock, ManualClock) and settings.manual_clock:
        app.state.manual_clock = clock
        app.include_router(meta.clock_router)
    return app
