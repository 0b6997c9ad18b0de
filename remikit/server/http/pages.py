"""The pages of the browser client (docs/protocol.md §2): the lobby, a table, the record
verifier, and the files they load from ``static/``."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).resolve().parent.parent / "static"

router = APIRouter()


@router.get("/", include_in_schema=False)
async def lobby_page() -> FileResponse:
    return FileResponse(STATIC / "index.html")


@router.get("/table/{table_id}", include_in_schema=False)
async def table_page(table_id: str) -> FileResponse:
    return FileResponse(STATIC / "table.html")


@router.get("/verify", include_in_schema=False)
async def verify_page() -> FileResponse:
    return FileResponse(STATIC / "verify.html")


router.mount("/static", StaticFiles(directory=STATIC), name="static")
