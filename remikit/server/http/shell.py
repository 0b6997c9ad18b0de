"""The installable app (docs/protocol.md §2.1): the web app manifest and the service
worker that keeps the client's shell for offline use.

The worker is ``static/sw.js`` served at ``/sw.js``, so that its scope is the whole site
(under ``remi serve --root-path`` too: the worker finds the root from its own address).
Its first line names the shell: every file of ``static/`` the pages load and the pages
themselves, and a version, a hash of those files' contents; and the public texts the pages
start with (the messages and the variants, in each language), kept from the start so that
a page opened without network speaks its language. A release that changes any
of them changes the worker's bytes, so browsers install the new worker, which fills a
new cache and drops the old one.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from remikit.i18n import LANGUAGES, N_, t
from remikit.server.http.deps import Lang
from remikit.server.http.pages import STATIC

WORKER = STATIC / "sw.js"
SHELL_SUFFIXES = {".html", ".js", ".css", ".svg", ".png"}
PAGES = ("/", "/verify")
"""The pages the server makes from ``static/`` files at other addresses (the table page
is ``/static/table.html``, which the worker answers for every ``/table/CODE``)."""
THEME, BACKGROUND = "#0f5132", "#f6f4ee"
"""style.css's ``--felt`` and ``--paper``."""
ICONS = (
    {"src": "static/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
    {"src": "static/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
    {
        "src": "static/icon-maskable-512.png",
        "sizes": "512x512",
        "type": "image/png",
        "purpose": "maskable",
    },
)
NO_CACHE = {"Cache-Control": "no-cache"}

router = APIRouter()


def shell_files() -> list[Path]:
    """The client's files in ``static/`` (not its subfolders' pages, nor the worker)."""
    return sorted(
        p for p in STATIC.iterdir() if p.suffix in SHELL_SUFFIXES and p.is_file() and p != WORKER
    )


@lru_cache(maxsize=4)
def _shell(signature: tuple[tuple[str, int, int], ...]) -> dict[str, Any]:
    digest = hashlib.sha256()
    for name, _, _ in signature:
        digest.update(name.encode() + b"\0" + (STATIC / name).read_bytes() + b"\0")
    files = [*PAGES, *(f"/static/{name}" for name, _, _ in signature)]
    texts = [f"/api/{what}?lang={lang}" for what in ("messages", "variants") for lang in LANGUAGES]
    return {"version": digest.hexdigest()[:16], "files": files, "texts": texts}


def shell() -> dict[str, Any]:
    """The shell the worker keeps: ``version`` (a hash of the files' contents), ``files``
    and ``texts`` (paths under the root). Hashed again only when a file's size or time
    changes, so an edited file reaches the browser at its next visit."""
    signature = tuple((p.name, (s := p.stat()).st_size, s.st_mtime_ns) for p in shell_files())
    return _shell(signature)


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> Response:
    """The service worker, its shell named on its first line."""
    head = f"self.remikitShell = {json.dumps(shell())};\n"
    return Response(
        head + WORKER.read_text(encoding="utf-8"),
        media_type="text/javascript",
        headers=NO_CACHE,
    )


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest(lang: Lang) -> JSONResponse:
    """The web app manifest; its addresses are relative to its own, so under the root."""
    body = {
        "id": "./",
        "name": "remikit",
        "short_name": "remikit",
        "description": t(N_("app.description"), lang),
        "lang": lang,
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": list(ICONS),
    }
    return JSONResponse(
        body,
        media_type="application/manifest+json",
        headers=NO_CACHE | {"Vary": "Accept-Language"},
    )
