"""A table's requests and sockets, wherever they arrive, served by the node that owns it.

nginx sends every request of one table code to the same process (deploy/nginx.conf), and
that process usually owns the table: then nothing happens here. Otherwise, while another
live node owns an unfinished table, this ASGI middleware passes the request (with its
body, up to the guard's limit) or the socket (message by message, both ways) on to that
node's own address, naming the client in ``X-Forwarded-For``, and passes back what it
answers. The client never sees the difference. A socket whose owner cannot be reached is
closed with 1013 (try again later): the browser reconnects, and once the lease of a dead
owner has run out, the node it reaches takes the table over.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from typing import Any

import httpx
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from remikit.server.cluster.node import Node
from remikit.server.guard import scope_lang
from remikit.server.share import origin_allowed
from remikit.server.tables.ownership import table_moved
from remikit.storage.owners import Owner

log = logging.getLogger("remikit.server")

TABLE_PATH = re.compile(r"^/(?:api/tables|ws/tables)/([A-Za-z0-9-]{1,32})(?:/|$)")
HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailers",
    "transfer-encoding",
    "upgrade",
    "host",
    "content-length",
    "x-forwarded-for",
}
"""Headers not passed on (hop by hop, or set again on the way)."""
PASSED_BACK_NOT = HOP_BY_HOP | {"date", "server", "content-encoding"}
SOCKET_HEADERS = {"origin", "cookie", "user-agent", "accept-language"}
TRY_AGAIN = 1013
FORWARD_TIMEOUT = 30.0


class Forwarder:
    """Forwards a table's requests and sockets to the node that owns the table."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._http: httpx.AsyncClient | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        node: Node | None = getattr(scope["app"].state, "node", None)
        if node is None or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path = scope["path"].removeprefix(scope.get("root_path", "")) or "/"  # as nginx sent it
        match = TABLE_PATH.match(path)
        code = "" if match is None else match.group(1).upper()
        owner = None if match is None else await self._owner(node, code)
        if owner is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            await self._http_request(owner, code, path, scope, receive, send)
        else:
            await self._socket(owner, path, scope, receive, send)

    @staticmethod
    async def _owner(node: Node, code: str) -> Owner | None:
        """Another live node that owns the table, if one does."""
        if code in node.epochs and code in node.tables.tables:
            return None
        owner = await node.owner(code)
        return None if owner is None or owner.node == node.id else owner

    def _client(self) -> httpx.AsyncClient:
        if self._http is None:
            self._http = httpx.AsyncClient(timeout=FORWARD_TIMEOUT)
        return self._http

    async def _http_request(
        self, owner: Owner, code: str, path: str, scope: Scope, receive: Receive, send: Send
    ) -> None:
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = _headers(scope, keep=None)
        query = scope.get("query_string", b"").decode("latin-1")
        url = owner.url.rstrip("/") + path + (f"?{query}" if query else "")
        try:
            answer = await self._client().request(
                scope["method"], url, headers=headers, content=bytes(body)
            )
        except httpx.HTTPError as exc:
            log.warning("could not forward %s to node %s: %s", path, owner.node, exc)
            await _unavailable(scope, send, code)
            return
        out = [
            (k.encode("latin-1"), v.encode("latin-1"))
            for k, v in answer.headers.multi_items()
            if k.lower() not in PASSED_BACK_NOT
        ]
        out.append((b"content-length", str(len(answer.content)).encode()))
        await send({"type": "http.response.start", "status": answer.status_code, "headers": out})
        await send({"type": "http.response.body", "body": answer.content})

    async def _socket(
        self, owner: Owner, path: str, scope: Scope, receive: Receive, send: Send
    ) -> None:
        if (await receive())["type"] != "websocket.connect":
            return
        query = scope.get("query_string", b"").decode("latin-1")
        url = owner.url.replace("http", "ws", 1).rstrip("/") + path + (f"?{query}" if query else "")
        # the page's origin is checked here, against the address the browser used; the
        # owner, reached at its own address, is told of it only to refuse it as well
        settings = scope["app"].state.settings
        own = origin_allowed(HTTPConnection(scope), settings)
        keep = SOCKET_HEADERS - {"origin"} if own else SOCKET_HEADERS
        try:
            upstream = await connect(
                url,
                additional_headers=_headers(scope, keep=keep),
                origin=None,
                compression=None,
                max_size=None,
                open_timeout=5,
            )
        except (OSError, InvalidStatus, TimeoutError) as exc:
            log.warning("could not forward a socket of %s to node %s: %s", path, owner.node, exc)
            await send({"type": "websocket.close", "code": TRY_AGAIN})
            return
        await send({"type": "websocket.accept"})
        async with upstream:
            await _relay(upstream, receive, send)


async def _relay(upstream: ClientConnection, receive: Receive, send: Send) -> None:
    """Carries messages both ways until either side closes; then closes the other."""

    async def down() -> None:
        with contextlib.suppress(ConnectionClosed):
            async for text in upstream:
                if isinstance(text, str):
                    await send({"type": "websocket.send", "text": text})
                else:
                    await send({"type": "websocket.send", "bytes": text})
        code = upstream.close_code  # 1006: the owner went away without closing
        with contextlib.suppress(Exception):
            await send(
                {"type": "websocket.close", "code": TRY_AGAIN if code in (None, 1006) else code}
            )

    async def up() -> None:
        while True:
            message: Message = await receive()
            if message["type"] == "websocket.disconnect":
                await upstream.close()
                return
            data: Any = message.get("text")
            if data is None:
                data = message.get("bytes") or b""
            with contextlib.suppress(ConnectionClosed):
                await upstream.send(data)

    tasks = [asyncio.ensure_future(down()), asyncio.ensure_future(up())]
    _, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


def _headers(scope: Scope, *, keep: set[str] | None) -> dict[str, str]:
    """The request's headers to pass on (all but hop-by-hop ones, or only ``keep``), and
    who the client is."""
    headers: dict[str, str] = {}
    for raw_key, raw_value in scope.get("headers", ()):
        key = raw_key.decode("latin-1").lower()
        if (keep is None and key not in HOP_BY_HOP) or (keep is not None and key in keep):
            headers[key] = raw_value.decode("latin-1")
    client = scope.get("client")
    if client:
        headers["x-forwarded-for"] = client[0]
    headers["x-forwarded-proto"] = "https" if scope.get("scheme") in ("https", "wss") else "http"
    return headers


async def _unavailable(scope: Scope, send: Send, code: str) -> None:
    """The owner could not be reached: 503 ``table_moved``, to be tried again."""
    problem = table_moved(code)
    body = json.dumps({"error": problem.json(scope_lang(scope))}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"application/json"),
                (b"retry-after", b"1"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
