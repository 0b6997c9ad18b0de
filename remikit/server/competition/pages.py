"""The pages of a competition (docs/competition.md): create, public standings, organiser,
referee, projector and the print views, and the QR code of the public page.

Every page is the same small HTML shell naming its module in ``static/competition/``;
the module reads the competition's id from ``data-competition`` on the body and asks the
competition API for the rest.
"""

from __future__ import annotations

from html import escape
from typing import Annotated

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, Response

from remikit.server.competition.answers import service
from remikit.server.guard import http_problem
from remikit.server.share import qr_svg, root_path, share_base

router = APIRouter()

CompetitionId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,40}$")]
PRINT_VIEWS = ("pairings", "schedule", "sheets", "cards")


def shell(request: Request, module: str, cid: str = "") -> HTMLResponse:
    """The HTML of a page that runs ``static/competition/{module}.js``."""
    root = escape(root_path(request))
    return HTMLResponse(f"""<!doctype html>
<html lang="id">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="theme-color" content="#0f5132">
<title>remikit</title>
<link rel="icon" href="{root}/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="{root}/static/style.css">
<link rel="stylesheet" href="{root}/static/competition/competition.css">
</head>
<body class="comp-page comp-{module}" data-competition="{escape(cid)}">
<header class="topbar" id="topbar"></header>
<main id="app" class="comp"></main>
<script type="module" src="{root}/static/competition/{module}.js"></script>
</body>
</html>
""")


@router.get("/competitions/new", include_in_schema=False)
async def new_page(request: Request) -> HTMLResponse:
    return shell(request, "new")


@router.get("/competitions/{cid}", include_in_schema=False)
async def public_page(request: Request, cid: CompetitionId) -> HTMLResponse:
    return shell(request, "public", cid)


@router.get("/competitions/{cid}/{view}", include_in_schema=False)
async def role_page(request: Request, cid: CompetitionId, view: str) -> HTMLResponse:
    """The organiser's, the referee's and the projector's page."""
    if view not in ("admin", "referee", "projector"):
        raise http_problem(404)
    return shell(request, view, cid)


@router.get("/competitions/{cid}/print/{view}", include_in_schema=False)
async def print_page(request: Request, cid: CompetitionId, view: str) -> HTMLResponse:
    """The pairings of a round, everyone's schedule, a round's table sheets, everyone's
    score card."""
    if view not in PRINT_VIEWS:
        raise http_problem(404)
    return shell(request, f"print_{view}", cid)


@router.get("/api/competitions/{cid}/qr.svg")
async def competition_qr(request: Request, cid: CompetitionId) -> Response:
    """The QR code of the competition's public page (``unknown_competition``: 404)."""
    snap = await service(request).snapshot(cid)
    base, _ = share_base(request, service(request).hub.settings)
    url = f"{base}/competitions/{snap.competition.id}"
    return Response(qr_svg(url), media_type="image/svg+xml")
