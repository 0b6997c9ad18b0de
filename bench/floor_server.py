"""The floor under ``bench_server.py``'s figures: a server on remikit's own stack that
plays no game, run by ``bench_server.py --floor`` in place of ``remi serve``.

It has what every action of a live table needs and nothing else: uvicorn (uvloop, the
websockets protocol), FastAPI's WebSockets, remikit's writer committing each action to
SQLite before anyone is told of it, and remikit's sockets (a queue and a pump each,
orjson). A table's four seats take turns of two actions (a draw, then a discard); a
bot's action is a fixed text after the bot delay, the person's the action it sends;
each action goes to the table's sockets as one change message (the seat's and the
spectators' views, each encoded once), of about the size remikit's changes have. It
answers just what ``bench_server.py``'s client asks (``/api/variants``, a table,
a join, the socket's ``hello``, ``sync`` and ``action``). With ``--no-writes`` no action is
committed: what the sockets and timers cost alone.

What ``bench_server.py`` measures on it is the CPU per action that the stack costs before
any game is played: the least a live table's action can cost on it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import secrets
import socket
import tempfile
from typing import Any

import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from remikit.server.runner import settle_collector
from remikit.server.transport.connection import Connection, dumps
from remikit.storage import Store, TableRow
from remikit.storage.store import now
from remikit.storage.writer import Writer

CARDS = [f"{r}{s}" for s in "shdc" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")]
DEAL = 120
"""Actions a deal lasts: then the log starts again."""


class Table:
    """Four seats taking turns, seat 0 a person, the others bots; no game."""

    def __init__(self, table_id: str, writer: Writer | None, delay: float) -> None:
        self.id = table_id
        self.writer = writer
        self.delay = delay
        self.state_id = 0
        self.rev = 1
        self.log: list[str] = []
        self.plays: list[dict[str, Any]] = []
        self.sockets: dict[int | None, list[Connection]] = {0: [], None: []}
        self.asked: asyncio.Future[str] | None = None
        self.task: asyncio.Task[None] | None = None

    @property
    def to_play(self) -> int:
        return (self.state_id // 2) % 4

    def legal(self, seat: int | None) -> list[str]:
        if seat != self.to_play:
            return []
        if self.state_id % 2 == 0:
            return ["draw stock", "draw discard"]
        return [f"discard {card}" for card in CARDS[:14]]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {
            "seat": seat,
            "to_play": self.to_play,
            "phase": "draw" if self.state_id % 2 == 0 else "discard",
            "hand": CARDS[:13] if seat is not None else [],
            "hand_sizes": [13, 13, 13, 13],
            "stock_size": 50,
            "legal_actions": self.legal(seat),
            "game_over": False,
            "log": list(self.log),
            "plays": list(self.plays),
        }

    def state(self, seat: int | None) -> str:
        return dumps(
            {
                "type": "state",
                "table_id": self.id,
                "state_id": self.state_id,
                "rev": self.rev,
                "table": {"id": self.id, "state_id": self.state_id},
                "call_window": None,
                "view": self.view(seat),
            }
        )

    async def play(self) -> None:
        while True:
            seat = self.to_play
            if seat == 0:
                self.asked = asyncio.get_running_loop().create_future()
                text = await self.asked
            else:
                await asyncio.sleep(self.delay)
                text = "draw stock" if self.state_id % 2 == 0 else "discard 7h"
            if self.writer is not None:
                await self.writer.append_action(self.id, self.state_id, seat, text)
            self.apply(seat, text)

    def apply(self, seat: int, text: str) -> None:
        line = f"p{seat} {text}"
        kind, _, rest = text.partition(" ")
        play = {"seat": seat, "action": {"type": kind, "text": text, "card": rest}, "text": line}
        at = len(self.log)
        self.log.append(line)
        self.plays.append(play)
        self.state_id += 1
        self.rev += 1
        restart = len(self.log) >= DEAL
        for seat_of, group in self.sockets.items():
            if not group:
                continue
            ops: list[list[Any]] = [
                ["set", ["table", "state_id"], self.state_id],
                ["set", ["view", "to_play"], self.to_play],
                ["set", ["view", "phase"], "draw" if self.state_id % 2 == 0 else "discard"],
                ["set", ["view", "hand_sizes"], [13, 13, 13, 13]],
                ["set", ["view", "stock_size"], 50 - at % 50],
                ["set", ["view", "legal_actions"], self.legal(seat_of)],
                ["append", ["view", "log"], at, [line]],
                ["append", ["view", "plays"], at, [play]],
            ]
            if restart:
                ops += [["set", ["view", "log"], []], ["set", ["view", "plays"], []]]
            change = dumps(
                {
                    "type": "change",
                    "table_id": self.id,
                    "state_id": self.state_id,
                    "rev": self.rev,
                    "base": self.rev - 1,
                    "ops": ops,
                }
            )
            for conn in group:
                conn.send(change)
        if restart:
            self.log, self.plays = [], []


def make_app(writer: Writer, delay: float, *, writes: bool = True) -> FastAPI:
    """The floor's app; with ``writes`` False no action is committed (the sockets alone)."""
    app = FastAPI()
    tables: dict[str, Table] = {}

    @app.get("/api/variants")
    async def variants() -> dict[str, Any]:
        options = [{"name": "players", "default": 4}]
        return {"variants": [{"name": "remi13d", "aliases": [], "options": options}]}

    @app.post("/api/tables")
    async def create() -> dict[str, Any]:
        table = Table(secrets.token_hex(4), writer if writes else None, delay)
        row = {"id": table.id, "variant": "none", "options": {}, "seed": "", "seats": []}
        await writer.run(lambda session: session.add(TableRow(**row, created_at=now())))
        tables[table.id] = table
        return {"table": {"id": table.id}}

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str) -> dict[str, Any]:
        return {"token": table_id}

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        table = tables[table_id]
        await websocket.accept()
        hello = await websocket.receive_json()
        seat = 0 if hello.get("token") == table_id else None
        conn = Connection(websocket, seat, "en")
        pump = asyncio.create_task(conn.pump())
        table.sockets[seat].append(conn)
        conn.send(table.state(seat))
        if seat == 0 and table.task is None:
            table.task = asyncio.create_task(table.play())
        try:
            while True:
                message = await websocket.receive_json()
                if message["type"] == "sync":
                    conn.send(table.state(seat))
                elif (
                    message["type"] == "action"
                    and seat == table.to_play
                    and message["state_id"] == table.state_id
                    and table.asked is not None
                    and not table.asked.done()
                ):
                    table.asked.set_result(message["action"])
        except WebSocketDisconnect:
            pass
        finally:
            table.sockets[seat].remove(conn)
            conn.close()
            with contextlib.suppress(Exception):
                await pump

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--database", default=None)
    parser.add_argument("--bot-delay", type=float, default=0.25)
    parser.add_argument("--no-writes", action="store_true", help="commit no action")
    args, _ = parser.parse_known_args()  # remi serve's other options: nothing to do here
    database = args.database or f"sqlite:///{tempfile.mkdtemp(prefix='remikit-floor-')}/floor.db"
    store = Store(database)
    writer = Writer(store)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))
    sock.listen(2048)  # connections wait in the backlog until uvicorn serves them
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        make_app(writer, args.bot_delay, writes=not args.no_writes),
        log_level="warning",
        ws_max_size=1 << 16,
    )
    server = uvicorn.Server(config)
    settle_collector()  # as remi serve does once started
    print(f"remikit: open http://127.0.0.1:{port}/", flush=True)
    try:
        server.run(sockets=[sock])
    finally:
        writer.close()


if __name__ == "__main__":
    main()
