"""One WebSocket of a table: its seat, language and queue of outgoing text."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson
from fastapi import WebSocket

log = logging.getLogger("remikit.server")


def dumps(message: dict[str, Any]) -> str:
    """A message as compact JSON text."""
    return orjson.dumps(message).decode()


class Connection:
    """One WebSocket: its seat (None: a spectator), language, who it comes from, and its
    queue of outgoing text.

    Sending never waits: text goes into the queue and a pump task writes it out, so a
    slow client holds up nobody. A client that falls too far behind is disconnected.
    ``rev`` is the rev of the last state the socket was sent (docs/protocol.md §4): the
    base its next change applies to.
    """

    def __init__(
        self,
        websocket: WebSocket,
        seat: int | None,
        lang: str,
        *,
        client: str | None = None,
        limit: int = 256,
    ) -> None:
        self.websocket = websocket
        self.seat = seat
        self.lang = lang
        self.client = client
        self.limit = limit
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.slow = False
        self.rev: int | None = None
        self.presence = 0  # the table's presence changes this socket has been shown

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= self.limit:
            log.warning("closing a socket that fell %d messages behind", self.limit)
            self.close(slow=True)
            return
        self.queue.put_nowait(text)

    def send_json(self, message: dict[str, Any]) -> None:
        self.send(dumps(message))

    def close(self, *, slow: bool = False) -> None:
        if not self.closed:
            self.closed = True
            self.slow = slow
            self.queue.put_nowait(None)

    async def pump(self) -> None:
        """Write queued text to the socket until :meth:`close`, then close the socket
        (code 1013 for a client too slow to keep up)."""
        while not self.slow:
            text = await self.queue.get()
            if text is None:
                break
            await self.websocket.send_text(text)
        await self.websocket.close(code=1013 if self.slow else 1000)
