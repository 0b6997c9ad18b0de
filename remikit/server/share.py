"""Where people reach the server from: the base of a table's shared link (the public
URL, else the address the request came to), the WebSocket origin check (against the
trusted hosts of :mod:`remikit.server.hosts`), and the QR code of a link.

The request's address is its ``Host`` header with the scheme uvicorn set from a trusted
proxy's ``X-Forwarded-Proto``; the root path (``remi serve --root-path``) is the ASGI
``root_path``. A link whose host is this computer's loopback opens only here: when the
server listens on every interface (:attr:`Settings.lan_hosts`), such a request's link is
given the machine's first network address instead.
"""

from __future__ import annotations

import io
import ipaddress
from typing import Any
from urllib.parse import urlsplit

import segno
from starlette.requests import HTTPConnection

from remikit.server.hosts import host_trusted, trusted_hosts
from remikit.server.settings import Settings

DEFAULT_PORTS = {"http": 80, "https": 443}
WEB_SCHEMES = {"http": "http", "https": "https", "ws": "http", "wss": "https"}

Origin = tuple[str, str, int]
"""(scheme, host, port) with the scheme ``http`` or ``https`` and the host in lower case."""


def root_path(conn: HTTPConnection) -> str:
    """The path prefix the server is mounted under, without its trailing slash."""
    root: str = conn.scope.get("root_path", "")
    return root.rstrip("/")


def is_loopback(host: str) -> bool:
    """Whether a host name or address names this computer only."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def netloc(host: str, port: int | None) -> str:
    shown = f"[{host}]" if ":" in host else host
    return shown if port is None else f"{shown}:{port}"


def share_base(conn: HTTPConnection, settings: Settings) -> tuple[str, bool]:
    """The URL shared links start with (no trailing slash), and whether it opens only on
    this computer."""
    if settings.public_url:
        return settings.public_url.rstrip("/"), False
    url = conn.url
    host = url.hostname or "localhost"
    if is_loopback(host) and settings.lan_hosts:
        host = settings.lan_hosts[0]
    scheme = WEB_SCHEMES.get(url.scheme, "http")
    return f"{scheme}://{netloc(host, url.port)}{root_path(conn)}", is_loopback(host)


def table_links(conn: HTTPConnection, settings: Settings, table_id: str) -> dict[str, Any]:
    """A table's ``link`` (its page's path on this server), ``share_url`` (the address to
    give to others) and ``share_local`` (true when that address opens only here)."""
    base, local = share_base(conn, settings)
    path = f"/table/{table_id}"
    return {"link": root_path(conn) + path, "share_url": base + path, "share_local": local}


def parse_origin(url: str) -> Origin | None:
    """The origin of a URL, or None when it is not an http(s) or ws(s) URL with a host."""
    try:
        parts = urlsplit(url.strip())
        scheme = WEB_SCHEMES.get(parts.scheme.lower())
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if scheme is None or not host:
        return None
    return scheme, host, port or DEFAULT_PORTS[scheme]


def own_origins(conn: HTTPConnection, settings: Settings) -> set[Origin]:
    """The origins of this server's own pages: the public URL's, and the request's when
    its host is a trusted one (:mod:`remikit.server.hosts`)."""
    found = {parse_origin(settings.public_url)} if settings.public_url else set()
    own = parse_origin(str(conn.url))
    if own is not None and host_trusted(own[1], trusted_hosts(settings)):
        found.add(own)
    return {origin for origin in found if origin is not None}


def origin_allowed(conn: HTTPConnection, settings: Settings) -> bool:
    """Whether a WebSocket may be opened: it has no ``Origin`` (a program, not a page)
    or its page is one of this server's (:func:`own_origins`)."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    return parse_origin(origin) in own_origins(conn, settings)


def qr_svg(text: str) -> bytes:
    """The QR code of ``text`` as a standalone SVG image that scales to any size."""
    buffer = io.BytesIO()
    segno.make(text, error="m").save(
        buffer, kind="svg", border=4, omitsize=True, dark="#000", light="#fff", xmldecl=False
    )
    return buffer.getvalue()
