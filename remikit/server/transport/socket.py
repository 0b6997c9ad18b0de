"""The table's WebSocket (docs/protocol.md §4): the hello, then one message at a time,
each answered on its socket. What a client may spend is bounded: sockets per seat token
(a new one replaces the oldest) and per address, one message at a time, on-demand advice
per seat and minute."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from functools import partial
from typing import Any

from fastapi import APIRouter, WebSocket
from sqlalchemy.exc import SQLAlchemyError
from starlette.websockets import WebSocketDisconnect

from remikit.action_words import ActionSyntaxError
from remikit.actions import parse_action
from remikit.i18n import LANGUAGES, N_
from remikit.server.advice import advice_message
from remikit.server.bots.driver import Runner
from remikit.server.bots.workers import Lane, Owner
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
from remikit.server.limits import RateLimit
from remikit.server.problems import Problem, pick_lang
from remikit.server.settings import Settings
from remikit.server.share import origin_allowed
from remikit.server.tables.fair_deals import read_entropy
from remikit.server.tables.registry import Tables
from remikit.server.transport.connection import Connection
from remikit.server.transport.rooms import Room, Rooms

log = logging.getLogger("remikit.server")

router = APIRouter()

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
    "too_many_sockets": 4429,
    "storage": 4503,
    "table_moved": 4503,
}
"""Close codes of a socket refused at its hello (docs/protocol.md)."""


class Transport:
    """The sockets of one server: their rooms, and what each address and seat may spend."""

    def __init__(self, tables: Tables, settings: Settings, think: Runner) -> None:
        self.tables = tables
        self.settings = settings
        self.think = think  # where on-demand advice is worked out
        self.rooms = Rooms()
        self.by_client: dict[str, int] = {}  # sockets open per address key
        self.advice = RateLimit(
            tables.clock, rate=settings.advice_rate, key=N_("server.rate_advice")
        )

    def open(self, client: str | None) -> None:
        """One more socket from ``client``, else the problem ``too_many_sockets``."""
        if client is None:
            return
        most = self.settings.max_client_sockets
        if 0 < most <= self.by_client.get(client, 0):
            raise Problem("too_many_sockets", "server.too_many_sockets", status=429, max=most)
        self.by_client[client] = self.by_client.get(client, 0) + 1

    def closed(self, client: str | None) -> None:
        if client is not None:
            left = self.by_client.get(client, 1) - 1
            if left > 0:
                self.by_client[client] = left
            else:
                self.by_client.pop(client, None)


def transport_of(websocket: WebSocket) -> Transport:
    transport: Transport = websocket.app.state.transport
    return transport


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    await websocket.accept()
    lang = pick_lang(websocket.query_params.get("lang"))
    transport = transport_of(websocket)
    client = transport.tables.limits.client(websocket.client.host if websocket.client else None)
    try:
        transport.open(client)
    except Problem as exc:
        await refuse(websocket, exc, lang)
        return
    try:
        await serve_socket(websocket, transport, table_id, lang, client)
    finally:
        transport.closed(client)


async def refuse(websocket: WebSocket, problem: Problem, lang: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", **problem.json(lang)})
        await websocket.close(code=SOCKET_CLOSE.get(problem.code, 4400))


async def serve_socket(
    websocket: WebSocket, transport: Transport, table_id: str, lang: str, client: str | None
) -> None:
    try:
        room, conn = await greet(websocket, transport, table_id, lang, client)
    except (Problem, SQLAlchemyError) as exc:
        await refuse(websocket, exc if isinstance(exc, Problem) else storage_problem(), lang)
        return
    except WebSocketDisconnect:
        return
    pump = asyncio.get_running_loop().create_task(conn.pump())
    try:
        while not conn.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            await handle(transport, room, conn, message.get("text"))
    except WebSocketDisconnect:
        pass
    except RuntimeError:  # the socket was closed under us
        pass
    finally:
        transport.rooms.leave(room, conn)
        with contextlib.suppress(Exception):
            await pump


async def greet(
    websocket: WebSocket, transport: Transport, table_id: str, lang: str, client: str | None
) -> tuple[Room, Connection]:
    settings, tables = transport.settings, transport.tables
    if not origin_allowed(websocket, settings):
        origin = websocket.headers.get("origin", "")
        raise Problem("bad_origin", "server.bad_origin", status=403, origin=origin)
    try:
        first = await asyncio.wait_for(websocket.receive(), settings.hello_timeout)
    except TimeoutError:
        raise Problem("need_hello", "server.need_hello") from None
    if first["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(first.get("code", 1000))
    hello = read_json(first.get("text"))
    if hello.get("type") != "hello":
        raise Problem("need_hello", "server.need_hello")
    if hello.get("lang") in LANGUAGES:
        lang = hello["lang"]
    table = await tables.get(table_id)
    token = hello.get("token")
    seat = None
    if token is not None:
        usable = isinstance(token, str) and len(token) <= MAX_TOKEN
        seat = table.seat_for_token(token) if usable else None
        if seat is None:
            tables.forget_unwatched(table)
            raise Problem("bad_token", "server.bad_token", table=table.id)
        if "lang" not in hello:
            lang = table.seats[seat].lang
    elif table.spectators >= settings.max_spectators:
        tables.forget_unwatched(table)
        raise Problem("too_many_spectators", "server.too_many_spectators", status=503)
    conn = Connection(websocket, seat, lang, client=client, limit=settings.send_queue_limit)
    room = transport.rooms.room(table)
    room.attach(conn, most=settings.max_seat_sockets)
    return room, conn


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


async def handle(transport: Transport, room: Room, conn: Connection, text: str | None) -> None:
    """One message from a client: answer it on its connection."""
    table = room.table
    ref: Any = None
    try:
        data = read_json(text)
        ref = message_ref(data.get("ref"))
        kind = data.get("type")
        if kind == "ping":
            conn.send_json({"type": "pong", "ref": ref})
            return
        if kind == "sync":  # the client has no base for the next change: the whole state
            room.send_full(conn)
            return
        if kind == "advice":
            if conn.seat is not None:
                transport.advice.check(f"{table.id}/{conn.seat}")
            owner = Owner(table.id, table.creator)
            run = partial(transport.think.run, owner, Lane.QUICK)
            conn.send_json(await advice_message(table, conn.seat, ref, run))
            return
        if conn.seat is None and kind in ("contribute", "back", "action", "seen"):
            raise Problem("spectator", "server.spectator", status=403)
        if kind == "contribute":  # to the next deal (docs/fairness.md)
            assert conn.seat is not None
            deal = message_deal(data.get("deal"))
            await table.contribute(conn.seat, deal, read_entropy(data.get("entropy")))
            conn.send_json({"type": "contributed", "deal": deal, "ref": ref})
            return
        if kind == "seen":  # the page shows this deal: the person's turn timer may run
            assert conn.seat is not None
            await table.see(conn.seat, message_deal(data.get("deal")))
            return
        if kind == "back":  # a person whose seat a bot plays is back
            assert conn.seat is not None
            await table.come_back(conn.seat)
            return
        if kind != "action":
            raise Problem("bad_message", "server.unknown_type", type=json.dumps(kind)[:40])
        state_id = message_state_id(data.get("state_id"))
        action_text = message_action(data.get("action"))
        assert conn.seat is not None
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
    except Problem as exc:
        reply(conn, exc, table.state_id, ref)
    except SQLAlchemyError:
        log.exception("table %s: storage failed", table.id)
        reply(conn, storage_problem(), table.state_id, ref)
    except Exception:  # answered all the same: the socket stays open
        log.exception("table %s: a message failed", table.id)
        reply(conn, Problem("internal", "server.internal", status=500), table.state_id, ref)


def reply(conn: Connection, problem: Problem, state_id: int, ref: Any) -> None:
    message = {"type": "error", **problem.json(conn.lang)}
    conn.send_json(message | {"state_id": state_id, "ref": ref})
