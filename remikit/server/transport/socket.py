"""The WebSocket of a table (docs/protocol.md §4): ``/ws/tables/{table_id}``, its hello,
and each message a client sends, answered on its connection."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import APIRouter, WebSocket
from sqlalchemy.exc import SQLAlchemyError
from starlette.websockets import WebSocketDisconnect

from remikit.actions import ActionSyntaxError, parse_action
from remikit.i18n import LANGUAGES
from remikit.server.advice import advice_message
from remikit.server.fair_deals import read_entropy
from remikit.server.guard import (
    MAX_MESSAGE,
    MAX_TOKEN,
    message_action,
    message_deal,
    message_ref,
    message_state_id,
    storage_problem,
    strict_json,
)
from remikit.server.hub import Hub
from remikit.server.live import Connection, LiveTable
from remikit.server.problems import Problem, pick_lang
from remikit.server.share import origin_allowed

log = logging.getLogger("remikit.server")

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    await websocket.accept()
    lang = pick_lang(websocket.query_params.get("lang"))
    hub: Hub = websocket.app.state.hub
    try:
        conn = await greet(websocket, hub, table_id, lang)
    except (Problem, SQLAlchemyError) as exc:
        problem = exc if isinstance(exc, Problem) else storage_problem()
        with contextlib.suppress(Exception):
            await websocket.send_json({"type": "error", **problem.json(lang)})
            await websocket.close(code=SOCKET_CLOSE.get(problem.code, 4400))
        return
    except WebSocketDisconnect:
        return
    table = conn.table
    pump = asyncio.get_running_loop().create_task(conn.pump())
    try:
        while not conn.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            await handle(table, conn, message.get("text"))
    except WebSocketDisconnect:
        pass
    except RuntimeError:  # the socket was closed under us
        pass
    finally:
        table.detach(conn)
        with contextlib.suppress(Exception):
            await pump


async def greet(websocket: WebSocket, hub: Hub, table_id: str, lang: str) -> SeatConnection:
    if not origin_allowed(websocket, hub.settings):
        origin = websocket.headers.get("origin", "")
        raise Problem("bad_origin", "server.bad_origin", status=403, origin=origin)
    try:
        first = await asyncio.wait_for(websocket.receive(), hub.settings.hello_timeout)
    except TimeoutError:
        raise Problem("need_hello", "server.need_hello") from None
    if first["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(first.get("code", 1000))
    hello = read_json(first.get("text"))
    if hello.get("type") != "hello":
        raise Problem("need_hello", "server.need_hello")
    if hello.get("lang") in LANGUAGES:
        lang = hello["lang"]
    table = await hub.get(table_id)
    token = hello.get("token")
    seat = None
    if token is not None:
        usable = isinstance(token, str) and len(token) <= MAX_TOKEN
        seat = table.seat_for_token(token) if usable else None
        if seat is None:
            hub.table_idle(table)
            raise Problem("bad_token", "server.bad_token", table=table.id)
        if "lang" not in hello:
            lang = table.seats[seat].lang
    elif table.spectator_count() >= hub.settings.max_spectators:
        hub.table_idle(table)
        raise Problem("too_many_spectators", "server.too_many_spectators", status=503)
    conn = SeatConnection(websocket, seat, lang, table, limit=hub.settings.send_queue_limit)
    table.attach(conn)
    return conn


SOCKET_CLOSE = {
    "unknown_table": 4404,
    "expired": 4410,
    "bad_token": 4401,
    "bad_origin": 4403,
    "need_hello": 4400,
    "bad_json": 4400,
    "bad_message": 4400,
    "broken_table": 4500,
    "too_many_spectators": 4429,
    "storage": 4503,
}
"""Close codes of a socket refused at its hello (docs/protocol.md)."""


class SeatConnection(Connection):
    """A connection that knows its table."""

    def __init__(
        self, websocket: WebSocket, seat: int | None, lang: str, table: LiveTable, *, limit: int
    ) -> None:
        super().__init__(websocket, seat, lang, limit=limit)
        self.table = table


def read_json(text: str | None) -> dict[str, Any]:
    """A client message: a JSON object, else the problem ``bad_json``/``bad_message``."""
    if text is None:
        raise Problem("bad_message", "server.not_text")
    if len(text) > MAX_MESSAGE:
        raise Problem("too_large", "server.message_too_large", max=MAX_MESSAGE)
    data = strict_json(text)
    if not isinstance(data, dict):
        raise Problem("bad_message", "server.not_object")
    return data


async def handle(table: LiveTable, conn: Connection, text: str | None) -> None:
    """One message from a client: answer it on its connection."""
    ref: Any = None

    def reply(problem: Problem) -> None:
        message = {"type": "error", **problem.json(conn.lang)}
        conn.send_json(message | {"state_id": table.state_id, "ref": ref})

    try:
        data = read_json(text)
        ref = message_ref(data.get("ref"))
        kind = data.get("type")
        if kind == "ping":
            conn.send_json({"type": "pong", "ref": ref})
            return
        if kind == "advice":
            conn.send_json(await advice_message(table, conn.seat, ref))
            return
        if kind == "contribute":  # to the next deal (docs/fairness.md)
            if conn.seat is None:
                raise Problem("spectator", "server.spectator", status=403)
            deal = message_deal(data.get("deal"))
            await table.contribute(conn.seat, deal, read_entropy(data.get("entropy")))
            conn.send_json({"type": "contributed", "deal": deal, "ref": ref})
            return
        if kind == "back":  # a person whose seat a bot plays is back
            if conn.seat is None:
                raise Problem("spectator", "server.spectator", status=403)
            await table.come_back(conn.seat)
            return
        if kind != "action":
            raise Problem("bad_message", "server.unknown_type", type=json.dumps(kind)[:40])
        state_id = message_state_id(data.get("state_id"))
        action_text = message_action(data.get("action"))
        if conn.seat is None:
            raise Problem("spectator", "server.spectator", status=403)
        try:
            action = parse_action(action_text)
        except ActionSyntaxError as exc:
            raise Problem("bad_action", "server.bad_action", why=exc) from None
        outcome = await table.submit(conn.seat, state_id, action)
        if outcome == "call_pending":
            conn.send_json(
                {
                    "type": "call_pending",
                    "action": str(action),
                    "state_id": table.state_id,
                    "ref": ref,
                }
            )
            table.send_state(conn.seat)  # call_window.my_call now shows the call
    except Problem as exc:
        reply(exc)
    except SQLAlchemyError:
        log.exception("table %s: storage failed", table.id)
        reply(storage_problem())
    except Exception:  # answered all the same: the socket stays open
        log.exception("table %s: a message failed", table.id)
        reply(Problem("internal", "server.internal", status=500))
