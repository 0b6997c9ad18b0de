"""What the server accepts from a client, before anything reads it (docs/protocol.md §9).

:class:`BodyGuard` is an ASGI middleware: a request body is refused before it
is read when its ``Content-Length`` is over the limit (413), counted as it
streams in (413 past the limit) and given a time to arrive (408 after that).
Every body under ``/api/`` must then be JSON as :func:`strict_json` reads it,
the same reader that reads WebSocket messages: UTF-8, no ``NaN`` or
``Infinity``, numbers of at most :data:`MAX_NUMBER_TEXT` characters, at most
:data:`MAX_DEPTH` levels of nesting, no lone surrogate (``"\\ud800"``). Each
field then checks its own text (a title or a name with a control character is
refused, so no NUL reaches the database).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import FastAPI, Request
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse

from remikit.i18n import N_
from remikit.server.problems import Problem, pick_lang
from remikit.server.settings import Settings

log = logging.getLogger("remikit.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_INT = 2**63 - 1
"""The largest whole number any field takes (a signed 64-bit column holds it); each field
has its own range within it."""
MAX_DEPTH = 16
"""Levels of nesting a JSON body or message may have (``{"a": [1]}`` has two)."""
MAX_NUMBER_TEXT = 40
"""Characters a number may take in JSON (longer ones are refused before they are read)."""
SURROGATE = re.compile("[\ud800-\udfff]")


def _number_problem() -> Problem:
    return Problem("bad_json", "server.json_number", max=MAX_NUMBER_TEXT)


def _whole(text: str) -> int:
    if len(text) > MAX_NUMBER_TEXT:  # Python refuses to read 4,300 digits; nothing needs 41
        raise _number_problem()
    return int(text)


def _decimal(text: str) -> float:
    value = float(text) if len(text) <= MAX_NUMBER_TEXT else math.inf
    if not math.isfinite(value):
        raise _number_problem()
    return value


def _constant(name: str) -> Any:
    raise _number_problem()  # NaN, Infinity, -Infinity: not JSON


def strict_json(data: str | bytes) -> Any:
    """The JSON value of ``data``, else the problem ``bad_json`` saying what is wrong."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise Problem("bad_json", "server.not_utf8") from None
    try:
        value = json.loads(data, parse_int=_whole, parse_float=_decimal, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        why = f"{exc.msg} at {exc.pos}"  # the parser's own words (JSON's, not the game's)
        raise Problem("bad_json", "server.bad_json", why=why) from None
    except RecursionError:
        raise Problem("bad_json", "server.json_depth", max=MAX_DEPTH) from None
    _check_tree(value)
    return value


def _check_tree(value: Any) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH`, and text that is no Unicode (a lone
    surrogate escaped as ``"\\ud800"`` cannot be written out again)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if SURROGATE.search(item):
                raise Problem("bad_json", "server.not_utf8")
        elif isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise Problem("bad_json", "server.json_depth", max=MAX_DEPTH)
            stack.extend((child, depth + 1) for child in _children(item))


def _children(item: dict[Any, Any] | list[Any]) -> list[Any]:
    return [*item.keys(), *item.values()] if isinstance(item, dict) else item


def scope_lang(scope: Scope) -> str:
    """The language of a request's error messages, as
    :func:`remikit.server.http.deps.request_lang` picks it, read from the raw ASGI scope."""
    query = scope.get("query_string", b"").decode("latin-1")
    for part in query.split("&"):
        key, _, value = part.partition("=")
        if key == "lang" and value:
            return pick_lang(value)
    for key, value in scope.get("headers", ()):
        if key == b"accept-language":
            return pick_lang(value.decode("latin-1"))
    return pick_lang(None)


class _Gone(Exception):
    """The client went away while its body was being read."""


class BodyGuard:
    """Reads every HTTP request body within ``limit`` bytes and ``timeout`` seconds before
    the application sees it, and checks the JSON of those under ``/api/`` (module doc)."""

    def __init__(
        self, app: ASGIApp, *, limit: int, timeout: float, upload_limit: int | None = None
    ) -> None:
        self.app = app
        self.limit = limit
        self.timeout = timeout
        self.upload_limit = limit if upload_limit is None else upload_limit
        """The limit of a body sent to an API path ending in ``/import`` (a file)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope["path"])
        limit = self.upload_limit if path.endswith("/import") else self.limit
        try:
            self._check_length(scope, limit)
            body = await self._read(receive, limit)
        except Problem as exc:
            await self._refuse(scope, receive, send, exc)
            return
        except _Gone:
            return
        if body and scope["path"].startswith("/api/"):
            try:
                strict_json(body)
            except Problem as exc:  # a malformed body, as the API's other malformed bodies
                problem = Problem("bad_request", exc.key, status=422)
                problem.params = exc.params
                await self._refuse(scope, receive, send, problem)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    def _too_large(self, limit: int) -> Problem:
        return Problem("too_large", "server.too_large", status=413, max=limit)

    def _check_length(self, scope: Scope, limit: int) -> None:
        for key, value in scope.get("headers", ()):
            if key == b"content-length":
                if not value.isdigit():
                    raise Problem("bad_request", "server.bad_length", status=400)
                if len(value) > 12 or int(value) > limit:
                    raise self._too_large(limit)

    async def _read(self, receive: Receive, limit: int) -> bytes:
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        raise _Gone
                    chunk: bytes = message.get("body", b"")
                    size += len(chunk)
                    if size > limit:
                        raise self._too_large(limit)
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        return b"".join(chunks)
        except TimeoutError:
            raise Problem(
                "slow_body", "server.slow_body", status=408, seconds=self.timeout
            ) from None

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, problem: Problem) -> None:
        response = JSONResponse(
            {"error": problem.json(scope_lang(scope))},
            status_code=problem.status,
            headers={"Connection": "close"},  # the rest of the body is not read
        )
        await response(scope, receive, send)


MAX_MESSAGE = 16 * 1024
"""Characters a WebSocket message may have; uvicorn closes the socket (1009) on a frame
over 64 KiB before the server sees it."""
MAX_REF = 64
"""Characters of a string ``ref``; an integer ``ref`` is within ±2^31."""
MAX_ACTION = 500
"""Characters of an action's text (the longest legal action is far shorter)."""
MAX_TOKEN = 100


def message_ref(value: Any) -> str | int | None:
    """A message's ``ref`` (echoed in its answer): none, a short string or a small whole
    number, else the problem ``bad_message``."""
    if value is None or (isinstance(value, str) and len(value) <= MAX_REF):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**31:
        return value
    raise Problem("bad_message", "server.bad_ref", max=MAX_REF)


def message_state_id(value: Any) -> int:
    """An action's ``state_id``: a plain whole number from 0 (``true`` and ``1.0`` are not)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_INT:
        return value
    raise Problem("bad_message", "server.need_state_id")


def message_deal(value: Any) -> int:
    """A contribution's ``deal``: a plain whole number from 1."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_INT:
        return value
    raise Problem("bad_message", "server.need_deal")


def message_action(value: Any) -> str:
    """An action's text, at most :data:`MAX_ACTION` characters."""
    if not isinstance(value, str):
        raise Problem("bad_message", "server.need_action")
    if len(value) > MAX_ACTION:
        raise Problem("bad_action", "server.action_too_long", max=MAX_ACTION)
    return value


def storage_problem() -> Problem:
    """The answer while the database cannot be reached or fails."""
    return Problem("storage", "server.storage_down", status=503)


HTTP_CODES = {
    400: ("bad_request", N_("server.bad_http")),
    404: ("not_found", N_("server.not_found")),
    405: ("bad_method", N_("server.bad_method")),
}


def http_problem(status: int) -> Problem:
    """Starlette's own refusals (no route, wrong method, …) as the documented error."""
    code, key = HTTP_CODES.get(status, ("http_error", N_("server.http_error")))
    return Problem(code, key, status=status, status_code=status)


def install_guard(app: FastAPI, settings: Settings) -> None:
    """Limit and check every request body (:class:`BodyGuard`), and answer every error
    that is not a :class:`Problem` in the documented shape: Starlette's refusals, a
    database that fails (503 ``storage``) and anything unforeseen (500 ``internal``)."""
    app.add_middleware(
        BodyGuard,
        limit=settings.body_limit,
        timeout=settings.body_timeout,
        upload_limit=settings.upload_limit,
    )

    def answer(request: Request, problem: Problem) -> JSONResponse:
        lang = scope_lang(request.scope)
        return JSONResponse({"error": problem.json(lang)}, status_code=problem.status)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        response = answer(request, http_problem(exc.status_code))
        response.headers.update(exc.headers or {})
        return response

    @app.exception_handler(SQLAlchemyError)
    async def storage_error(request: Request, exc: SQLAlchemyError) -> JSONResponse:
        log.warning("storage failed on %s %s: %s", request.method, request.url.path, exc)
        return answer(request, storage_problem())

    @app.exception_handler(Exception)  # then re-raised by Starlette: the server logs it
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        return answer(request, Problem("internal", "server.internal", status=500))
